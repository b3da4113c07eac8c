import type { ServiceIdentifier } from 'inversify';
import type { TaskEither } from '../domain/shared/fp.js';
import type { GatewayError } from '../domain/shared/errors.js';
import type { CompanyLink, Contact, ContactId, CrmObjectType, PropertyValues } from '../domain/crm/contact.js';
import type { PropertyDefinition } from '../domain/crm/property.js';
import type { ContactPage, ContactSearch } from '../domain/crm/search.js';

export interface CreatedContact {
  readonly contact: Contact;
  /** Set when the values named a `company`: the company matched by name or created, linked as primary. */
  readonly company?: CompanyLink;
}

/**
 * The CRM's contacts. Implemented in memory and by HubSpot; both honour the same contract suite
 * (test/ports/contact-book.contract.ts).
 */
export interface ContactBook {
  /** Creates a contact; a `company` value also matches or creates that company and links it as primary. */
  create(values: PropertyValues, returnProperties: readonly string[]): TaskEither<GatewayError, CreatedContact>;
  /** An active contact with the requested properties; an archived or unknown id is NotFound. */
  get(id: ContactId, properties: readonly string[]): TaskEither<GatewayError, Contact>;
  /** Changes only the given properties. */
  update(id: ContactId, values: PropertyValues): TaskEither<GatewayError, Contact>;
  /** Moves the contact to the recycling bin. */
  archive(id: ContactId): TaskEither<GatewayError, void>;
  search(search: ContactSearch): TaskEither<GatewayError, ContactPage>;
  properties(objectType: CrmObjectType): TaskEither<GatewayError, readonly PropertyDefinition[]>;
}

export const ContactBook = Symbol.for('ContactBook') as ServiceIdentifier<ContactBook>;
