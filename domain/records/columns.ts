// A columnar index of an app's records for fast filtering and sorting in memory: each field used by a query
// gets compact per-row arrays (numbers and dates as numbers, ids, lower-cased strings), built on first use
// and kept current as rows change. Results are identical to compileFilter and sortRecords in filters.ts.
import { isMulti, valueTypeOf, type FieldDefinition, type ValueType } from './app.js';
import type { ResolvedFilter } from './filters.js';
import { valueOf, type RecordData } from './record.js';
import {
  isEmptyValue,
  phoneDigits,
  stringsOf,
  textSortKey,
  toEpochSeconds,
  type CategoryValue,
  type ContactValue,
  type DateValue,
  type FieldValue,
  type MoneyValue,
  type RelationValue,
} from './values.js';

type SystemDate = 'created_on' | 'last_modified_on';
type ColumnKey = number | SystemDate;

/** Several ids in one row: look in `ids`. */
const SEVERAL = Number.NEGATIVE_INFINITY;

interface Column {
  readonly type: ValueType;
  /** 1 when the field has a value (isEmptyValue is false). */
  present: Uint8Array;
  /** Numbers, money and dates (epoch seconds of the start): NaN when empty. Ids: the only id, NaN when empty, SEVERAL. */
  num: Float64Array;
  /** Ids of multi-valued rows (and every row's ids, for counting). */
  ids: (readonly number[] | undefined)[];
  /** Text-like fields: the lower-cased strings filters compare, their trimmed forms, and digits for phones. */
  strs: (readonly string[] | undefined)[];
  trimmed: (readonly string[] | undefined)[];
  digits: (readonly string[] | undefined)[];
  /** Sort keys of non-numeric fields. */
  sortKey: (string | undefined)[];
}

const idsOf = (type: ValueType, v: FieldValue): number[] => {
  const list = v as readonly unknown[];
  const out = new Array<number>(list.length);
  for (let i = 0; i < list.length; i++)
    out[i] =
      type === 'app'
        ? (list[i] as RelationValue).record_id
        : type === 'contact'
          ? (list[i] as ContactValue).profile_id
          : (list[i] as CategoryValue).id;
  return out;
};

const isNumeric = (t: ValueType) => t === 'number' || t === 'calculation' || t === 'money' || t === 'date';
const isIds = (t: ValueType) => t === 'category' || t === 'status' || t === 'app' || t === 'contact';
const isText = (t: ValueType) => t === 'text' || t === 'embed' || t === 'location' || t === 'email' || t === 'phone';

const grow = <T extends Uint8Array | Float64Array>(a: T, size: number): T => {
  if (a.length >= size) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2, 64));
  next.set(a);
  return next;
};

/** Rows in insertion order; callers append rows in record_id order, so row order is record_id order. */
export class RecordColumns {
  readonly records: RecordData[] = [];
  private activeFlags = new Uint8Array(64);
  private activeCount = 0;
  private readonly columns = new Map<ColumnKey, { field: FieldDefinition | undefined; col: Column }>();

  get size(): number {
    return this.records.length;
  }

  get active(): number {
    return this.activeCount;
  }

  /** Appends a row and returns its index. */
  add(record: RecordData): number {
    const row = this.records.length;
    this.records.push(record);
    this.activeFlags = grow(this.activeFlags, row + 1);
    this.activeFlags[row] = 0;
    this.set(row, record);
    return row;
  }

  /** Replaces a row's record (after an update, delete or restore). */
  set(row: number, record: RecordData): void {
    this.records[row] = record;
    const active = record.deleted_on === null ? 1 : 0;
    this.activeCount += active - this.activeFlags[row]!;
    this.activeFlags[row] = active;
    for (const [key, { field, col }] of this.columns) this.fill(col, key, field, row, record);
  }

  isActive(row: number): boolean {
    return this.activeFlags[row] === 1;
  }

  private column(key: ColumnKey, field: FieldDefinition | undefined): Column {
    const have = this.columns.get(key);
    if (have) return have.col;
    const n = Math.max(this.records.length, 64);
    const type: ValueType = field ? valueTypeOf(field.field_type) : 'date';
    const col: Column = {
      type,
      present: new Uint8Array(n),
      num: new Float64Array(n),
      ids: [],
      strs: [],
      trimmed: [],
      digits: [],
      sortKey: [],
    };
    for (let row = 0; row < this.records.length; row++) this.fill(col, key, field, row, this.records[row]!);
    this.columns.set(key, { field, col });
    return col;
  }

  private fill(col: Column, key: ColumnKey, field: FieldDefinition | undefined, row: number, r: RecordData): void {
    col.present = grow(col.present, row + 1);
    col.num = grow(col.num, row + 1);
    const v: FieldValue | undefined = field ? valueOf(r, field) : { start: r[key as SystemDate], end: null };
    const empty = v === undefined || isEmptyValue(v);
    col.present[row] = empty ? 0 : 1;
    const t = col.type;
    if (isNumeric(t)) {
      col.num[row] = empty
        ? Number.NaN
        : t === 'date'
          ? toEpochSeconds((v as DateValue).start)
          : t === 'money'
            ? Number((v as MoneyValue).value)
            : (v as number);
      if (!empty && t === 'date' && Number.isNaN(col.num[row])) col.sortKey[row] = (v as DateValue).start;
      return;
    }
    if (isIds(t)) {
      const ids = empty ? undefined : idsOf(t, v);
      col.ids[row] = ids;
      col.num[row] = ids === undefined || ids.length === 0 ? Number.NaN : ids.length === 1 ? ids[0]! : SEVERAL;
      col.sortKey[row] = empty ? undefined : textSortKey(t, v);
      return;
    }
    if (isText(t)) {
      const strs = empty ? undefined : stringsOf(t, v);
      col.strs[row] = strs;
      col.trimmed[row] = strs?.map((s) => s.trim());
      if (t === 'phone') col.digits[row] = strs?.map(phoneDigits);
      col.sortKey[row] = empty ? undefined : textSortKey(t, v);
      return;
    }
    col.sortKey[row] = empty ? undefined : textSortKey(t, v);
  }

  /** A row predicate for the filters (all must match), identical to compileFilters. */
  compile(filters: readonly ResolvedFilter[]): ((row: number) => boolean) | undefined {
    const predicates = filters.map((f) => this.compileOne(f));
    if (predicates.length === 0) return undefined;
    if (predicates.length === 1) return predicates[0]!;
    return (row) => {
      for (let i = 0; i < predicates.length; i++) if (!predicates[i]!(row)) return false;
      return true;
    };
  }

  /** Active rows the filters match, in row order. */
  match(filters: readonly ResolvedFilter[]): number[] {
    const p = this.compile(filters);
    const out: number[] = [];
    const flags = this.activeFlags;
    const n = this.records.length;
    if (!p) {
      for (let row = 0; row < n; row++) if (flags[row] === 1) out.push(row);
      return out;
    }
    for (let row = 0; row < n; row++) if (flags[row] === 1 && p(row)) out.push(row);
    return out;
  }

  /** Active rows the filters match, counted. */
  count(filters: readonly ResolvedFilter[]): number {
    if (filters.length === 0) return this.activeCount;
    const p = this.compile(filters)!;
    const flags = this.activeFlags;
    let total = 0;
    for (let row = 0; row < this.records.length; row++) if (flags[row] === 1 && p(row)) total++;
    return total;
  }

  private compileOne(f: ResolvedFilter): (row: number) => boolean {
    if (f.kind === 'system_date') return dateTest(this.column(f.which, undefined).num, f.match, f.bound);
    const { field, type, match } = f;
    const col = this.column(field.field_id, field);
    const present = col.present;
    if (match === 'empty') return (row) => present[row] === 0;
    if (match === 'not_empty') return (row) => present[row] === 1;
    switch (type) {
      case 'text':
      case 'embed':
      case 'location':
      case 'email':
      case 'phone': {
        const wanted = f.strings;
        const phone = type === 'phone';
        const wantedDigits = wanted.map(phoneDigits);
        const { strs, trimmed, digits } = col;
        const containsAny = (row: number): boolean => {
          const values = strs[row];
          if (values === undefined) return false;
          for (let i = 0; i < values.length; i++)
            for (let j = 0; j < wanted.length; j++) {
              if (values[i]!.includes(wanted[j]!)) return true;
              if (phone && wantedDigits[j]!.length > 0 && digits[row]![i]!.includes(wantedDigits[j]!)) return true;
            }
          return false;
        };
        const equalsOne = (row: number, j: number): boolean => {
          const values = phone ? digits[row] : trimmed[row];
          if (values === undefined) return false;
          const w = phone ? wantedDigits[j]! : wanted[j]!;
          for (let i = 0; i < values.length; i++) if (values[i] === w) return true;
          return false;
        };
        const equalsAny = (row: number): boolean => {
          for (let j = 0; j < wanted.length; j++) if (equalsOne(row, j)) return true;
          return false;
        };
        switch (match) {
          case 'contains':
            return containsAny;
          case 'not_contains':
            return (row) => !containsAny(row);
          case 'equal':
            return equalsAny;
          case 'not_equal':
            return (row) => !equalsAny(row);
          default:
            return (row) => {
              if (strs[row] === undefined) return false;
              for (let j = 0; j < wanted.length; j++) if (!equalsOne(row, j)) return false;
              return true;
            };
        }
      }
      case 'number':
      case 'money':
      case 'calculation': {
        const n = f.numbers[0]!;
        const num = col.num;
        switch (match) {
          case 'equal':
            return (row) => num[row] === n;
          case 'smaller':
            return (row) => num[row]! < n;
          case 'larger':
            return (row) => num[row]! > n;
          case 'smaller_or_equal':
            return (row) => num[row]! <= n;
          default:
            return (row) => num[row]! >= n;
        }
      }
      case 'date':
        return dateTest(col.num, match, f.bound!);
      case 'status':
      case 'category':
      case 'app':
      case 'contact': {
        const { num, ids } = col;
        if (match === 'completed' || match === 'incomplete') {
          const done = new Set((field.options ?? []).filter((o) => o.means_completed).map((o) => o.id));
          const want = match === 'completed';
          return (row) => {
            const one = num[row]!;
            if (one === SEVERAL) return ids[row]!.some((id) => done.has(id)) === want;
            return done.has(one) === want;
          };
        }
        const wanted = new Set(f.ids);
        const count = (row: number): number => {
          const one = num[row]!;
          if (one !== SEVERAL) return one === one && wanted.has(one) ? 1 : 0;
          const list = ids[row]!;
          let hit = 0;
          for (let i = 0; i < list.length; i++) if (wanted.has(list[i]!)) hit++;
          return hit;
        };
        switch (match) {
          case 'any':
            return (row) => count(row) > 0;
          case 'none':
          case 'not_equal':
            return (row) => count(row) === 0;
          default:
            return isMulti(field.field_type)
              ? (row) => ids[row] !== undefined && ids[row]!.length === wanted.size && count(row) === wanted.size
              : (row) => count(row) > 0;
        }
      }
      case 'checklist':
        return (row) => present[row] === 1;
      default:
        return () => true;
    }
  }

  /**
   * Rows `offset` to `offset + limit` of `rows` in sortRecords order (no field: row order, reversed when
   * descending). Keeps only the rows needed (a bounded heap) instead of sorting every match.
   */
  page(
    rows: readonly number[],
    field: FieldDefinition | undefined,
    desc: boolean,
    offset: number,
    limit: number,
  ): number[] {
    if (!field) {
      if (!desc) return rows.slice(offset, offset + limit);
      const out: number[] = [];
      for (let i = rows.length - 1 - offset; i >= 0 && out.length < limit; i--) out.push(rows[i]!);
      return out;
    }
    const col = this.column(field.field_id, field);
    const cmp = comparator(col, desc);
    const k = offset + limit;
    if (k <= 0) return [];
    if (k * 4 >= rows.length) return [...rows].sort(cmp).slice(offset, k);
    return topK(rows, k, cmp).slice(offset, k);
  }
}

const dateTest = (
  num: Float64Array,
  match: string,
  bound: { readonly from: string; readonly to: string },
): ((row: number) => boolean) => {
  const from = toEpochSeconds(bound.from);
  const to = toEpochSeconds(bound.to);
  switch (match) {
    case 'before':
      return (row) => num[row]! < from;
    case 'after':
      return (row) => num[row]! > to;
    case 'on_or_before':
      return (row) => num[row]! <= to;
    case 'on_or_after':
      return (row) => num[row]! >= from;
    default: {
      const fromDay = Math.floor(from / 86400);
      const toDay = Math.floor(to / 86400);
      return (row) => {
        const day = Math.floor(num[row]! / 86400);
        return day >= fromDay && day <= toDay;
      };
    }
  }
};

/** sortRecords' order: rows without a value last either way, ties in row (record_id) order. */
const comparator = (col: Column, desc: boolean): ((a: number, b: number) => number) => {
  if (isNumeric(col.type)) {
    const { num, present, sortKey } = col;
    return (a, b) => {
      const pa = present[a] === 1;
      const pb = present[b] === 1;
      if (!pa || !pb) return !pa ? (!pb ? a - b : 1) : -1;
      let ka: number | string = num[a]!;
      let kb: number | string = num[b]!;
      if (ka !== ka || kb !== kb) {
        ka = ka !== ka ? (sortKey[a] ?? ka) : ka;
        kb = kb !== kb ? (sortKey[b] ?? kb) : kb;
      }
      const c = ka < kb ? -1 : ka > kb ? 1 : 0;
      return c === 0 ? a - b : desc ? -c : c;
    };
  }
  const keys = col.sortKey;
  return (a, b) => {
    const ka = keys[a];
    const kb = keys[b];
    if (ka === undefined || kb === undefined) return ka === undefined ? (kb === undefined ? a - b : 1) : -1;
    const c = ka < kb ? -1 : ka > kb ? 1 : 0;
    return c === 0 ? a - b : desc ? -c : c;
  };
};

/** The k smallest rows by cmp, sorted (a max-heap of size k). */
const topK = (rows: readonly number[], k: number, cmp: (a: number, b: number) => number): number[] => {
  const heap: number[] = [];
  const down = (i: number) => {
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < n && cmp(heap[l]!, heap[top]!) > 0) top = l;
      if (r < n && cmp(heap[r]!, heap[top]!) > 0) top = r;
      if (top === i) return;
      const t = heap[i]!;
      heap[i] = heap[top]!;
      heap[top] = t;
      i = top;
    }
  };
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (heap.length < k) {
      heap.push(row);
      let j = heap.length - 1;
      while (j > 0) {
        const p = (j - 1) >> 1;
        if (cmp(heap[j]!, heap[p]!) <= 0) break;
        const t = heap[j]!;
        heap[j] = heap[p]!;
        heap[p] = t;
        j = p;
      }
    } else if (cmp(row, heap[0]!) < 0) {
      heap[0] = row;
      down(0);
    }
  }
  return heap.sort(cmp);
};
