import { inject, injectable } from 'inversify';
import type { App } from '../../domain/records/app.js';
import { validateFields } from '../../domain/records/field-input.js';
import type { RecordData } from '../../domain/records/record.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { E, pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordStore } from '../../ports/record-store.js';
import { UrlFetcher } from '../../ports/url-fetcher.js';
import { described, NumericId, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { FIELDS_DESCRIPTION, FieldsObject, flagParams, flagsOf, recordPayload, recordText } from './common.js';
import { limitAttachmentUrls, writeWithAttachments } from './attachments.js';
import { WrittenRecordResult } from './record-results.js';

export const CreateRecordParams = params(
  {
    app_id: described(NumericId, 'The app (records_listApps).'),
    fields: described(FieldsObject, FIELDS_DESCRIPTION),
  },
  {
    id_only: described(t.boolean, 'false: return the full record.', true),
    ...flagParams,
  },
);
export type CreateRecordParams = t.TypeOf<typeof CreateRecordParams>;

export interface WrittenRecord {
  readonly app: App;
  readonly record: RecordData;
}

@injectable()
export class CreateRecord implements UseCase<CreateRecordParams, WrittenRecord> {
  constructor(
    @inject(RecordStore) private readonly store: RecordStore,
    @inject(RecordApps) private readonly apps: RecordApps,
    @inject(UrlFetcher) private readonly fetcher: UrlFetcher,
  ) {}

  execute(p: CreateRecordParams): TaskEither<GatewayError, WrittenRecord> {
    return pipe(
      this.apps.getApp(p.app_id),
      TE.chain((app) =>
        pipe(
          TE.fromEither(
            pipe(
              validateFields(app, p.fields, 'create'),
              E.chain((f) => limitAttachmentUrls(f)),
            ),
          ),
          TE.chain((fields) =>
            writeWithAttachments(fields, this.fetcher, this.store, (resolved) =>
              this.store.create(app, resolved, flagsOf(p)),
            ),
          ),
          TE.map((record) => ({ app, record })),
        ),
      ),
    );
  }
}

export const createRecordTool = defineTool({
  group: 'records',
  name: 'createRecord',
  title: 'Create a record',
  description:
    'Adds a record to an app; every required field must be given (records_getApp lists fields, types and options). Returns record_id and record_url.',
  annotations: { kind: 'Write', idempotent: false },
  params: CreateRecordParams,
  useCase: CreateRecord,
  result: WrittenRecordResult,
  json: ({ app, record }, p) =>
    p.id_only === false
      ? recordPayload(app, record, app.fields, false)
      : { record_id: record.record_id, record_url: record.record_url },
  text: ({ app, record }, p) =>
    [
      p.id_only === false
        ? recordText(app, record, app.fields)
        : `## Created ${app.item_name.toLowerCase()} "${record.title}" (record ${record.record_id})\n\n**URL:** ${record.record_url}`,
      nextSteps([
        `Read it: ${call('records_getRecord', { record_id: record.record_id })}`,
        `Comment on it: ${call('records_createRecordComment', { record_id: record.record_id, value: '...' })}`,
      ]),
    ].join('\n'),
});
