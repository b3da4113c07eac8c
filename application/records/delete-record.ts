import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordStore } from '../../ports/record-store.js';
import { described, NumericId, params, t } from '../runtime/codecs.js';
import type { Preview } from '../runtime/confirm.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { flagParams, flagsOf } from './common.js';
import { fullRecord, type FullRecord } from './record-shapes.js';
import { recordText } from './common.js';
import type { App } from '../../domain/records/app.js';
import type { RecordData } from '../../domain/records/record.js';
import { DeletedRecordResult, RecordResult } from './record-results.js';

export const DeleteRecordParams = params({ record_id: described(NumericId, 'The record to delete.') }, flagParams);
export type DeleteRecordParams = t.TypeOf<typeof DeleteRecordParams>;

@injectable()
export class DeleteRecord implements UseCase<DeleteRecordParams, { deleted: true; record_id: number }> {
  constructor(
    @inject(RecordStore) private readonly store: RecordStore,
    @inject(RecordApps) private readonly apps: RecordApps,
  ) {}

  /** What a person approves: the record and its app by name (not an address, which may be no web link). */
  preview(p: DeleteRecordParams): TaskEither<GatewayError, Preview> {
    return pipe(
      this.store.get(p.record_id),
      TE.chain((r) =>
        pipe(
          this.apps.getApp(r.app_id),
          TE.map((app) => ({
            summary: `move ${app.item_name.toLowerCase()} "${r.title}" (record ${r.record_id}) of the app ${app.name} to the trash (records_restoreRecord brings it back)`,
            facts: { record_id: r.record_id, title: r.title, app: app.name, app_id: r.app_id },
          })),
        ),
      ),
    );
  }

  execute(p: DeleteRecordParams): TaskEither<GatewayError, { deleted: true; record_id: number }> {
    return pipe(
      this.store.delete(p.record_id, flagsOf(p)),
      TE.map(() => ({ deleted: true as const, record_id: p.record_id })),
    );
  }
}

export const deleteRecordTool = defineTool({
  group: 'records',
  name: 'deleteRecord',
  title: 'Delete a record',
  description:
    'Moves a record to the trash: it disappears from reads until records_restoreRecord brings it back intact.',
  annotations: { kind: 'Destructive', idempotent: true },
  params: DeleteRecordParams,
  useCase: DeleteRecord,
  result: DeletedRecordResult,
  text: (r) =>
    [
      `## Record ${r.record_id} moved to the trash`,
      nextSteps([`Undo: ${call('records_restoreRecord', { record_id: r.record_id })}`]),
    ].join('\n'),
});

export const RestoreRecordParams = params({ record_id: described(NumericId, 'The deleted record to bring back.') }, {});
export type RestoreRecordParams = t.TypeOf<typeof RestoreRecordParams>;

export interface RestoredRecord {
  readonly app: App;
  readonly record: RecordData;
  readonly full: FullRecord;
}

@injectable()
export class RestoreRecord implements UseCase<RestoreRecordParams, RestoredRecord> {
  constructor(
    @inject(RecordStore) private readonly store: RecordStore,
    @inject(RecordApps) private readonly apps: RecordApps,
  ) {}

  execute(p: RestoreRecordParams): TaskEither<GatewayError, RestoredRecord> {
    return pipe(
      this.store.restore(p.record_id),
      TE.chain((record) =>
        pipe(
          this.apps.getApp(record.app_id),
          TE.map((app) => ({ app, record, full: fullRecord(app, record) })),
        ),
      ),
    );
  }
}

export const restoreRecordTool = defineTool({
  group: 'records',
  name: 'restoreRecord',
  title: 'Restore a deleted record',
  description:
    'Brings a record back from the trash with all its field values; returns the full restored record (deleted_on null).',
  annotations: { kind: 'Write', idempotent: true },
  params: RestoreRecordParams,
  useCase: RestoreRecord,
  result: RecordResult,
  json: (r) => r.full,
  text: ({ app, record }) =>
    [
      `Restored from the trash with every value intact.\n`,
      recordText(app, record, app.fields),
      nextSteps([`Read it: ${call('records_getRecord', { record_id: record.record_id })}`]),
    ].join('\n'),
});
