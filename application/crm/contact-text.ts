import { contactDisplayName, type Contact } from '../../domain/crm/contact.js';
import { fields, table } from '../runtime/markdown.js';

/** The contact as getContact's JSON payload shows it (the spec's Contact). */
export const contactPayload = (c: Contact) => ({
  id: c.id,
  properties: c.properties,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
  archived: c.archived,
  ...(c.url ? { url: c.url } : {}),
});

const SYSTEM = new Set(['createdate', 'lastmodifieddate', 'hs_object_id']);

/** A contact as markdown: heading with name and id, a property table, empties named once. */
export const contactText = (c: Contact): string => {
  const set = Object.entries(c.properties).filter(([k, v]) => !SYSTEM.has(k) && v !== null && v !== '');
  const empty = Object.entries(c.properties)
    .filter(([k, v]) => !SYSTEM.has(k) && (v === null || v === ''))
    .map(([k]) => k);
  return [
    `## Contact ${contactDisplayName(c)} (id ${c.id})${c.archived ? ' (archived)' : ''}`,
    set.length ? table(['Property', 'Value'], set) : '_No properties set._',
    empty.length ? `Not set: ${empty.join(', ')}.` : '',
    fields([
      ['Created', c.createdAt],
      ['Updated', c.updatedAt],
      ['URL', c.url],
    ]),
  ]
    .filter(Boolean)
    .join('\n\n');
};
