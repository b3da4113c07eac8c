import { inject, injectable } from 'inversify';
import type { App, FieldDefinition } from '../../domain/records/app.js';
import type { RecordData } from '../../domain/records/record.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordStore } from '../../ports/record-store.js';
import { described, NumericId, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { checkSelection, recordPayload, recordPresentation, selectionParams } from './common.js';
import { RecordResult } from './record-results.js';

export const GetRecordParams = params({ record_id: described(NumericId, 'The record id.') }, selectionParams);
export type GetRecordParams = t.TypeOf<typeof GetRecordParams>;

export interface LoadedRecord {
  readonly app: App;
  readonly record: RecordData;
  readonly fields: readonly FieldDefinition[];
}

@injectable()
export class GetRecord implements UseCase<GetRecordParams, LoadedRecord> {
  constructor(
    @inject(RecordStore) private readonly store: RecordStore,
    @inject(RecordApps) private readonly apps: RecordApps,
  ) {}

  execute(p: GetRecordParams): TaskEither<GatewayError, LoadedRecord> {
    return pipe(
      this.store.get(p.record_id),
      TE.chain((record) =>
        pipe(
          this.apps.getApp(record.app_id),
          TE.map((app) => ({ app, record })),
        ),
      ),
      TE.chain(({ app, record }) =>
        pipe(
          checkSelection(app, p),
          TE.map((fields) => ({ app, record, fields })),
        ),
      ),
    );
  }
}

export const getRecordTool = defineTool({
  group: 'records',
  name: 'getRecord',
  title: 'Get a record',
  description:
    'One record by record_id with its field values. A deleted record answers that it is in the trash and how to restore it.',
  annotations: { kind: 'Read', idempotent: true },
  params: GetRecordParams,
  useCase: GetRecord,
  result: RecordResult,
  json: ({ app, record, fields }, p) => recordPayload(app, record, fields, p.verbose),
  text: ({ app, record, fields }) =>
    recordPresentation(
      app,
      record,
      fields,
      nextSteps([
        `Change values: ${call('records_updateRecord', { record_id: record.record_id, fields: {} })}`,
        `History: ${call('records_getRecordRevisions', { record_id: record.record_id })}`,
        `Comments: ${call('records_listRecordComments', { record_id: record.record_id })}`,
      ]),
    ),
});
