import { E, type Either } from '../shared/fp.js';
import { invalidInput, type InvalidInput } from '../shared/errors.js';

/** HubSpot object ids are numeric strings. */
export type ContactId = string;
export type CompanyId = string;
export type CrmObjectType = 'contacts' | 'companies';

/** Property name -> value. HubSpot stores every value as a string; an unset property reads as null. */
export type PropertyValues = Readonly<Record<string, string | null>>;

export interface Contact {
  readonly id: ContactId;
  readonly properties: PropertyValues;
  /** ISO 8601 with milliseconds, UTC. */
  readonly createdAt: string;
  readonly updatedAt: string;
  /** True once deleted: the contact sits in the recycling bin and can still be restored in HubSpot. */
  readonly archived: boolean;
  readonly archivedAt?: string;
  readonly url?: string;
}

export interface Company {
  readonly id: CompanyId;
  readonly name: string;
  readonly properties: PropertyValues;
  readonly createdAt: string;
}

/** The primary company a new contact was linked to, and whether the gateway had to create it. */
export interface CompanyLink {
  readonly id: CompanyId;
  readonly name: string;
  readonly created: boolean;
}

/** The properties getContact returns when the caller names none. */
export const DEFAULT_CONTACT_PROPERTIES = [
  'firstname',
  'lastname',
  'email',
  'phone',
  'company',
  'lifecyclestage',
] as const;
/** searchContacts' default `return_properties`. */
export const DEFAULT_SEARCH_PROPERTIES = ['firstname', 'lastname', 'email'] as const;
/** Properties HubSpot always returns alongside the requested ones. */
export const ALWAYS_RETURNED = ['createdate', 'lastmodifieddate', 'hs_object_id'] as const;
/** Properties the free-text `query` of a contact search looks in (HubSpot's default searchable properties). */
export const DEFAULT_SEARCHABLE_PROPERTIES = [
  'firstname',
  'lastname',
  'email',
  'hs_additional_emails',
  'phone',
  'mobilephone',
  'fax',
  'company',
] as const;
/** Set by the system; a write to them is rejected. */
export const READ_ONLY_PROPERTIES = new Set(['createdate', 'lastmodifieddate', 'hs_object_id']);

/** The contact property that carries the primary company's id (maintained by HubSpot). */
export const PRIMARY_COMPANY_PROPERTY = 'associatedcompanyid';

export const isoTimestamp = (d: Date): string => d.toISOString();

/** A new contact as HubSpot creates it: system properties filled in, timestamps equal. */
export const newContact = (id: ContactId, values: PropertyValues, now: Date, url?: string): Contact => {
  const at = isoTimestamp(now);
  return {
    id,
    properties: { ...values, createdate: at, lastmodifieddate: at, hs_object_id: id },
    createdAt: at,
    updatedAt: at,
    archived: false,
    url,
  };
};

/** Only the given properties change; an empty string clears a property, as in HubSpot. */
export const updateContact = (contact: Contact, values: PropertyValues, now: Date): Either<InvalidInput, Contact> => {
  if (contact.archived) {
    return E.left(
      invalidInput(`Contact ${contact.id} is archived and cannot be updated.`, 'contact_id', 'id of an active contact'),
    );
  }
  const at = isoTimestamp(now);
  return E.right({
    ...contact,
    properties: { ...contact.properties, ...values, lastmodifieddate: at },
    updatedAt: at,
  });
};

/** Deleting a contact archives it (HubSpot's recycling bin); archiving twice is not an error. */
export const archiveContact = (contact: Contact, now: Date): Contact =>
  contact.archived ? contact : { ...contact, archived: true, archivedAt: isoTimestamp(now) };

/** The contact as a read returns it: only the requested properties (null when unset) plus the system ones. */
export const projectContact = (
  contact: Contact,
  requested: readonly string[],
  isKnown: (name: string) => boolean = () => true,
): Contact => {
  const properties: Record<string, string | null> = {};
  for (const name of [...requested, ...ALWAYS_RETURNED]) {
    if (name in contact.properties) properties[name] = contact.properties[name] ?? null;
    else if (isKnown(name)) properties[name] = null;
  }
  return { ...contact, properties };
};

export const contactDisplayName = (contact: Pick<Contact, 'id' | 'properties'>): string => {
  const p = contact.properties;
  const first = p['firstname']?.trim() ? p['firstname'] : undefined;
  const last = p['lastname']?.trim() ? p['lastname'] : undefined;
  const name = first && last ? `${first} ${last}` : (first ?? last);
  return name || p['email'] || `Contact ${contact.id}`;
};
