// Filters over a column: the same answers as the record-by-record predicates of domain/records/filters.ts,
// reading the column's compact arrays instead of record values.
import type { DateBound, FieldFilter } from '../../../../domain/records/filter-model.js';
import { isMulti, VALUE_TYPE_SPECS } from '../../../../domain/records/field-types/table.js';
import { phoneDigits, toEpochSeconds } from '../../../../domain/records/values.js';
import { SEVERAL, type Column } from './column.js';

export type RowPredicate = (row: number) => boolean;

/** A row predicate for a filter on a field's column; `byRecord` is the record-by-record fallback. */
export const columnFilter = (f: FieldFilter, col: Column, byRecord: () => RowPredicate): RowPredicate => {
  const { field, match } = f;
  const present = col.present;
  if (match === 'empty') return (row) => present[row] === 0;
  if (match === 'not_empty') return (row) => present[row] === 1;
  switch (VALUE_TYPE_SPECS[f.type].column) {
    case 'text':
      return textFilter(f, col);
    case 'number':
      return numberFilter(f, col);
    case 'date':
      return dateTest(col.num, match, f.bound!);
    case 'ids':
      return idsFilter(f, col, isMulti(field.field_type));
    case 'other':
      return byRecord();
  }
};

const textFilter = (f: FieldFilter, col: Column): RowPredicate => {
  const wanted = f.strings;
  const phone = VALUE_TYPE_SPECS[f.type].digits === true;
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
  switch (f.match) {
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
};

const numberFilter = (f: FieldFilter, col: Column): RowPredicate => {
  const n = f.numbers[0]!;
  const num = col.num;
  switch (f.match) {
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
};

const idsFilter = (f: FieldFilter, col: Column, multi: boolean): RowPredicate => {
  const { num, ids } = col;
  const match = f.match;
  if (match === 'completed' || match === 'incomplete') {
    const done = new Set((f.field.options ?? []).filter((o) => o.means_completed).map((o) => o.id));
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
      return multi
        ? (row) => ids[row] !== undefined && ids[row]!.length === wanted.size && count(row) === wanted.size
        : (row) => count(row) > 0;
  }
};

/** Date filters over epoch seconds (a system date's column or a date field's). */
export const dateTest = (num: Float64Array, match: string, bound: DateBound): RowPredicate => {
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
