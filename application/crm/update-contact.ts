import { ContactId } from './contact-id.js';
import { inject, injectable } from 'inversify';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { ContactBook } from '../../ports/contact-book.js';
import { described, params, PropertyValue, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { UpdatedContactResult } from './crm-results.js';

export const UpdateContactParams = params(
  {
    contact_id: described(ContactId, 'The contact id (numeric string).'),
    values: described(
      t.record(t.string, PropertyValue),
      'By internal name, as strings (enumerations: the internal value, see crm_getProperties); an empty string clears one.',
    ),
  },
  {},
);
export type UpdateContactParams = t.TypeOf<typeof UpdateContactParams>;

export interface UpdateContactResult {
  readonly id: string;
  readonly updated: true;
  readonly changed: readonly string[];
}

@injectable()
export class UpdateContact implements UseCase<UpdateContactParams, UpdateContactResult> {
  constructor(@inject(ContactBook) private readonly contacts: ContactBook) {}

  execute(p: UpdateContactParams): TaskEither<GatewayError, UpdateContactResult> {
    const changed = Object.keys(p.values);
    if (changed.length === 0) {
      return TE.left(
        invalidInput(
          'values is empty: give at least one property to change.',
          'values',
          'object of property name to string',
        ),
      );
    }
    return pipe(
      this.contacts.update(p.contact_id, p.values),
      TE.map((c) => ({ id: c.id, updated: true as const, changed })),
    );
  }
}

export const updateContactTool = defineTool({
  group: 'crm',
  name: 'updateContact',
  title: 'Update contact',
  description: 'Changes the given properties of a CRM contact; the others stay.',
  annotations: { kind: 'Write', idempotent: true },
  params: UpdateContactParams,
  useCase: UpdateContact,
  result: UpdatedContactResult,
  json: (r) => ({ id: r.id, updated: r.updated }),
  text: (r) =>
    `Contact ${r.id} updated: ${r.changed.join(', ')}.` +
    nextSteps([`Check it: ${call('crm_getContact', { contact_id: r.id, return_properties: [...r.changed] })}`]),
});
