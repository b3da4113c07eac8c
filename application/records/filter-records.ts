import { inject, injectable } from 'inversify';
import type { App, FieldDefinition } from '../../domain/records/app.js';
import {
  decodeCursor,
  encodeCursor,
  resolveFilters,
  resolveSort,
  type FilterInput,
} from '../../domain/records/filters.js';
import type { RecordData } from '../../domain/records/record.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { Clock } from '../../ports/clock.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordStore, type RecordPage } from '../../ports/record-store.js';
import { RecordsSettings } from '../../ports/records-settings.js';
import { described, NonEmptyString, NumericId, params, t, withoutDefaults } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps, type Presentation } from '../runtime/markdown.js';
import { checkSelection, FilterList, recordPayload, recordsTable, selectionParams, todayIn } from './common.js';
import { RecordPageResult } from './record-results.js';

export const MAX_LIMIT = 500;
export const DEFAULT_LIMIT = 100;

export const pageParams = {
  limit: described(NumericId, `Records per page, at most ${MAX_LIMIT}.`, DEFAULT_LIMIT),
  cursor: described(NonEmptyString, 'From the previous page.'),
  count_only: described(t.boolean, 'Only the number of matching records.', false),
};

export const FilterRecordsParams = params(
  {
    app_id: described(NumericId, 'The app to search (records_listApps gives app ids).'),
    filters: described(FilterList, 'Filter objects, all of which must match (AND). [] lists every record.'),
  },
  {
    ...pageParams,
    sort_by: described(NonEmptyString, 'external_id of a field to sort by (not created_on).'),
    sort_desc: described(t.boolean, 'Sort descending.', false),
    ...selectionParams,
  },
);
export type FilterRecordsParams = t.TypeOf<typeof FilterRecordsParams>;

export interface RecordListResult {
  readonly app: App;
  readonly total: number;
  readonly offset: number;
  readonly records: readonly RecordData[];
  readonly fields: readonly FieldDefinition[];
  readonly cursor?: string;
  readonly countOnly: boolean;
}

export const checkLimit = (limit: number | undefined): TaskEither<GatewayError, number> =>
  limit !== undefined && limit > MAX_LIMIT
    ? TE.left(
        invalidInput(
          `limit is at most ${MAX_LIMIT}; page through larger results with cursor.`,
          'limit',
          `integer from 1 to ${MAX_LIMIT}`,
        ),
      )
    : TE.right(limit ?? DEFAULT_LIMIT);

export interface QuerySpec {
  readonly filters: readonly FilterInput[];
  /** The saved view the filters and sort came from: a store that applies views itself is asked by id. */
  readonly view_id?: number;
  readonly sort_by?: string;
  readonly sort_desc?: boolean;
  readonly limit?: number;
  readonly cursor?: string;
  readonly count_only?: boolean;
  readonly field_ids?: readonly (string | number)[];
  readonly field_types?: 'all' | 'basic' | 'calculation';
}

/** What runQuery reads: the records, the tenant's settings (time zone, active user) and the clock. */
export interface QueryDeps {
  readonly store: RecordStore;
  readonly settings: RecordsSettings;
  readonly clock: Clock;
}

/** Shared by filterRecords and listRecords (a view's filters). */
export const runQuery = (
  app: App,
  spec: QuerySpec,
  deps: QueryDeps,
  filterPrefix = 'filters',
): TaskEither<GatewayError, RecordListResult> =>
  pipe(
    TE.Do,
    TE.bindW('limit', () => checkLimit(spec.limit)),
    TE.bindW('offset', () => TE.fromEither(decodeCursor(spec.cursor))),
    TE.bindW('fields', () => checkSelection(app, spec)),
    TE.bindW('page', ({ limit, offset }): TaskEither<GatewayError, RecordPage> => {
      const page = { offset, limit, countOnly: spec.count_only ?? false };
      if (spec.view_id !== undefined && deps.store.queryView) return deps.store.queryView(app, spec.view_id, page);
      return pipe(
        spec.filters.some((f) => f.include_active_user)
          ? deps.settings.activeProfileId()
          : TE.right<GatewayError, number>(0),
        TE.chainEitherKW((activeProfileId) =>
          resolveFilters(
            app,
            spec.filters,
            { today: todayIn(deps.clock, deps.settings.timeZone), activeProfileId },
            filterPrefix,
          ),
        ),
        TE.chainW((resolved) =>
          pipe(
            TE.fromEither(resolveSort(app, spec.sort_by)),
            TE.chain((sort) =>
              deps.store.query(app, { filters: resolved, sort, sortDesc: spec.sort_desc ?? false, ...page }),
            ),
          ),
        ),
      );
    }),
    TE.map(({ page, offset, fields, limit }) => ({
      app,
      total: page.total,
      offset,
      records: page.records,
      fields,
      countOnly: spec.count_only ?? false,
      ...(!spec.count_only && offset + limit < page.total ? { cursor: encodeCursor(offset + limit) } : {}),
    })),
  );

@injectable()
export class FilterRecords implements UseCase<FilterRecordsParams, RecordListResult> {
  private readonly query: QueryDeps;

  constructor(
    @inject(RecordStore) store: RecordStore,
    @inject(RecordApps) private readonly apps: RecordApps,
    @inject(RecordsSettings) settings: RecordsSettings,
    @inject(Clock) clock: Clock,
  ) {
    this.query = { store, settings, clock };
  }

  execute(p: FilterRecordsParams): TaskEither<GatewayError, RecordListResult> {
    return pipe(
      this.apps.getApp(p.app_id),
      TE.chain((app) => runQuery(app, p, this.query)),
    );
  }
}

export const listJson = (r: RecordListResult, verbose: boolean | undefined): unknown =>
  r.countOnly
    ? { total: r.total, count_only: true }
    : {
        total: r.total,
        cursor: r.cursor ?? null,
        records: r.records.map((rec) => recordPayload(r.app, rec, r.fields, verbose)),
      };

/** The call for the records after the first `shown` of this answer, when there are any. */
export const recordsContinuation = (
  p: { readonly cursor?: string },
  r: RecordListResult,
  shown: number,
): Record<string, unknown> | undefined =>
  !r.countOnly && r.offset + shown < r.total ? { ...p, cursor: encodeCursor(r.offset + shown) } : undefined;

export const listText = (r: RecordListResult, tool: string, p: Record<string, unknown>): Presentation => {
  if (r.countOnly)
    return `## ${r.app.name} (app ${r.app.app_id}): ${r.total} matching record${r.total === 1 ? '' : 's'}`;
  if (r.records.length === 0)
    return r.total === 0
      ? `## ${r.app.name} (app ${r.app.app_id}): no matching records\n\nLoosen the filters, or check field ids and option ids with ${call('records_getApp', { app_id: r.app.app_id })}.`
      : `No records on this page (${r.total} match in all). Start again without cursor.`;
  // The whole page, as rows: the output budget (fitPage, with this call's budget) keeps the rows that fit
  // and names the call for the rest through recordsContinuation, as it cuts the structured answer to the
  // same rows.
  const { columns, rows, note } = recordsTable(r.app, r.records, r.fields, p['field_ids'] !== undefined);
  const last = r.offset + r.records.length;
  const next = r.cursor;
  return {
    before: `## ${r.app.name} (app ${r.app.app_id}): ${r.total} record${r.total === 1 ? '' : 's'}`,
    position: `Showing ${r.offset + 1}-${last} of ${r.total}.`,
    columns,
    rows,
    notes: note,
    more: next
      ? `Next page: ${call(tool, { ...withoutDefaults(FilterRecordsParams, p), cursor: next })}`
      : 'This is the last page.',
    after: nextSteps([`One record in full: ${call('records_getRecord', { record_id: r.records[0]!.record_id })}`]),
  };
};

export const filterRecordsTool = defineTool({
  group: 'records',
  name: 'filterRecords',
  title: 'Filter records',
  description:
    'Finds the records of an app whose fields match every filter, a page at a time (cursor). Categories, relations and users match by option id, record id or profile id (multi fields: any = at least one, equal = exactly these).',
  annotations: { kind: 'Read', idempotent: true },
  params: FilterRecordsParams,
  useCase: FilterRecords,
  result: RecordPageResult,
  json: (r, p) => listJson(r, p.verbose),
  continuation: recordsContinuation,
  rows: { key: 'records', cursor: 'cursor' },
  text: (r, p) => listText(r, 'records_filterRecords', p as unknown as Record<string, unknown>),
});
