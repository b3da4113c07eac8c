import { ContactId } from './contact-id.js';
import { inject, injectable } from 'inversify';
import { DEFAULT_CONTACT_PROPERTIES, type Contact } from '../../domain/crm/contact.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import type { TaskEither } from '../../domain/shared/fp.js';
import { ContactBook } from '../../ports/contact-book.js';
import { described, NonEmptyString, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { contactPayload, contactText } from './contact-text.js';
import { ContactResult } from './crm-results.js';

export const GetContactParams = params(
  {
    contact_id: described(ContactId, 'A numeric string such as "101".'),
  },
  {
    return_properties: described(t.array(NonEmptyString), 'Properties to return.', [...DEFAULT_CONTACT_PROPERTIES]),
  },
);
export type GetContactParams = t.TypeOf<typeof GetContactParams>;

@injectable()
export class GetContact implements UseCase<GetContactParams, Contact> {
  constructor(@inject(ContactBook) private readonly contacts: ContactBook) {}

  execute(p: GetContactParams): TaskEither<GatewayError, Contact> {
    const props = p.return_properties.length ? p.return_properties : DEFAULT_CONTACT_PROPERTIES;
    return this.contacts.get(p.contact_id, props);
  }
}

export const getContactTool = defineTool({
  group: 'crm',
  name: 'getContact',
  title: 'Get contact',
  description: 'Reads one CRM contact by id (crm_searchContacts finds ids).',
  annotations: { kind: 'Read', idempotent: true },
  params: GetContactParams,
  useCase: GetContact,
  result: ContactResult,
  json: contactPayload,
  text: contactText,
});
