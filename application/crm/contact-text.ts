import { contactDisplayName, type Contact } from '../../domain/crm/contact.js';
import { pairRow, tableHead } from '../runtime/markdown.js';

/** The contact as getContact's JSON payload shows it. */
export const contactPayload = (c: Contact) => ({
  id: c.id,
  properties: c.properties,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
  archived: c.archived,
  ...(c.url ? { url: c.url } : {}),
});

const SYSTEM = new Set(['createdate', 'lastmodifieddate', 'hs_object_id']);

const PROPERTY_TABLE = tableHead(['Property', 'Value']);

/** A contact as markdown: heading with name and id, a property table, empties named once. */
export const contactText = (c: Contact): string => {
  // Rows written as they are found (pairRow), with no row array: this is on the path of every crm_getContact.
  let rows = '';
  let empty = '';
  for (const name in c.properties) {
    if (SYSTEM.has(name)) continue;
    const v = c.properties[name];
    if (v === null || v === undefined || v === '') empty += empty ? `, ${name}` : name;
    else rows += pairRow(name, v);
  }
  let text = `## Contact ${contactDisplayName(c)} (id ${c.id})${c.archived ? ' (archived)' : ''}\n\n`;
  text += rows ? PROPERTY_TABLE + rows : '_No properties set._';
  if (empty) text += `\n\nNot set: ${empty}.`;
  text += `\n\n**Created:** ${c.createdAt}\n**Updated:** ${c.updatedAt}`;
  if (c.url) text += `\n**URL:** ${c.url}`;
  return text;
};
