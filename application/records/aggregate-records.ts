import { inject, injectable } from 'inversify';
import {
  aggregate,
  INTERVALS,
  planAggregation,
  type AggregateResult,
  type AggregationResults,
} from '../../domain/records/aggregate.js';
import { findField, type App } from '../../domain/records/app.js';
import { isIdField } from '../../domain/records/field.js';
import { formatNumber } from '../../domain/records/field-types/number.js';
import { resolveFilters } from '../../domain/records/filters.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { Clock } from '../../ports/clock.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordStore } from '../../ports/record-store.js';
import { RecordsSettings } from '../../ports/records-settings.js';
import { described, intRange, MAX_OFFSET, NumericId, object, oneOf, params, t } from '../runtime/codecs.js';
import { defineTool, nextOffset, type UseCase } from '../runtime/define-tool.js';
import { SchemaType } from '../runtime/json-schema.js';
import { table } from '../runtime/markdown.js';
import { FieldKey, FilterList, todayIn } from './common.js';
import { AggregationResult } from './record-results.js';

const AggregationCodec = object(
  'Aggregation',
  {
    operation: described(
      oneOf(['sum', 'avg', 'min', 'max', 'count'] as const, 'Operation'),
      'sum, avg, min, max on numbers, money and calculations; min, max, count on dates; count on every field.',
    ),
  },
  {
    field_id: described(FieldKey, 'field_id or external_id.'),
    metric: described(
      oneOf(['date_diff'] as const, 'Metric'),
      'date_diff: the operation over (field_b minus field_a) for records with both dates.',
    ),
    field_a_id: described(FieldKey, 'date_diff: the earlier date field.'),
    field_b_id: described(FieldKey, 'date_diff: the later date field.'),
    unit: described(
      oneOf(['seconds', 'minutes', 'hours', 'days', 'weeks'] as const, 'Unit'),
      'date_diff unit.',
      'days',
    ),
  },
);

const GroupByCodec = object(
  'GroupBy',
  { field_id: described(FieldKey, 'A date, category, status, relation or user field to group by.') },
  {
    interval: described(oneOf(INTERVALS, 'Interval'), 'Date fields only; month when left out.'),
  },
);

/**
 * The filters, validated exactly as records_filterRecords validates them, but listed by reference: the
 * filter schema is about 400 tokens, and records_filterRecords already spells it out in the catalogue.
 */
const FiltersByReference = new SchemaType('FilterList', FilterList.is, FilterList.validate, FilterList.encode, {
  type: 'array',
  items: { type: 'object' },
  maxItems: 50,
});

export const AggregateRecordsParams = params(
  { app_id: described(NumericId, 'The app to aggregate.') },
  {
    filters: described(FiltersByReference, 'As in records_filterRecords; only matching records count.'),
    aggregations: described(
      t.array(AggregationCodec),
      'Up to 5: {field_id, operation} or {metric: "date_diff", field_a_id, field_b_id, unit, operation}. None: the matching count.',
    ),
    group_by: described(GroupByCodec, 'Group by one field.'),
    offset: described(intRange(0, MAX_OFFSET), 'Groups to skip.', 0),
  },
);
export type AggregateRecordsParams = t.TypeOf<typeof AggregateRecordsParams>;

export interface AggregateOutcome {
  readonly app: App;
  /** The aggregation, its groups from `offset` on (`group_count` says how many there are in all). */
  readonly result: AggregateResult & { readonly group_count?: number; readonly offset?: number };
}

@injectable()
export class AggregateRecords implements UseCase<AggregateRecordsParams, AggregateOutcome> {
  constructor(
    @inject(RecordStore) private readonly store: RecordStore,
    @inject(RecordApps) private readonly apps: RecordApps,
    @inject(RecordsSettings) private readonly settings: RecordsSettings,
    @inject(Clock) private readonly clock: Clock,
  ) {}

  execute(p: AggregateRecordsParams): TaskEither<GatewayError, AggregateOutcome> {
    const filters = p.filters ?? [];
    return pipe(
      this.apps.getApp(p.app_id),
      TE.bindTo('app'),
      TE.bindW('plan', ({ app }) => TE.fromEither(planAggregation(app, p.aggregations ?? [], p.group_by))),
      TE.bindW('activeProfileId', () =>
        filters.some((f) => f.include_active_user) ? this.settings.activeProfileId() : TE.right(0),
      ),
      TE.bindW('resolved', ({ app, activeProfileId }) =>
        TE.fromEither(
          resolveFilters(app, filters, { today: todayIn(this.clock, this.settings.timeZone), activeProfileId }),
        ),
      ),
      TE.bindW('records', ({ app, resolved }) => this.store.matchAll(app, resolved)),
      TE.map(({ app, plan, records }) => {
        const result = aggregate(plan, records);
        return {
          app,
          result: result.groups
            ? { ...result, group_count: result.groups.length, offset: p.offset, groups: result.groups.slice(p.offset) }
            : result,
        };
      }),
    );
  }
}

/** How a column's figures read: an amount of money with separators, an id as stored, other numbers as number fields. */
type Figure = 'money' | 'id' | 'number';

const show = (v: number | string | null | undefined, c: { readonly unit: string; readonly figure: Figure }) =>
  v === null || v === undefined
    ? '-'
    : typeof v === 'number'
      ? `${c.figure === 'money' ? v.toLocaleString('en-US', { maximumFractionDigits: 4 }) : c.figure === 'id' ? String(v) : formatNumber(v)}${c.unit}`
      : v;

/** One column per aggregation; a sum, average, minimum or maximum of money names its currency. */
const columnsOf = (
  app: App,
  aggs: AggregationResults,
): { key: string; op: string; label: string; unit: string; figure: Figure }[] =>
  Object.entries(aggs).flatMap(([key, ops]) =>
    Object.keys(ops).map((op) => {
      const m = /^date_diff_(\d+)_(\d+)$/.exec(key);
      const field = m ? undefined : app.fields.find((f) => String(f.field_id) === key);
      const name = m
        ? `${app.fields.find((f) => f.field_id === Number(m[2]))?.label} - ${app.fields.find((f) => f.field_id === Number(m[1]))?.label}`
        : (field?.label ?? key);
      // A money field that accepts one currency gets it on every figure; one that accepts several says so.
      const money = field?.field_type === 'money' && op !== 'count' ? (field.currencies ?? []) : [];
      const unit = money.length === 1 ? ` ${money[0]}` : '';
      const mixed = money.length > 1 ? `, amounts in ${money.join(' or ')} added as they are` : '';
      // a count is a number of records; a minimum or maximum of an id field (unique_id, "Lead ID") is an id
      const figure: Figure =
        op === 'count'
          ? 'number'
          : field?.field_type === 'money'
            ? 'money'
            : field && isIdField(field)
              ? 'id'
              : 'number';
      return { key, op, label: `${op} ${name} (${key}${mixed})`, unit, figure };
    }),
  );

/** "grouped by Stage (stage, field 300302)", with the date interval when there is one. */
const groupedBy = (app: App, p: AggregateRecordsParams): string => {
  if (!p.group_by) return '';
  const field = findField(app, p.group_by.field_id);
  const name = field ? `${field.label} (${field.external_id}, field ${field.field_id})` : String(p.group_by.field_id);
  const interval =
    field && /date|created_on|last_modified_on/.test(field.field_type) ? `, by ${p.group_by.interval ?? 'month'}` : '';
  return `, grouped by ${name}${interval}`;
};

export const aggregateRecordsTool = defineTool({
  group: 'records',
  name: 'aggregateRecords',
  title: 'Aggregate records',
  description:
    'Counts, sums, averages, minimums and maximums over the records of an app that match optional filters, optionally grouped by one field; also the time between two date fields (date_diff). Field ids from records_getApp.',
  annotations: { kind: 'Read', idempotent: true },
  params: AggregateRecordsParams,
  useCase: AggregateRecords,
  result: AggregationResult,
  rows: { key: 'groups' },
  continuation: (p, { result }, shown) =>
    result.groups ? nextOffset(p, result.offset ?? 0, shown, result.group_count ?? 0) : undefined,
  json: ({ result }) => result,
  text: ({ app, result }, p) => {
    const head = `## ${app.name} (app ${app.app_id}): ${result.total_items} matching record${result.total_items === 1 ? '' : 's'}${groupedBy(app, p)}${result.offset ? `; groups from number ${result.offset + 1} of ${result.group_count}` : ''}`;
    if (result.groups) {
      const cols = columnsOf(app, result.totals ?? {});
      return {
        before: head,
        columns: ['group', 'key', 'count', ...cols.map((c) => c.label)],
        rows: result.groups.map((g) => [
          g.group,
          g.key ?? '',
          g.count,
          ...cols.map((c) => show(g.aggregations[c.key]?.[c.op], c)),
        ]),
        footer: [['**total**', '', result.total_items, ...cols.map((c) => show(result.totals?.[c.key]?.[c.op], c))]],
        notes:
          'Records with several values in the grouping field count in each of their groups; the total row counts each record once.',
      };
    }
    if (!result.aggregations) return head;
    const cols = columnsOf(app, result.aggregations);
    return [
      head,
      table(
        ['aggregation', 'value'],
        cols.map((c) => [c.label, show(result.aggregations![c.key]?.[c.op], c)]),
      ),
    ].join('\n\n');
  },
});
