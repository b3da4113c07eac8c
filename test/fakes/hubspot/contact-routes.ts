import {
  archiveContact,
  newContact,
  PRIMARY_COMPANY_PROPERTY,
  projectContact,
  updateContact,
} from '../../../domain/crm/contact.js';
import { compareContacts, matchesFilterGroups, matchesQuery } from '../../../domain/crm/search.js';
import { E } from '../../../domain/shared/fp.js';
import {
  contactDefs,
  CONTACT_TO_COMPANY_TYPES,
  DEFAULT_CONTACT_READ,
  objectBody,
  page,
  parseSearch,
  type CrmState,
} from './crm-state.js';
import { errorBody, notFoundReply, propertyProblem } from './hubspot-bodies.js';
import type { Reply } from './request-check.js';
import type { Json } from './spec-catalogue.js';

// The HubSpot stand-in's contact operations: create (with associations), read by id or unique property,
// update, archive and search.

export const postContact = (crm: CrmState, body: Json): Reply => {
  const values = Object.fromEntries(
    Object.entries(body['properties'] as Record<string, string>).filter(([, v]) => v !== ''),
  );
  const invalid = propertyProblem(contactDefs, values);
  if (invalid) return { status: 400, body: invalid };
  const duplicate = crm.emailOwner(values['email']);
  if (duplicate)
    return { status: 409, body: errorBody(`Contact already exists. Existing ID: ${duplicate.id}`, 'CONFLICT') };
  const links = new Map<string, Set<number>>();
  for (const a of body['associations'] as {
    to: { id: string };
    types: { associationCategory: string; associationTypeId: number }[];
  }[]) {
    if (!crm.activeCompany(a.to.id))
      return {
        status: 400,
        body: errorBody(`One or more associations are invalid: no company with id ${a.to.id}.`, 'VALIDATION_ERROR'),
      };
    for (const type of a.types) {
      if (type.associationCategory !== 'HUBSPOT_DEFINED' || !CONTACT_TO_COMPANY_TYPES.has(type.associationTypeId)) {
        return {
          status: 400,
          body: errorBody(
            `${type.associationCategory} association type ${type.associationTypeId} is not valid between contacts and companies.`,
            'VALIDATION_ERROR',
          ),
        };
      }
      const set = links.get(a.to.id) ?? new Set<number>();
      // Every contact-company link is also unlabeled (279); 1 is the primary company (HubSpot's association type ids).
      set.add(type.associationTypeId).add(279);
      links.set(a.to.id, set);
    }
  }
  const primary = [...links].find(([, types]) => types.has(1))?.[0];
  const id = String(crm.nextContactId++);
  const contact = newContact(
    id,
    { ...values, ...(primary ? { [PRIMARY_COMPANY_PROPERTY]: primary } : {}) },
    crm.clock.now(),
  );
  crm.contacts.set(id, contact);
  crm.associations.set(id, links);
  return { status: 201, body: objectBody(projectContact(contact, Object.keys(values), () => false)) };
};

export const getContact = (crm: CrmState, idOrValue: string, query: Record<string, string[]>): Reply => {
  const archived = query['archived']?.[0] === 'true';
  const contact = crm.lookup(idOrValue, query['idProperty']?.[0]);
  if (!contact || contact.archived !== archived) return notFoundReply();
  const requested = (query['properties'] ?? []).flatMap((p) => p.split(',')).filter(Boolean);
  return {
    status: 200,
    body: objectBody(
      projectContact(contact, requested.length ? requested : DEFAULT_CONTACT_READ, (n) => contactDefs.has(n)),
    ),
  };
};

export const patchContact = (crm: CrmState, idOrValue: string, query: Record<string, string[]>, body: Json): Reply => {
  const contact = crm.lookup(idOrValue, query['idProperty']?.[0]);
  if (!contact || contact.archived) return notFoundReply();
  const values = body['properties'] as Record<string, string>;
  const invalid = propertyProblem(contactDefs, values);
  if (invalid) return { status: 400, body: invalid };
  const duplicate = crm.emailOwner(values['email'], contact.id);
  if (duplicate)
    return { status: 409, body: errorBody(`Contact already exists. Existing ID: ${duplicate.id}`, 'CONFLICT') };
  const updated = updateContact(contact, values, crm.clock.now());
  if (E.isLeft(updated)) return notFoundReply();
  const properties = Object.fromEntries(
    Object.entries(updated.right.properties).filter(([, v]) => v !== '' && v !== null),
  );
  const stored = { ...updated.right, properties };
  crm.contacts.set(stored.id, stored);
  return { status: 200, body: objectBody(projectContact(stored, Object.keys(values), () => false)) };
};

/** HubSpot answers 204 whether or not the id exists (UNVERIFIED; the adapter does not rely on it). */
export const deleteContact = (crm: CrmState, id: string): Reply => {
  const contact = crm.contacts.get(id);
  if (contact) crm.contacts.set(id, archiveContact(contact, crm.clock.now()));
  return { status: 204 };
};

export const searchContacts = (crm: CrmState, body: Json): Reply => {
  const parsed = parseSearch(body);
  if (E.isLeft(parsed)) return parsed.left;
  const { search, offset } = parsed.right;
  const matching = [...crm.contacts.values()]
    .filter(
      (c) =>
        !c.archived &&
        matchesFilterGroups(c.properties, search.filterGroups) &&
        matchesQuery(c.properties, search.query),
    )
    .sort(compareContacts(search.sorts));
  const requested = search.properties.length ? search.properties : DEFAULT_CONTACT_READ;
  return page(matching, offset, search.limit, (c) =>
    objectBody(projectContact(c, requested, (n) => contactDefs.has(n))),
  );
};

/** GET {objects}/contacts: a page of live contacts (the gateway reads one to check a private-app token). */
export const listContacts = (crm: CrmState, query: Record<string, string[]>): Reply => {
  const limit = Math.min(100, Math.max(1, Number(query['limit']?.[0] ?? 10)));
  const live = [...crm.contacts.values()].filter((c) => !c.archived).slice(0, limit);
  return {
    status: 200,
    body: { results: live.map((c) => objectBody(projectContact(c, DEFAULT_CONTACT_READ, (n) => contactDefs.has(n)))) },
  };
};
