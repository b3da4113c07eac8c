// aggregateRecords: operations by field type, date differences, and one group_by.
import { invalidInput, type InvalidInput } from '../shared/errors.js';
import { E, type Either } from '../shared/fp.js';
import { describeFields, findField, type App } from './app.js';
import { INTERVALS, periodId, periodNumber, periodOf, type Interval } from './aggregate-periods.js';
import type { FieldDefinition } from './field.js';
import { OPERATIONS, type Operation, type Sample as ValueSample } from './field-types/spec.js';
import { isDateField, valueSpecOf } from './field-types/table.js';
import { readerOf, type RecordData } from './record.js';
import { isEmptyValue, secondsBetween, type DateValue } from './values.js';

export { INTERVALS, type Interval } from './aggregate-periods.js';
export const DIFF_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks'] as const;
export type DiffUnit = (typeof DIFF_UNITS)[number];
export const MAX_AGGREGATIONS = 5;

export interface AggregationInput {
  readonly field_id?: string | number;
  readonly operation: string;
  readonly metric?: string;
  readonly field_a_id?: string | number;
  readonly field_b_id?: string | number;
  readonly unit?: string;
}

export interface GroupByInput {
  readonly field_id: string | number;
  readonly interval?: string;
}

export type ResolvedAggregation =
  | { readonly kind: 'field'; readonly key: string; readonly field: FieldDefinition; readonly operation: Operation }
  | {
      readonly kind: 'date_diff';
      readonly key: string;
      readonly a: FieldDefinition;
      readonly b: FieldDefinition;
      readonly unit: DiffUnit;
      readonly operation: Operation;
    };

export interface ResolvedGroupBy {
  readonly field: FieldDefinition;
  readonly interval?: Interval;
}

export interface AggregationPlan {
  readonly aggregations: readonly ResolvedAggregation[];
  readonly groupBy?: ResolvedGroupBy;
}

export type AggregateValue = number | string | null;
export type AggregationResults = Record<string, Record<string, AggregateValue>>;

export interface AggregateGroup {
  /** The group's label: a period (`2026-11`, `2026-W47`, `2026-Q4`), an option text, a record title or a user name. */
  readonly group: string;
  /** The group's id: the period, the option id, the record id or the profile id; null for records without a value. */
  readonly key: string | number | null;
  readonly count: number;
  readonly aggregations: AggregationResults;
}

export interface AggregateResult {
  readonly total_items: number;
  readonly aggregations?: AggregationResults;
  readonly totals?: AggregationResults;
  readonly groups?: readonly AggregateGroup[];
}

/** Operations a field type allows (rule 2). */
export const operationsFor = (f: FieldDefinition): readonly Operation[] => valueSpecOf(f.field_type).operations;

const realField = (
  app: App,
  key: string | number | undefined,
  param: string,
): Either<InvalidInput, FieldDefinition> => {
  const field =
    key === undefined || String(key).trim() === '' || String(key).trim() === '0' ? undefined : findField(app, key);
  return field
    ? E.right(field)
    : E.left(
        invalidInput(
          `${key === undefined ? 'A field_id is required' : `${JSON.stringify(key)} is not a field of app ${app.app_id}`}. Use a real field_id from the app definition (records_getApp): ${describeFields(app)}.`,
          param,
          'field_id of the app',
        ),
      );
};

const asOperation = (
  op: string,
  allowed: readonly Operation[],
  param: string,
  what: string,
): Either<InvalidInput, Operation> =>
  (allowed as readonly string[]).includes(op)
    ? E.right(op as Operation)
    : E.left(
        invalidInput(
          `operation "${op}" does not apply to ${what}; allowed: ${allowed.join(', ')}.`,
          param,
          `one of ${allowed.join(', ')}`,
        ),
      );

export const planAggregation = (
  app: App,
  aggregations: readonly AggregationInput[],
  groupBy: GroupByInput | undefined,
): Either<InvalidInput, AggregationPlan> => {
  if (aggregations.length > MAX_AGGREGATIONS)
    return E.left(
      invalidInput(
        `At most ${MAX_AGGREGATIONS} aggregations per request; ${aggregations.length} were given. Split them over several calls.`,
        'aggregations',
        `array of at most ${MAX_AGGREGATIONS}`,
      ),
    );
  const out: ResolvedAggregation[] = [];
  for (let i = 0; i < aggregations.length; i++) {
    const a = aggregations[i]!;
    const param = `aggregations[${i}]`;
    if (a.metric !== undefined) {
      if (a.metric !== 'date_diff')
        return E.left(
          invalidInput(`Unknown metric "${a.metric}"; the one metric is date_diff.`, `${param}.metric`, '"date_diff"'),
        );
      const fa = realField(app, a.field_a_id, `${param}.field_a_id`);
      if (fa._tag === 'Left') return fa;
      const fb = realField(app, a.field_b_id, `${param}.field_b_id`);
      if (fb._tag === 'Left') return fb;
      for (const [f, p] of [
        [fa.right, 'field_a_id'],
        [fb.right, 'field_b_id'],
      ] as const)
        if (!isDateField(f.field_type))
          return E.left(
            invalidInput(
              `date_diff needs two date fields; ${f.external_id} (${f.field_id}) is ${f.field_type}. Date fields: ${describeFields(app, (x) => isDateField(x.field_type))}.`,
              `${param}.${p}`,
              'field_id of a date field',
            ),
          );
      const unit = a.unit ?? 'days';
      if (!(DIFF_UNITS as readonly string[]).includes(unit))
        return E.left(
          invalidInput(
            `unit must be one of ${DIFF_UNITS.join(', ')}.`,
            `${param}.unit`,
            `one of ${DIFF_UNITS.join(', ')}`,
          ),
        );
      const op = asOperation(a.operation, OPERATIONS, `${param}.operation`, 'date_diff');
      if (op._tag === 'Left') return op;
      out.push({
        kind: 'date_diff',
        key: `date_diff_${fa.right.field_id}_${fb.right.field_id}`,
        a: fa.right,
        b: fb.right,
        unit: unit as DiffUnit,
        operation: op.right,
      });
      continue;
    }
    const f = realField(app, a.field_id, `${param}.field_id`);
    if (f._tag === 'Left') return f;
    const op = asOperation(
      a.operation,
      operationsFor(f.right),
      `${param}.operation`,
      `${f.right.external_id} (${f.right.field_type})`,
    );
    if (op._tag === 'Left') return op;
    out.push({ kind: 'field', key: String(f.right.field_id), field: f.right, operation: op.right });
  }
  if (!groupBy) return E.right({ aggregations: out });
  const g = realField(app, groupBy.field_id, 'group_by.field_id');
  if (g._tag === 'Left') return g;
  if (isDateField(g.right.field_type)) {
    const interval = groupBy.interval ?? 'month';
    if (!(INTERVALS as readonly string[]).includes(interval))
      return E.left(
        invalidInput(
          `interval must be one of ${INTERVALS.join(', ')}.`,
          'group_by.interval',
          `one of ${INTERVALS.join(', ')}`,
        ),
      );
    return E.right({ aggregations: out, groupBy: { field: g.right, interval: interval as Interval } });
  }
  if (valueSpecOf(g.right.field_type).members) {
    if (groupBy.interval !== undefined)
      return E.left(
        invalidInput('interval applies to date fields only; leave it out.', 'group_by.interval', 'nothing'),
      );
    return E.right({ aggregations: out, groupBy: { field: g.right } });
  }
  return E.left(
    invalidInput(
      `group_by works on date, category, status, relation and user fields; ${g.right.external_id} is ${g.right.field_type}. Groupable fields: ${describeFields(app, (x) => isDateField(x.field_type) || valueSpecOf(x.field_type).members !== undefined)}.`,
      'group_by.field_id',
      'field_id of a date, category, status, relation or user field',
    ),
  );
};

const UNIT_SECONDS: Record<DiffUnit, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400, weeks: 604800 };

const round = (n: number): number => Math.round(n * 10000) / 10000;

interface Acc {
  count: number;
  sum: number;
  min: number | string | undefined;
  max: number | string | undefined;
}

const newAccs = (n: number): Acc[] => {
  const out = new Array<Acc>(n);
  for (let i = 0; i < n; i++) out[i] = { count: 0, sum: 0, min: undefined, max: undefined };
  return out;
};

/** A sample: a number, a date string (min/max), undefined (counted only) or null (no value: skipped). */
type Sample = ValueSample | null;

type Sampler = (r: RecordData) => Sample;

const samplerOf = (a: ResolvedAggregation): Sampler => {
  if (a.kind === 'date_diff') {
    const unit = UNIT_SECONDS[a.unit];
    const readA = readerOf(a.a);
    const readB = readerOf(a.b);
    return (r) => {
      const va = readA(r) as DateValue | undefined;
      const vb = readB(r) as DateValue | undefined;
      if (!va || !vb) return null;
      return secondsBetween(va.start, vb.start) / unit;
    };
  }
  const value = readerOf(a.field);
  const read = valueSpecOf(a.field.field_type).sample;
  return (r) => {
    const v = value(r);
    return v === undefined || isEmptyValue(v) ? null : read(v);
  };
};

const add = (acc: Acc, s: Sample): void => {
  if (s === null) return;
  acc.count++;
  if (s === undefined) return;
  if (typeof s === 'number') acc.sum += s;
  if (acc.min === undefined || s < acc.min) acc.min = s;
  if (acc.max === undefined || s > acc.max) acc.max = s;
};

const results = (aggs: readonly ResolvedAggregation[], accs: readonly Acc[]): AggregationResults => {
  const out: AggregationResults = {};
  for (let i = 0; i < aggs.length; i++) {
    const a = aggs[i]!;
    const acc = accs[i]!;
    const value: AggregateValue =
      a.operation === 'count'
        ? acc.count
        : a.operation === 'sum'
          ? round(acc.sum)
          : a.operation === 'avg'
            ? acc.count
              ? round(acc.sum / acc.count)
              : null
            : a.operation === 'min'
              ? typeof acc.min === 'number'
                ? round(acc.min)
                : (acc.min ?? null)
              : typeof acc.max === 'number'
                ? round(acc.max)
                : (acc.max ?? null);
    (out[a.key] ??= {})[a.operation] = value;
  }
  return out;
};

const NO_VALUE = () => '(no value)';
const NO_KEY = () => null;

interface Bucket {
  readonly group: string;
  readonly key: string | number | null;
  count: number;
  readonly accs: Acc[];
}

/** Runs a plan over the records a filter matched, in one pass. With no aggregations and no group_by: `{total_items}`. */
export const aggregate = (plan: AggregationPlan, records: readonly RecordData[]): AggregateResult => {
  const aggs = plan.aggregations;
  if (!plan.groupBy && aggs.length === 0) return { total_items: records.length };
  // One sampler per distinct value (sum and avg of one field read it once).
  const idOf = (a: ResolvedAggregation) => (a.kind === 'date_diff' ? `${a.key}:${a.unit}` : a.key);
  const distinct = [...new Map(aggs.map((a) => [idOf(a), a])).values()];
  const samplers = distinct.map(samplerOf);
  const slot = aggs.map((a) => distinct.findIndex((x) => idOf(x) === idOf(a)));
  const values = new Array<Sample>(distinct.length);
  const samples = new Array<Sample>(aggs.length);
  const totals = newAccs(aggs.length);
  const groupBy = plan.groupBy;
  const buckets = new Map<string | number | null, Bucket>();
  const bucketFor = (id: string | number | null, group: () => string, key: () => string | number | null): Bucket => {
    let b = buckets.get(id);
    if (!b) buckets.set(id, (b = { group: group(), key: key(), count: 0, accs: newAccs(aggs.length) }));
    return b;
  };
  const addTo = (b: Bucket) => {
    b.count++;
    for (let i = 0; i < samples.length; i++) add(b.accs[i]!, samples[i]!);
  };
  const members = groupBy ? valueSpecOf(groupBy.field.field_type).members : undefined;
  const groupValue = groupBy ? readerOf(groupBy.field) : undefined;
  const interval = groupBy?.interval ?? 'month';
  const weekOfDay = new Map<number, string>();
  for (let r = 0; r < records.length; r++) {
    const record = records[r]!;
    for (let i = 0; i < samplers.length; i++) values[i] = samplers[i]!(record);
    for (let i = 0; i < samples.length; i++) {
      samples[i] = values[slot[i]!]!;
      add(totals[i]!, samples[i]!);
    }
    if (!groupBy) continue;
    const v = groupValue!(record);
    if (v === undefined || isEmptyValue(v)) {
      addTo(bucketFor(null, NO_VALUE, NO_KEY));
      continue;
    }
    if (!members) {
      const start = (v as DateValue).start;
      const n = periodNumber(start, interval);
      addTo(
        Number.isNaN(n) || interval === 'week'
          ? bucketFor(
              periodId(start, interval, weekOfDay),
              () => periodOf(start, interval),
              () => periodOf(start, interval),
            )
          : bucketFor(
              n,
              () => periodOf(start, interval),
              () => periodOf(start, interval),
            ),
      );
      continue;
    }
    for (const x of v as readonly unknown[]) {
      const id = members.idOf(x);
      addTo(
        bucketFor(
          id,
          () => members.labelOf(x),
          () => id,
        ),
      );
    }
  }
  if (!groupBy) return { total_items: records.length, aggregations: results(aggs, totals) };
  const isDate = isDateField(groupBy.field.field_type);
  const groups = [...buckets.values()]
    .sort((a, b) => {
      if (a.key === null || b.key === null) return a.key === null ? 1 : -1;
      return isDate ? String(a.key).localeCompare(String(b.key)) : b.count - a.count || a.group.localeCompare(b.group);
    })
    .map((b) => ({ group: b.group, key: b.key, count: b.count, aggregations: results(aggs, b.accs) }));
  return { total_items: records.length, totals: results(aggs, totals), groups };
};
