import { inject, injectable } from 'inversify';
import { validateFields } from '../../domain/records/field-input.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { E, pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordStore } from '../../ports/record-store.js';
import { UrlFetcher } from '../../ports/url-fetcher.js';
import { described, NumericId, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { FieldsObject, flagParams, flagsOf, recordPayload, recordText } from './common.js';
import { limitAttachmentUrls, writeWithAttachments } from './attachments.js';
import type { WrittenRecord } from './create-record.js';
import { WrittenRecordResult } from './record-results.js';

export const UpdateRecordParams = params(
  {
    record_id: described(NumericId, 'The record to change.'),
    fields: described(
      FieldsObject,
      `Only the fields to change, keyed and formatted as in records_createRecord; null clears one. Checklists: items with their id are kept (and updated), items without id are added, existing items left out are deleted.`,
    ),
  },
  {
    id_only: described(t.boolean, 'false: return the full record.', true),
    ...flagParams,
  },
);
export type UpdateRecordParams = t.TypeOf<typeof UpdateRecordParams>;

@injectable()
export class UpdateRecord implements UseCase<UpdateRecordParams, WrittenRecord> {
  constructor(
    @inject(RecordStore) private readonly store: RecordStore,
    @inject(RecordApps) private readonly apps: RecordApps,
    @inject(UrlFetcher) private readonly fetcher: UrlFetcher,
  ) {}

  execute(p: UpdateRecordParams): TaskEither<GatewayError, WrittenRecord> {
    return pipe(
      this.store.get(p.record_id),
      TE.chain((current) => this.apps.getApp(current.app_id)),
      TE.chain((app) =>
        pipe(
          TE.fromEither(
            pipe(
              validateFields(app, p.fields, 'update'),
              E.chain((f) => limitAttachmentUrls(f)),
            ),
          ),
          TE.chain((fields) =>
            writeWithAttachments(fields, this.fetcher, this.store, (resolved) =>
              this.store.update(app, p.record_id, resolved, flagsOf(p)),
            ),
          ),
          TE.map((record) => ({ app, record })),
        ),
      ),
    );
  }
}

export const updateRecordTool = defineTool({
  group: 'records',
  name: 'updateRecord',
  title: 'Update a record',
  description:
    'Changes only the given fields of a record; every change is kept as a revision (records_getRecordRevisions).',
  annotations: { kind: 'Write', idempotent: true },
  params: UpdateRecordParams,
  useCase: UpdateRecord,
  result: WrittenRecordResult,
  // The new revision rides with the answer (issue 41), so the next call can name what this update changed.
  json: ({ app, record }, p) =>
    p.id_only === false
      ? { ...recordPayload(app, record, app.fields, false), revision: record.revision }
      : { record_id: record.record_id, revision: record.revision },
  text: ({ app, record }, p) =>
    [
      p.id_only === false
        ? recordText(app, record, app.fields)
        : `## Updated ${app.item_name.toLowerCase()} "${record.title}" (record ${record.record_id}), now at revision ${record.revision}`,
      nextSteps([
        record.revision > 0
          ? `See what this update changed: ${call('records_getRecordRevisionDelta', { record_id: record.record_id, revision_from: record.revision - 1, revision_to: record.revision })}`
          : `See its revisions: ${call('records_getRecordRevisions', { record_id: record.record_id })}`,
      ]),
    ].join('\n'),
});
