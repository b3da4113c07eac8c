import * as t from 'io-ts';
import { destructive, nullable, resultObject, Truncated } from '../runtime/results.js';

// The crm tools' structured results, one shape per concept: a contact is the same object in every tool.

const Properties = t.record(t.string, nullable(t.string));

export const ContactResult = resultObject(
  'Contact',
  { id: t.string, properties: Properties, createdAt: t.string, updatedAt: t.string, archived: t.boolean },
  { url: t.string },
);

const AssociatedCompany = resultObject('AssociatedCompany', { id: t.string, name: t.string, created: t.boolean });

/** createContact: the contact (only its id with id_only), and the company it was linked to. */
export const CreatedContactResult = resultObject(
  'CreatedContact',
  { id: t.string },
  {
    properties: Properties,
    createdAt: t.string,
    updatedAt: t.string,
    archived: t.boolean,
    url: t.string,
    associated_company: AssociatedCompany,
  },
);

export const UpdatedContactResult = resultObject('UpdatedContact', { id: t.string, updated: t.literal(true) });

export const ContactSearchResult = resultObject(
  'ContactSearch',
  {
    total: t.number,
    count: t.number,
    results: t.array(resultObject('ContactHit', { id: t.string, properties: Properties })),
  },
  { after: t.string, truncated: Truncated },
);

const PropertyOption = resultObject('PropertyOption', { value: t.string, label: t.string });

export const PropertiesResult = resultObject('Properties', {
  object_type: t.keyof({ contacts: null, companies: null }),
  total: t.number,
  offset: t.number,
  properties: t.array(
    resultObject(
      'Property',
      { name: t.string, label: t.string, type: t.string, field_type: t.string },
      { description: t.string, read_only: t.literal(true), options: t.array(PropertyOption) },
    ),
  ),
});

export const DeletedContactResult = destructive(
  resultObject('DeletedContact', { deleted: t.literal(true), contactId: t.string }),
);
