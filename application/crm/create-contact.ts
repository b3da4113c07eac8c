import { inject, injectable } from 'inversify';
import { DEFAULT_CONTACT_PROPERTIES, type Contact, type CompanyLink } from '../../domain/crm/contact.js';
import { invalidInput } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { ContactBook } from '../../ports/contact-book.js';
import { described, params, PropertyValue, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { contactPayload, contactText } from './contact-text.js';
import { CreatedContactResult } from './crm-results.js';

export const CreateContactParams = params(
  {
    values: described(
      t.record(t.string, PropertyValue),
      'By internal name, as strings (email, firstname, lastname, phone, company...). Enumerations: the internal value; multi-select joined with ";". company also creates or matches that company and links it as primary.',
    ),
  },
  {
    id_only: described(t.boolean, 'false: return the full contact.', true),
  },
);
export type CreateContactParams = t.TypeOf<typeof CreateContactParams>;

export interface CreateContactResult {
  readonly contact: Contact;
  readonly company?: CompanyLink;
  readonly idOnly: boolean;
}

@injectable()
export class CreateContact implements UseCase<CreateContactParams, CreateContactResult> {
  constructor(@inject(ContactBook) private readonly contacts: ContactBook) {}

  execute(p: CreateContactParams): TaskEither<GatewayError, CreateContactResult> {
    if (Object.keys(p.values).length === 0) {
      return TE.left(
        invalidInput(
          'values is empty: give at least one property, usually "email".',
          'values',
          'object of property name to string',
        ),
      );
    }
    // With id_only nothing beyond the id is shown, so no property is asked back: the create answer carries
    // the id, and the contact is not read again (one vendor call; issue 31).
    return pipe(
      this.contacts.create(p.values, p.id_only ? [] : DEFAULT_CONTACT_PROPERTIES),
      TE.map(({ contact, company }) => ({ contact, company, idOnly: p.id_only })),
    );
  }
}

export const createContactTool = defineTool({
  group: 'crm',
  name: 'createContact',
  title: 'Create contact',
  description:
    'Creates a CRM contact (property names and values: crm_getProperties). A contact with the same email is a conflict: find it with crm_searchContacts.',
  annotations: { kind: 'Write', idempotent: false },
  params: CreateContactParams,
  useCase: CreateContact,
  result: CreatedContactResult,
  json: (r) => ({
    ...(r.idOnly ? { id: r.contact.id } : contactPayload(r.contact)),
    ...(r.company ? { associated_company: r.company } : {}),
  }),
  text: (r) =>
    [
      r.idOnly ? `Created contact ${r.contact.id}.` : contactText(r.contact),
      r.company
        ? `Linked to ${r.company.created ? 'new' : 'existing'} company "${r.company.name}" (id ${r.company.id}) as its primary company.`
        : '',
      nextSteps([
        `Read it: ${call('crm_getContact', { contact_id: r.contact.id })}`,
        `Change it: ${call('crm_updateContact', { contact_id: r.contact.id, values: { lifecyclestage: 'lead' } })}`,
      ]),
    ]
      .filter(Boolean)
      .join('\n'),
});
