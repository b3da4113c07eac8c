import { inject, injectable } from 'inversify';
import type { FilterInput } from '../../domain/records/filters.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { Clock } from '../../ports/clock.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordStore } from '../../ports/record-store.js';
import { RecordsSettings } from '../../ports/records-settings.js';
import { described, NumericId, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { selectionParams } from './common.js';
import {
  listJson,
  listText,
  pageParams,
  recordsContinuation,
  runQuery,
  type QueryDeps,
  type RecordListResult,
} from './filter-records.js';
import { RecordPageResult } from './record-results.js';

export const ListRecordsParams = params(
  {},
  {
    app_id: described(NumericId, 'The app (records_listApps gives ids).'),
    view_id: described(NumericId, 'A saved view (records_getAppViews), instead of app_id.'),
    ...pageParams,
    ...selectionParams,
  },
);
export type ListRecordsParams = t.TypeOf<typeof ListRecordsParams>;

@injectable()
export class ListRecords implements UseCase<ListRecordsParams, RecordListResult> {
  private readonly query: QueryDeps;

  constructor(
    @inject(RecordStore) store: RecordStore,
    @inject(RecordApps) private readonly apps: RecordApps,
    @inject(RecordsSettings) settings: RecordsSettings,
    @inject(Clock) clock: Clock,
  ) {
    this.query = { store, settings, clock };
  }

  execute(p: ListRecordsParams): TaskEither<GatewayError, RecordListResult> {
    if (p.view_id !== undefined)
      return pipe(
        this.apps.getView(p.view_id, p.app_id),
        TE.chain(({ app_id, view }) =>
          pipe(
            this.apps.getApp(app_id),
            TE.chain((app) =>
              runQuery(
                app,
                {
                  ...p,
                  view_id: view.view_id,
                  filters: view.filters as FilterInput[],
                  sort_by: view.sort_by,
                  sort_desc: view.sort_desc,
                },
                this.query,
                `view ${view.view_id} filters`,
              ),
            ),
          ),
        ),
      );
    if (p.app_id === undefined)
      return TE.left(
        invalidInput(
          'Give app_id (records_listApps lists the apps) or view_id (records_getAppViews lists the views).',
          'app_id',
          'app id',
        ),
      );
    return pipe(
      this.apps.getApp(p.app_id),
      TE.chain((app) => runQuery(app, { ...p, filters: [] }, this.query)),
    );
  }
}

export const listRecordsTool = defineTool({
  group: 'records',
  name: 'listRecords',
  title: 'List records',
  description:
    'Lists the records of an app, or of a saved view (view_id) with its filters and sort, a page at a time (cursor). To search by field values use records_filterRecords.',
  annotations: { kind: 'Read', idempotent: true },
  params: ListRecordsParams,
  useCase: ListRecords,
  result: RecordPageResult,
  json: (r, p) => listJson(r, p.verbose),
  continuation: recordsContinuation,
  rows: { key: 'records', cursor: 'cursor' },
  text: (r, p) => listText(r, 'records_listRecords', p as unknown as Record<string, unknown>),
});
