// filterRecords: filter objects resolved against an app (rules 1-5 of the spec) and compiled to predicates.
import { invalidInput, type InvalidInput } from '../shared/errors.js';
import { E, type Either } from '../shared/fp.js';
import {
  describeFields,
  findField,
  isFieldType,
  isMulti,
  valueTypeOf,
  type App,
  type FieldDefinition,
  type ValueType,
} from './app.js';
import { valueOf, type RecordData } from './record.js';
import {
  isEmptyValue,
  phoneDigits,
  stringsOf,
  textSortKey,
  isValidDate,
  isValidDateTime,
  shiftDay,
  type CategoryValue,
  type ChecklistItem,
  type ContactValue,
  type DateValue,
  type FieldValue,
  type MoneyValue,
  type RelationValue,
} from './values.js';

export interface FilterInput {
  readonly field_id?: string | number;
  readonly field_label?: string;
  readonly field_type?: string;
  readonly match_type: string;
  readonly values?: readonly { readonly value: unknown }[];
  readonly type?: string;
  readonly include_active_user?: boolean;
}

export const TEXT_MATCHES = ['contains', 'equal', 'not_equal', 'not_contains', 'empty', 'not_empty'] as const;
export const CATEGORY_MATCHES = ['equal', 'not_equal', 'any', 'none', 'empty', 'not_empty'] as const;
export const NUMBER_MATCHES = [
  'equal',
  'smaller',
  'larger',
  'smaller_or_equal',
  'larger_or_equal',
  'empty',
  'not_empty',
] as const;
export const DATE_MATCHES = ['equal', 'before', 'after', 'on_or_before', 'on_or_after', 'empty', 'not_empty'] as const;
export const SYSTEM_DATE_MATCHES = ['before', 'after', 'on_or_before', 'on_or_after'] as const;

/** The match types each filter `type` accepts; multi-value fields drop not_equal (rule 3). */
export const matchTypesFor = (type: ValueType, multi: boolean): readonly string[] => {
  switch (type) {
    case 'text':
    case 'embed':
    case 'location':
      return TEXT_MATCHES;
    case 'email':
    case 'phone':
      return [...TEXT_MATCHES, 'fully_includes'];
    case 'category':
    case 'app':
    case 'contact':
      return multi ? CATEGORY_MATCHES.filter((m) => m !== 'not_equal') : CATEGORY_MATCHES;
    case 'status':
      return [...CATEGORY_MATCHES, 'completed', 'incomplete'];
    case 'number':
    case 'money':
    case 'calculation':
      return NUMBER_MATCHES;
    case 'date':
      return DATE_MATCHES;
    default:
      return ['empty', 'not_empty'];
  }
};

/** A date bound: an exact time is [t, t]; a day (or a relative token) is [00:00:00, 23:59:59] of that day. */
export interface DateBound {
  readonly from: string;
  readonly to: string;
}

export type ResolvedFilter =
  | {
      readonly kind: 'system_date';
      readonly which: 'created_on' | 'last_modified_on';
      readonly match: string;
      readonly bound: DateBound;
    }
  | {
      readonly kind: 'field';
      readonly field: FieldDefinition;
      readonly type: ValueType;
      readonly match: string;
      readonly strings: readonly string[];
      readonly numbers: readonly number[];
      readonly ids: readonly number[];
      readonly bound?: DateBound;
    };

export interface FilterContext {
  /** Today in the user's time zone, `YYYY-MM-DD` (relative tokens count from it). */
  readonly today: string;
  /** The calling user's profile id (include_active_user). */
  readonly activeProfileId: number;
}

const RELATIVE = /^([+-])(\d{1,4})([dwmy])$/;

export const resolveDateValue = (raw: unknown, ctx: FilterContext): DateBound | undefined => {
  if (typeof raw !== 'string') return undefined;
  const s = raw.trim();
  const rel = RELATIVE.exec(s);
  if (rel) {
    const day = shiftDay(ctx.today, (rel[1] === '-' ? -1 : 1) * Number(rel[2]), rel[3] as 'd' | 'w' | 'm' | 'y');
    return { from: `${day} 00:00:00`, to: `${day} 23:59:59` };
  }
  if (isValidDate(s)) return { from: `${s} 00:00:00`, to: `${s} 23:59:59` };
  if (isValidDateTime(s)) return { from: s, to: s };
  return undefined;
};

const DATE_EXPECTED =
  "{value: 'YYYY-MM-DD HH:MM:SS'} or a relative token such as '-30d', '+0d' (today), '-1w', '+1m', '-1y' (sign required)";

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

  switch (type) {
    case 'text':
    case 'embed':
    case 'location':
    case 'email':
    case 'phone': {
      const strings = raw.map((v) => (typeof v === 'number' ? String(v) : v));
      if (strings.some((s) => typeof s !== 'string' || !s.trim()))
        return fail('Text filters take string values: [{"value": "..."}].', valuesParam, 'array of {value: string}');
      return E.right({ ...base, strings: (strings as string[]).map((s) => s.trim().toLowerCase()) });
    }
    case 'number':
    case 'money':
    case 'calculation': {
      const n =
        raw.length === 1 ? (typeof raw[0] === 'string' && raw[0].trim() !== '' ? Number(raw[0]) : raw[0]) : undefined;
      if (typeof n !== 'number' || !Number.isFinite(n))
        return fail(
          'Number filters take exactly one number: [{"value": 100000}].',
          valuesParam,
          'array with one {value: number}',
        );
      return E.right({ ...base, numbers: [n] });
    }
    case 'date': {
      const bound = raw.length === 1 ? resolveDateValue(raw[0], ctx) : undefined;
      if (!bound) return fail(`Date filters take exactly one value: ${DATE_EXPECTED}.`, valuesParam, DATE_EXPECTED);
      return E.right({ ...base, bound });
    }
    case 'category':
    case 'status': {
      const options = field.options ?? [];
      const ids: number[] = [];
      for (const v of raw) {
        const option =
          options.find((o) => o.id === (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v)) ??
          (typeof v === 'string' ? options.find((o) => o.text.toLowerCase() === v.trim().toLowerCase()) : undefined);
        if (!option)
          return fail(
            `Field ${field.field_id} ("${field.label}") has no option ${JSON.stringify(v)}. Options: ${options.map((o) => `${o.id} "${o.text}"`).join(', ')}. Send {value: <option_id>}.`,
            valuesParam,
            'array of {value: option_id}',
          );
        ids.push(option.id);
      }
      return E.right({ ...base, ids });
    }
    case 'app':
    case 'contact': {
      const ids = raw.map((v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v));
      if (ids.some((i) => typeof i !== 'number' || !Number.isSafeInteger(i) || i <= 0))
        return fail(
          type === 'app'
            ? 'Relation filters take record ids: [{"value": 123}].'
            : 'User filters take profile ids: [{"value": 9101}].',
          valuesParam,
          'array of {value: id}',
        );
      const all = ids as number[];
      if (f.include_active_user && !all.includes(ctx.activeProfileId)) all.push(ctx.activeProfileId);
      return E.right({ ...base, ids: all });
    }
    default:
      return fail(
        `Field ${field.field_id} (${field.field_type}) can only be filtered with empty or not_empty.`,
        `${param}.match_type`,
        'empty or not_empty',
      );
  }
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

const dateCompare = (v: string, match: string, b: DateBound): boolean => {
  switch (match) {
    case 'before':
      return v < b.from;
    case 'after':
      return v > b.to;
    case 'on_or_before':
      return v <= b.to;
    case 'on_or_after':
      return v >= b.from;
    default:
      return v.slice(0, 10) >= b.from.slice(0, 10) && v.slice(0, 10) <= b.to.slice(0, 10);
  }
};

const numberOf = (type: ValueType, v: FieldValue): number =>
  type === 'money' ? Number((v as MoneyValue).value) : (v as number);

export type RecordPredicate = (r: RecordData) => boolean;

/** A predicate for one resolved filter. */
export const compileFilter = (f: ResolvedFilter): RecordPredicate => {
  if (f.kind === 'system_date') {
    const key = f.which;
    return (r) => dateCompare(r[key], f.match, f.bound);
  }
  const { field, type, match } = f;
  const get = (r: RecordData) => valueOf(r, field);
  if (match === 'empty') return (r) => isEmptyValue(get(r));
  if (match === 'not_empty') return (r) => !isEmptyValue(get(r));
  switch (type) {
    case 'text':
    case 'embed':
    case 'location':
    case 'email':
    case 'phone': {
      const wanted = f.strings;
      const phone = type === 'phone';
      const eq = (a: string, b: string) => (phone ? phoneDigits(a) === phoneDigits(b) : a.trim() === b);
      const has = (r: RecordData, test: (s: string, w: string) => boolean) => {
        const v = get(r);
        if (v === undefined || isEmptyValue(v)) return false;
        const values = stringsOf(type, v);
        return values.some((s) => wanted.some((w) => test(s, w)));
      };
      const contains = (s: string, w: string) =>
        s.includes(w) || (phone && phoneDigits(w).length > 0 && phoneDigits(s).includes(phoneDigits(w)));
      switch (match) {
        case 'contains':
          return (r) => has(r, contains);
        case 'not_contains':
          return (r) => !has(r, contains);
        case 'equal':
          return (r) => has(r, eq);
        case 'not_equal':
          return (r) => !has(r, eq);
        default:
          return (r) => {
            const v = get(r);
            if (v === undefined || isEmptyValue(v)) return false;
            const values = stringsOf(type, v);
            return wanted.every((w) => values.some((s) => eq(s, w)));
          };
      }
    }
    case 'number':
    case 'money':
    case 'calculation': {
      const n = f.numbers[0]!;
      const cmp: (x: number) => boolean =
        match === 'equal'
          ? (x) => x === n
          : match === 'smaller'
            ? (x) => x < n
            : match === 'larger'
              ? (x) => x > n
              : match === 'smaller_or_equal'
                ? (x) => x <= n
                : (x) => x >= n;
      return (r) => {
        const v = get(r);
        return v !== undefined && !isEmptyValue(v) && cmp(numberOf(type, v));
      };
    }
    case 'date': {
      const bound = f.bound!;
      return (r) => {
        const v = get(r) as DateValue | undefined;
        return v !== undefined && dateCompare(v.start, match, bound);
      };
    }
    case 'status':
    case 'category':
    case 'app':
    case 'contact': {
      if (match === 'completed' || match === 'incomplete') {
        const done = new Set((field.options ?? []).filter((o) => o.means_completed).map((o) => o.id));
        const want = match === 'completed';
        return (r) => {
          const v = get(r) as readonly CategoryValue[] | undefined;
          const isDone = v !== undefined && v.some((c) => done.has(c.id));
          return isDone === want;
        };
      }
      const wanted = new Set(f.ids);
      const idOf: (x: unknown) => number =
        type === 'app'
          ? (x) => (x as RelationValue).record_id
          : type === 'contact'
            ? (x) => (x as ContactValue).profile_id
            : (x) => (x as CategoryValue).id;
      const count = (r: RecordData): number => {
        const v = get(r) as readonly unknown[] | undefined;
        if (!v) return 0;
        let hit = 0;
        for (let i = 0; i < v.length; i++) if (wanted.has(idOf(v[i]))) hit++;
        return hit;
      };
      const multi = isMulti(field.field_type);
      switch (match) {
        case 'any':
          return (r) => count(r) > 0;
        case 'none':
        case 'not_equal':
          return (r) => count(r) === 0;
        default:
          return multi
            ? (r) => {
                const v = get(r) as readonly unknown[] | undefined;
                return v !== undefined && v.length === wanted.size && count(r) === wanted.size;
              }
            : (r) => count(r) > 0;
      }
    }
    case 'checklist':
      return (r) => {
        const v = get(r) as readonly ChecklistItem[] | undefined;
        return v !== undefined && v.length > 0;
      };
    default:
      return () => true;
  }
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

const sortKey = (field: FieldDefinition, v: FieldValue | undefined): string | number | undefined => {
  if (v === undefined || isEmptyValue(v)) return undefined;
  switch (valueTypeOf(field.field_type)) {
    case 'number':
    case 'calculation':
      return v as number;
    case 'money':
      return Number((v as MoneyValue).value);
    case 'date':
      return (v as DateValue).start;
    default:
      return textSortKey(valueTypeOf(field.field_type), v);
  }
};

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
