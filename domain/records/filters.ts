// filterRecords: filter objects resolved against an app (rules 1-5 of the spec) and compiled to predicates.
// What each field type accepts and how it matches is in field-types/ (the table); this is the part all share.
import { invalidInput, type InvalidInput } from '../shared/errors.js';
import { E, type Either } from '../shared/fp.js';
import { describeFields, findField, type App } from './app.js';
import { isFieldType, type FieldDefinition, type ValueType } from './field.js';
import { isMulti, valueSpecOf, valueTypeOf, VALUE_TYPE_SPECS } from './field-types/table.js';
import {
  DATE_EXPECTED,
  dateCompare,
  resolveDateValue,
  SYSTEM_DATE_MATCHES,
  type FilterContext,
  type ResolvedFilter,
} from './filter-model.js';
import { readerOf, valueOf, type RecordData } from './record.js';
import { isEmptyValue, type FieldValue } from './values.js';

export type { DateBound, FilterContext, ResolvedFilter } from './filter-model.js';

export interface FilterInput {
  readonly field_id?: string | number;
  readonly field_label?: string;
  readonly field_type?: string;
  readonly match_type: string;
  readonly values?: readonly { readonly value: unknown }[];
  readonly type?: string;
  readonly include_active_user?: boolean;
}

/** The match types each filter `type` accepts; multi-value fields drop not_equal (rule 3). */
export const matchTypesFor = (type: ValueType, multi: boolean): readonly string[] =>
  VALUE_TYPE_SPECS[type].matchTypes(multi);

const labelList = (fields: readonly FieldDefinition[]): string =>
  fields.map((f) => `"${f.label}" (${f.field_id})`).join(', ');

/** Resolves one filter object against the app (param is its path, `filters[2]`). */
export const resolveFilter = (
  app: App,
  f: FilterInput,
  param: string,
  ctx: FilterContext,
): Either<InvalidInput, ResolvedFilter> => {
  const fail = (message: string, at: string, expected: string, details?: Record<string, unknown>) =>
    E.left(invalidInput(message, at, expected, details));
  const declared = f.field_type;
  if (declared !== undefined && !isFieldType(declared))
    return fail(
      `Unknown field_type "${declared}". Use the field_type records_getApp shows for the field.`,
      `${param}.field_type`,
      'a field_type such as single_text, multi_category, single_date',
    );

  let field: FieldDefinition | undefined;
  if (f.field_id !== undefined && String(f.field_id).trim() !== '') {
    field = findField(app, f.field_id);
    if (!field)
      return fail(
        `App "${app.name}" (${app.app_id}) has no field ${JSON.stringify(f.field_id)}. Fields: ${describeFields(app)}.`,
        `${param}.field_id`,
        'field_id or external_id of the app',
      );
  } else if (f.field_label !== undefined) {
    const wanted = f.field_label.trim().toLowerCase();
    const matches = app.fields.filter((x) => x.label.toLowerCase() === wanted);
    if (matches.length === 0)
      return fail(
        `No field of app ${app.app_id} is labelled "${f.field_label}". Labels: ${labelList(app.fields)}. Send field_id instead.`,
        `${param}.field_label`,
        'an exact field label or a field_id',
        {
          field_ids: app.fields.map((x) => x.field_id),
        },
      );
    if (matches.length > 1)
      return fail(
        `The label "${f.field_label}" is ambiguous: fields ${labelList(matches)} carry it. Send field_id instead.`,
        `${param}.field_label`,
        'field_id',
        {
          field_ids: matches.map((x) => x.field_id),
        },
      );
    field = matches[0]!;
  } else {
    if (declared === 'created_on' || declared === 'last_modified_on') {
      if (!(SYSTEM_DATE_MATCHES as readonly string[]).includes(f.match_type))
        return fail(
          `The system date ${declared} (without field_id) supports only ${SYSTEM_DATE_MATCHES.join(', ')}. For one exact day combine on_or_after 'YYYY-MM-DD 00:00:00' and on_or_before 'YYYY-MM-DD 23:59:59'.`,
          `${param}.match_type`,
          `one of ${SYSTEM_DATE_MATCHES.join(', ')}`,
        );
      const only = f.values?.length === 1 ? f.values[0]!.value : undefined;
      const bound = resolveDateValue(only, ctx);
      if (!bound) return fail(`Give exactly one date value: ${DATE_EXPECTED}.`, `${param}.values`, DATE_EXPECTED);
      if (f.type !== undefined && f.type !== 'date')
        return fail(
          `type of a ${declared} filter is "date", not "${f.type}" (type may be left out).`,
          `${param}.type`,
          '"date"',
        );
      return E.right({ kind: 'system_date', which: declared, match: f.match_type, bound });
    }
    return fail(
      'Give field_id (or field_label) of the field to filter on; only created_on and last_modified_on work without one.',
      `${param}.field_id`,
      'field_id or external_id',
    );
  }

  const type = valueTypeOf(field.field_type);
  if (declared !== undefined && declared !== field.field_type && valueTypeOf(declared) !== type)
    return fail(
      `Field ${field.field_id} ("${field.label}") is ${field.field_type}, not ${declared}. Send field_type "${field.field_type}" or leave it out.`,
      `${param}.field_type`,
      `"${field.field_type}"`,
    );
  if (f.type !== undefined && f.type !== type)
    return fail(
      `The type of field ${field.field_id} (${field.field_type}) is "${type}", not "${f.type}". type may be left out: it is derived from field_type.`,
      `${param}.type`,
      `"${type}"`,
    );

  const multi = isMulti(field.field_type);
  const allowed = matchTypesFor(type, multi);
  if (!allowed.includes(f.match_type)) {
    let why = '';
    if (f.match_type === 'starts_with' || f.match_type === 'ends_with')
      why = ' starts_with and ends_with are not supported; use contains or equal.';
    else if (f.match_type === 'not_equal' && multi)
      why = ` not_equal is not supported on ${field.field_type}; use none (contains none of the values) or equal (exactly these values).`;
    else if (f.match_type === 'fully_includes')
      why = ' fully_includes works on multi_email and multi_phone fields only.';
    return fail(
      `match_type "${f.match_type}" does not apply to field ${field.field_id} ("${field.label}", ${field.field_type}).${why} Supported: ${allowed.join(', ')}.`,
      `${param}.match_type`,
      `one of ${allowed.join(', ')}`,
    );
  }
  if (f.include_active_user) {
    if (type !== 'contact')
      return fail(
        `include_active_user works on user fields only; field ${field.field_id} is ${field.field_type}.`,
        `${param}.include_active_user`,
        'a user field',
      );
    if (f.match_type === 'not_empty' || f.match_type === 'empty')
      return fail(
        `include_active_user cannot be combined with ${f.match_type}; use equal, any or none.`,
        `${param}.include_active_user`,
        'match_type equal, any or none',
      );
  }

  const noValues = ['empty', 'not_empty', 'completed', 'incomplete'].includes(f.match_type);
  const raw = (f.values ?? []).map((v) => v.value);
  const base = {
    kind: 'field' as const,
    field,
    type,
    match: f.match_type,
    strings: [] as string[],
    numbers: [] as number[],
    ids: [] as number[],
  };
  if (noValues) return E.right(base);
  const valuesParam = `${param}.values`;
  if (raw.length === 0 && !(f.include_active_user && type === 'contact'))
    return fail(`match_type ${f.match_type} needs values: an array of {value}.`, valuesParam, 'array of {value}');

  const filterValues = VALUE_TYPE_SPECS[type].filterValues;
  if (!filterValues)
    return fail(
      `Field ${field.field_id} (${field.field_type}) can only be filtered with empty or not_empty.`,
      `${param}.match_type`,
      'empty or not_empty',
    );
  const operands = filterValues(raw, { field, type, ctx, includeActiveUser: f.include_active_user === true });
  return operands._tag === 'Left'
    ? fail(operands.left.message, valuesParam, operands.left.expected)
    : E.right({ ...base, ...operands.right });
};

export const resolveFilters = (
  app: App,
  filters: readonly FilterInput[],
  ctx: FilterContext,
  prefix = 'filters',
): Either<InvalidInput, readonly ResolvedFilter[]> => {
  const out: ResolvedFilter[] = [];
  for (let i = 0; i < filters.length; i++) {
    const r = resolveFilter(app, filters[i]!, `${prefix}[${i}]`, ctx);
    if (r._tag === 'Left') return r;
    out.push(r.right);
  }
  return E.right(out);
};

export type RecordPredicate = (r: RecordData) => boolean;

/** A predicate for one resolved filter. */
export const compileFilter = (f: ResolvedFilter): RecordPredicate => {
  if (f.kind === 'system_date') {
    const key = f.which;
    return (r) => dateCompare(r[key], f.match, f.bound);
  }
  const { field, type, match } = f;
  const get = readerOf(field);
  if (match === 'empty') return (r) => isEmptyValue(get(r));
  if (match === 'not_empty') return (r) => !isEmptyValue(get(r));
  return VALUE_TYPE_SPECS[type].compile(f, get, isMulti(field.field_type));
};

/** All filters ANDed. */
export const compileFilters = (filters: readonly ResolvedFilter[]): RecordPredicate => {
  const predicates = filters.map(compileFilter);
  if (predicates.length === 0) return () => true;
  if (predicates.length === 1) return predicates[0]!;
  return (r) => {
    for (const p of predicates) if (!p(r)) return false;
    return true;
  };
};

// Sorting by an app field (sort_by is an external id; system properties are not supported).

export const resolveSort = (
  app: App,
  sortBy: string | undefined,
  param = 'sort_by',
): Either<InvalidInput, FieldDefinition | undefined> => {
  if (sortBy === undefined) return E.right(undefined);
  const field = app.fields.find((f) => f.external_id === sortBy.trim()) ?? findField(app, sortBy);
  if (!field) {
    const system = ['created_on', 'last_modified_on', 'created_by', 'record_id', 'app_record_id', 'title'].includes(
      sortBy.trim(),
    );
    return E.left(
      invalidInput(
        `${system ? `Sorting by the system property ${sortBy} is not supported; ` : `App ${app.app_id} has no field "${sortBy}"; `}sort_by takes the external id of an app field: ${app.fields.map((f) => f.external_id).join(', ')}.`,
        param,
        'external id of an app field',
      ),
    );
  }
  return E.right(field);
};

const sortKey = (field: FieldDefinition, v: FieldValue | undefined): string | number | undefined =>
  v === undefined || isEmptyValue(v) ? undefined : valueSpecOf(field.field_type).sortKey(v);

/** Sorts by a field; records without a value come last either way; ties keep record id order. */
export const sortRecords = (
  records: readonly RecordData[],
  field: FieldDefinition | undefined,
  desc: boolean,
): RecordData[] => {
  if (!field) return desc ? [...records].reverse() : [...records];
  const keyed = records.map((r) => ({ r, k: sortKey(field, valueOf(r, field)) }));
  keyed.sort((a, b) => {
    if (a.k === undefined || b.k === undefined)
      return a.k === undefined ? (b.k === undefined ? a.r.record_id - b.r.record_id : 1) : -1;
    const c = a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
    return c === 0 ? a.r.record_id - b.r.record_id : desc ? -c : c;
  });
  return keyed.map((x) => x.r);
};

// Opaque paging cursors.

export const encodeCursor = (offset: number): string => Buffer.from(`o:${offset}`, 'utf8').toString('base64url');

export const decodeCursor = (cursor: string | undefined, param = 'cursor'): Either<InvalidInput, number> => {
  if (cursor === undefined || cursor === '') return E.right(0);
  let text: string;
  try {
    text = Buffer.from(cursor, 'base64url').toString('utf8');
  } catch {
    text = '';
  }
  const m = /^o:(\d+)$/.exec(text);
  return m
    ? E.right(Number(m[1]))
    : E.left(
        invalidInput(
          'This cursor is not one the gateway issued. Send the cursor of the previous response unchanged, or leave it out for the first page.',
          param,
          'cursor from a previous response',
        ),
      );
};
