import type { Contact } from '../../../domain/crm/contact.js';
import type { PropertyDefinition, PropertyType } from '../../../domain/crm/property.js';
import type { ContactSearch } from '../../../domain/crm/search.js';
import type { PropertyDefinitionBody, SimplePublicObject } from './hubspot-codecs.js';

// HubSpot's objects and property definitions as the domain's, and the domain's searches as HubSpot's
// request bodies and query parameters.

const PROPERTY_TYPES: ReadonlySet<string> = new Set<PropertyType>([
  'string',
  'number',
  'date',
  'datetime',
  'enumeration',
  'bool',
  'phone_number',
]);

export const unique = (names: readonly string[]): string[] => [...new Set(names)];

/** HubSpot returns its default properties when none are named; asking for the id alone keeps reads minimal. */
export const propertyParams = (names: readonly string[], extra: Record<string, string> = {}): URLSearchParams => {
  const params = new URLSearchParams(extra);
  for (const name of names.length ? unique(names) : ['hs_object_id']) params.append('properties', name);
  return params;
};

/** Where the account's records are seen: its id and web host (`uiDomain`, e.g. app-eu1.hubspot.com). */
export interface AccountLinks {
  readonly portalId?: string;
  readonly uiDomain?: string;
}

/** A contact; its web address is built from the account's id and web host when HubSpot sends none. */
export const toContact = (o: SimplePublicObject, account: AccountLinks): Contact => {
  const host = account.uiDomain && /^[a-z0-9.-]+$/i.test(account.uiDomain) ? account.uiDomain : 'app.hubspot.com';
  const url =
    o.url ??
    (account.portalId
      ? `https://${host}/contacts/${encodeURIComponent(account.portalId)}/record/0-1/${encodeURIComponent(o.id)}`
      : undefined);
  return {
    id: o.id,
    properties: o.properties,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    archived: o.archived,
    ...(o.archivedAt ? { archivedAt: o.archivedAt } : {}),
    ...(url ? { url } : {}),
  };
};

/** The body of `POST .../contacts/search`. */
export const toSearchRequest = (search: ContactSearch) => ({
  filterGroups: search.filterGroups,
  // The documents type `sorts` as strings: "name" ascending, "-name" descending.
  sorts: search.sorts.map((s) => (s.direction === 'DESCENDING' ? `-${s.propertyName}` : s.propertyName)),
  ...(search.query !== undefined ? { query: search.query } : {}),
  properties: search.properties.length ? unique(search.properties) : ['hs_object_id'],
  limit: search.limit,
  after: search.after ?? '0',
});

export const toDefinition = (p: PropertyDefinitionBody): PropertyDefinition => ({
  name: p.name,
  label: p.label,
  type: PROPERTY_TYPES.has(p.type) ? (p.type as PropertyType) : 'string',
  fieldType: p.fieldType,
  ...(p.description ? { description: p.description } : {}),
  ...(p.options && p.options.length ? { options: p.options.map((o) => ({ value: o.value, label: o.label })) } : {}),
  ...(p.modificationMetadata?.readOnlyValue ? { readOnly: true } : {}),
  ...(p.groupName ? { groupName: p.groupName } : {}),
});
