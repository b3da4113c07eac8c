import { ContactId } from './contact-id.js';
import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { ContactBook } from '../../ports/contact-book.js';
import { described, params, t } from '../runtime/codecs.js';
import type { Preview } from '../runtime/confirm.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { contactDisplayName } from '../../domain/crm/contact.js';
import { DeletedContactResult } from './crm-results.js';

export const DeleteContactParams = params({ contact_id: described(ContactId, 'The contact id (numeric string).') }, {});
export type DeleteContactParams = t.TypeOf<typeof DeleteContactParams>;

export interface DeleteContactResult {
  readonly deleted: true;
  readonly contactId: string;
}

@injectable()
export class DeleteContact implements UseCase<DeleteContactParams, DeleteContactResult> {
  constructor(@inject(ContactBook) private readonly contacts: ContactBook) {}

  preview(p: DeleteContactParams): TaskEither<GatewayError, Preview> {
    return pipe(
      this.contacts.get(p.contact_id, ['firstname', 'lastname', 'email', 'company']),
      TE.map((c) => {
        const email = c.properties['email'];
        return {
          summary: `archive contact ${c.id}, ${contactDisplayName(c)}${email ? ` <${email}>` : ''} (it can be restored in the CRM for a limited time)`,
          facts: { contact_id: c.id, name: contactDisplayName(c), email, company: c.properties['company'] },
        };
      }),
    );
  }

  execute(p: DeleteContactParams): TaskEither<GatewayError, DeleteContactResult> {
    return pipe(
      this.contacts.archive(p.contact_id),
      TE.map(() => ({ deleted: true as const, contactId: p.contact_id })),
    );
  }
}

export const deleteContactTool = defineTool({
  group: 'crm',
  name: 'deleteContact',
  title: 'Delete contact',
  description:
    'Archives a CRM contact: it disappears from reads and searches; the CRM can restore it for 90 days (this gateway cannot).',
  annotations: { kind: 'Destructive', idempotent: true },
  params: DeleteContactParams,
  useCase: DeleteContact,
  result: DeletedContactResult,
  text: (r) =>
    `Contact ${r.contactId} archived (moved to the recycling bin). It no longer appears in crm_getContact or crm_searchContacts; a CRM user can restore it for a limited time.`,
});
