// One field's values over an app's rows, laid out by the field type's column kind (field-types/table.ts):
// numbers and dates as numbers, ids as id lists, text as lower-cased strings, anything else by sort key.
import type { ColumnKind, ValueTypeSpec } from '../../../../domain/records/field-types/spec.js';
import {
  isEmptyValue,
  phoneDigits,
  toEpochSeconds,
  type DateValue,
  type FieldValue,
} from '../../../../domain/records/values.js';

/** Several ids in one row: look in `ids`. */
export const SEVERAL = Number.NEGATIVE_INFINITY;

export interface Column {
  readonly spec: ValueTypeSpec;
  readonly kind: ColumnKind;
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
  /** Sort keys of non-numeric fields (and of dates that are not `YYYY-MM-DD HH:MM:SS`). */
  sortKey: (string | undefined)[];
}

export const grow = <T extends Uint8Array | Float64Array>(a: T, size: number): T => {
  if (a.length >= size) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2, 64));
  next.set(a);
  return next;
};

export const newColumn = (spec: ValueTypeSpec, rows: number): Column => ({
  spec,
  kind: spec.column,
  present: new Uint8Array(Math.max(rows, 64)),
  num: new Float64Array(Math.max(rows, 64)),
  ids: [],
  strs: [],
  trimmed: [],
  digits: [],
  sortKey: [],
});

/** Sets a row of the column to a value. */
export const fillRow = (col: Column, row: number, v: FieldValue | undefined): void => {
  col.present = grow(col.present, row + 1);
  col.num = grow(col.num, row + 1);
  const empty = v === undefined || isEmptyValue(v);
  col.present[row] = empty ? 0 : 1;
  const spec = col.spec;
  switch (col.kind) {
    case 'number':
      col.num[row] = empty ? Number.NaN : spec.numberOf!(v);
      return;
    case 'date':
      col.num[row] = empty ? Number.NaN : toEpochSeconds((v as DateValue).start);
      if (!empty && Number.isNaN(col.num[row])) col.sortKey[row] = (v as DateValue).start;
      return;
    case 'ids': {
      const ids = empty ? undefined : idsOf(spec, v);
      col.ids[row] = ids;
      col.num[row] = ids === undefined || ids.length === 0 ? Number.NaN : ids.length === 1 ? ids[0]! : SEVERAL;
      col.sortKey[row] = empty ? undefined : (spec.sortKey(v) as string);
      return;
    }
    case 'text': {
      const strs = empty ? undefined : spec.strings!(v);
      col.strs[row] = strs;
      col.trimmed[row] = strs?.map((s) => s.trim());
      if (spec.digits) col.digits[row] = strs?.map(phoneDigits);
      col.sortKey[row] = empty ? undefined : (spec.sortKey(v) as string);
      return;
    }
    case 'other':
      col.sortKey[row] = empty ? undefined : (spec.sortKey(v) as string);
  }
};

const idsOf = (spec: ValueTypeSpec, v: FieldValue): number[] => {
  const idOf = spec.members!.idOf;
  const list = v as readonly unknown[];
  const out = new Array<number>(list.length);
  for (let i = 0; i < list.length; i++) out[i] = idOf(list[i]);
  return out;
};
