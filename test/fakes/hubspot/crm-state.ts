import type { Company, Contact } from '../../../domain/crm/contact.js';
import { companyPropertyDefinitions, contactPropertyDefinitions } from '../../../adapters/outbound/memory/demo/crm.js';
import type { PropertyDefinition } from '../../../domain/crm/property.js';
import {
  SEARCH_LIMITS,
  validateSearch,
  type ContactSearch,
  type FilterGroup,
  type Sort,
} from '../../../domain/crm/search.js';
import { E } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import { errorBody } from './hubspot-bodies.js';
import type { Reply } from './request-check.js';
import type { Json } from './spec-catalogue.js';

// The HubSpot stand-in's CRM: contacts, companies and their associations, with the search body, paging and
// object shapes its contact and company routes share.

export type StoredCompany = Company & { archived: boolean; updatedAt: string };

const byName = (defs: readonly PropertyDefinition[]) => new Map(defs.map((d) => [d.name, d]));

export const contactDefs = byName(contactPropertyDefinitions);
export const companyDefs = byName(companyPropertyDefinitions);
export const DEFAULT_CONTACT_READ = ['firstname', 'lastname', 'email'];
export const DEFAULT_COMPANY_READ = ['name', 'domain'];
const COMPANY_ALWAYS = ['createdate', 'hs_lastmodifieddate', 'hs_object_id'];
export const CONTACT_TO_COMPANY_TYPES = new Set([1, 279]);

export class CrmState {
  readonly contacts = new Map<string, Contact>();
  readonly companies = new Map<string, StoredCompany>();
  /** Per contact: the companies it is associated with, and the association type ids. */
  readonly associations = new Map<string, Map<string, Set<number>>>();
  nextContactId = 51;
  nextCompanyId = 7001;

  constructor(readonly clock: Clock) {}

  lookup(idOrValue: string, idProperty: string | undefined): Contact | undefined {
    if (!idProperty || idProperty === 'hs_object_id') return this.contacts.get(idOrValue);
    const lower = idOrValue.toLowerCase();
    return [...this.contacts.values()].find((c) => !c.archived && c.properties[idProperty]?.toLowerCase() === lower);
  }

  emailOwner(email: string | undefined, self?: string): Contact | undefined {
    if (!email) return undefined;
    const lower = email.toLowerCase();
    return [...this.contacts.values()].find(
      (c) => !c.archived && c.id !== self && c.properties['email']?.toLowerCase() === lower,
    );
  }

  activeCompany(id: string): StoredCompany | undefined {
    const c = this.companies.get(id);
    return c && !c.archived ? c : undefined;
  }
}

/** A search body (already checked against PublicObjectSearchRequest) as the domain's search, or HubSpot's 400. */
export const parseSearch = (body: Json): E.Either<Reply, { search: ContactSearch; offset: number }> => {
  const invalid = (message: string): E.Either<Reply, never> =>
    E.left({ status: 400, body: errorBody(message, 'VALIDATION_ERROR') });
  const limit = body['limit'] as number;
  if (limit < 1 || limit > 200) return invalid(`limit must be between 1 and 200; got ${limit}.`);
  const after = body['after'] as string;
  if (!/^\d+$/.test(after)) return invalid(`after must be a paging cursor from a previous page; got "${after}".`);
  const offset = Number(after);
  if (offset >= SEARCH_LIMITS.maxResults) return invalid(`Search results are limited to ${SEARCH_LIMITS.maxResults}.`);
  if ((body['sorts'] as string[]).length > 1) return invalid('Only one sort is allowed per search.');
  const sorts: Sort[] = (body['sorts'] as string[]).map((s) =>
    s.startsWith('-')
      ? { propertyName: s.slice(1), direction: 'DESCENDING' }
      : { propertyName: s, direction: 'ASCENDING' },
  );
  const search: ContactSearch = {
    filterGroups: body['filterGroups'] as FilterGroup[],
    sorts,
    ...(typeof body['query'] === 'string' ? { query: body['query'] } : {}),
    properties: body['properties'] as string[],
    limit,
  };
  const checked = validateSearch({ ...search, limit: Math.min(limit, SEARCH_LIMITS.maxLimit) });
  if (E.isLeft(checked)) return invalid(checked.left.message);
  return E.right({ search, offset });
};

/** One page of search results in HubSpot's shape, with the next cursor while more results may be paged to. */
export const page = <T>(matching: readonly T[], offset: number, limit: number, render: (item: T) => Json): Reply => {
  const page = matching.slice(offset, offset + limit);
  const end = offset + page.length;
  const more = end < matching.length && end < SEARCH_LIMITS.maxResults;
  return {
    status: 200,
    body: {
      total: matching.length,
      results: page.map(render),
      ...(more ? { paging: { next: { after: String(end), link: `?after=${end}` } } } : {}),
    },
  };
};

export const objectBody = (c: Contact): Json => ({
  id: c.id,
  properties: c.properties,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
  archived: c.archived,
  ...(c.archivedAt ? { archivedAt: c.archivedAt } : {}),
});

export const companyBody = (c: StoredCompany, requested: readonly string[]): Json => {
  const properties: Record<string, string | null> = {};
  for (const name of [...requested, ...COMPANY_ALWAYS]) {
    if (name in c.properties) properties[name] = c.properties[name] ?? null;
    else if (companyDefs.has(name)) properties[name] = null;
  }
  return { id: c.id, properties, createdAt: c.createdAt, updatedAt: c.updatedAt, archived: false };
};
