// The resolved form of a filterRecords filter, the match types, and date bounds (shared by every field type).
import type { FieldDefinition, ValueType } from './field.js';
import { isValidDate, isValidDateTime, shiftDay } from './values.js';

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
export const PRESENCE_MATCHES = ['empty', 'not_empty'] as const;

/** A date bound: an exact time is [t, t]; a day (or a relative token) is [00:00:00, 23:59:59] of that day. */
export interface DateBound {
  readonly from: string;
  readonly to: string;
}

/** A filter on an app field, with its values resolved (strings lower-cased, option texts to ids...). */
export interface FieldFilter {
  readonly kind: 'field';
  readonly field: FieldDefinition;
  readonly type: ValueType;
  readonly match: string;
  readonly strings: readonly string[];
  readonly numbers: readonly number[];
  readonly ids: readonly number[];
  readonly bound?: DateBound;
}

export type ResolvedFilter =
  | {
      readonly kind: 'system_date';
      readonly which: 'created_on' | 'last_modified_on';
      readonly match: string;
      readonly bound: DateBound;
    }
  | FieldFilter;

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

export const DATE_EXPECTED =
  "{value: 'YYYY-MM-DD HH:MM:SS'} or a relative token such as '-30d', '+0d' (today), '-1w', '+1m', '-1y' (sign required)";

/** Whether a `YYYY-MM-DD HH:MM:SS` value matches a date filter's bound. */
export const dateCompare = (v: string, match: string, b: DateBound): boolean => {
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
