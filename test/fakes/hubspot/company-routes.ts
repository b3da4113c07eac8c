import { companyPropertyDefinitions, contactPropertyDefinitions } from '../../../adapters/outbound/memory/demo/crm.js';
import { PRIMARY_COMPANY_PROPERTY, type Company, type Contact } from '../../../domain/crm/contact.js';
import { compareContacts, matchesFilterGroups, matchesQuery } from '../../../domain/crm/search.js';
import { E } from '../../../domain/shared/fp.js';
import { companyBody, companyDefs, DEFAULT_COMPANY_READ, page, parseSearch, type CrmState } from './crm-state.js';
import { errorBody, notFoundReply, propertyBody, propertyProblem } from './hubspot-bodies.js';
import type { Reply } from './request-check.js';
import type { Json } from './spec-catalogue.js';

// The HubSpot stand-in's company operations (create, search), the default contact-to-company association,
// and the property definitions of both objects.

export const postCompany = (crm: CrmState, body: Json): Reply => {
  const values = Object.fromEntries(
    Object.entries(body['properties'] as Record<string, string>).filter(([, v]) => v !== ''),
  );
  const invalid = propertyProblem(companyDefs, values);
  if (invalid) return { status: 400, body: invalid };
  const at = crm.clock.now().toISOString();
  const id = String(crm.nextCompanyId++);
  const company = {
    id,
    name: values['name'] ?? '',
    properties: { ...values, createdate: at, hs_lastmodifieddate: at, hs_object_id: id },
    createdAt: at,
    updatedAt: at,
    archived: false,
  };
  crm.companies.set(id, company);
  return { status: 201, body: companyBody(company, Object.keys(values)) };
};

export const searchCompanies = (crm: CrmState, body: Json): Reply => {
  const parsed = parseSearch(body);
  if (E.isLeft(parsed)) return parsed.left;
  const { search, offset } = parsed.right;
  const asContact = (c: Company & { updatedAt: string }): Contact => ({
    id: c.id,
    properties: c.properties,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    archived: false,
  });
  const matching = [...crm.companies.values()]
    .filter(
      (c) =>
        !c.archived &&
        matchesFilterGroups(c.properties, search.filterGroups) &&
        matchesQuery({ company: c.properties['name'] ?? null }, search.query),
    )
    .sort((a, b) => compareContacts(search.sorts)(asContact(a), asContact(b)));
  const requested = search.properties.length ? search.properties : DEFAULT_COMPANY_READ;
  return page(matching, offset, search.limit, (c) => companyBody(c, requested));
};

export const putDefaultAssociation = (crm: CrmState, params: Record<string, string>): Reply => {
  const from = params['fromObjectType'];
  const to = params['toObjectType'];
  if (!['contacts', '0-1'].includes(from ?? '') || !['companies', '0-2'].includes(to ?? '')) {
    return {
      status: 400,
      body: errorBody('The local HubSpot stand-in associates contacts to companies only.', 'VALIDATION_ERROR'),
    };
  }
  const contact = crm.contacts.get(params['fromObjectId'] ?? '');
  const company = crm.activeCompany(params['toObjectId'] ?? '');
  if (!contact || contact.archived || !company) return notFoundReply();
  const links = crm.associations.get(contact.id) ?? new Map<string, Set<number>>();
  links.set(company.id, (links.get(company.id) ?? new Set<number>()).add(279));
  crm.associations.set(contact.id, links);
  if (!contact.properties[PRIMARY_COMPANY_PROPERTY]) {
    links.get(company.id)!.add(1);
    crm.contacts.set(contact.id, {
      ...contact,
      properties: { ...contact.properties, [PRIMARY_COMPANY_PROPERTY]: company.id },
    });
  }
  const at = crm.clock.now().toISOString();
  return {
    status: 200,
    body: {
      status: 'COMPLETE',
      results: [
        {
          from: { id: contact.id },
          to: { id: company.id },
          associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 },
        },
      ],
      startedAt: at,
      completedAt: at,
    },
  };
};

export const listProperties = (objectType: string): Reply => {
  const defs =
    objectType === 'contacts' || objectType === '0-1' ? contactPropertyDefinitions : companyPropertyDefinitions;
  return { status: 200, body: { results: defs.map(propertyBody) } };
};
