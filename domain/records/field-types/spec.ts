// What a field type is made of: the handlers every table entry provides. The tables are in table.ts.
import { E, type Either } from '../../shared/fp.js';
import type { FieldDefinition, ValueType } from '../field.js';
import type { FieldFilter, FilterContext } from '../filter-model.js';
import type { FieldValue } from '../values.js';
import type { FieldInput } from './input.js';

/** Why a value was refused, and what was expected instead; the caller adds where (the parameter). */
export interface Problem {
  readonly message: string;
  readonly expected: string;
}
export type Checked<A> = Either<Problem, A>;
export const problem = <A = never>(message: string, expected: string): Checked<A> => E.left({ message, expected });

/** The record members system fields read their value from. */
export interface RecordStamps {
  readonly created_on: string;
  readonly last_modified_on: string;
  readonly created_by: { readonly user_id: number; readonly name: string; readonly profile_id?: number };
  readonly last_modified_by: { readonly user_id: number; readonly name: string; readonly profile_id?: number };
}

/**
 * Validates one createRecord/updateRecord value (never null: null clears) against its field. `name` is how
 * messages name the field: `Field "status" (status)`.
 */
export type Validate = (field: FieldDefinition, raw: unknown, name: string) => Checked<FieldInput>;

export interface FieldTypeSpec {
  readonly valueType: ValueType;
  /** Holds several values: filters' equal means exactly these, and not_equal does not apply. */
  readonly multi: boolean;
  /** How a written value is checked; none for the values the system sets (read-only fields). */
  readonly validate?: Validate;
  /** System fields whose value is the record's own (created_on...), not a stored field value. */
  readonly read?: (record: RecordStamps) => FieldValue;
}

export const OPERATIONS = ['sum', 'avg', 'min', 'max', 'count'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** An aggregation sample: a number, a date string (min/max), or undefined (counted only). */
export type Sample = number | string | undefined;

/** A filter's values resolved to operands, from raw `values[].value`. */
export type FilterOperands = Partial<Pick<FieldFilter, 'strings' | 'numbers' | 'ids' | 'bound'>>;
export interface FilterValueContext {
  readonly field: FieldDefinition;
  readonly type: ValueType;
  readonly ctx: FilterContext;
  readonly includeActiveUser: boolean;
}

/**
 * How values are laid out by the in-memory columns: `number` and `date` as numbers, `ids` as id lists,
 * `text` as lower-cased strings, `other` by sort key only.
 */
export type ColumnKind = 'number' | 'date' | 'ids' | 'text' | 'other';

/** The value's members as ids with labels (options, related records, people), for id filters and group_by. */
export interface Members {
  readonly idOf: (member: unknown) => number;
  readonly labelOf: (member: unknown) => string;
}

export interface ValueTypeSpec {
  /** The filter match types; multi-value fields drop not_equal (rule 3). */
  readonly matchTypes: (multi: boolean) => readonly string[];
  /** A filter's values as operands; none when only the presence matches (empty, not_empty) apply. */
  readonly filterValues?: (raw: readonly unknown[], at: FilterValueContext) => Checked<FilterOperands>;
  /** A predicate for a filter other than empty/not_empty, reading a record's value with `get` (multi: the field's). */
  readonly compile: <R>(f: FieldFilter, get: (r: R) => FieldValue | undefined, multi: boolean) => (r: R) => boolean;
  /** What a (non-empty) value sorts by. */
  readonly sortKey: (v: FieldValue) => string | number;
  /** The value as text (text results, related records, revision deltas). */
  readonly format: (v: FieldValue) => string;
  /** The aggregations a field allows, and the sample a value gives them. */
  readonly operations: readonly Operation[];
  readonly sample: (v: FieldValue) => Sample;
  readonly column: ColumnKind;
  /** Numeric types (column `number`): the value as a number. */
  readonly numberOf?: (v: FieldValue) => number;
  /** Text-like types: the lower-cased strings filters match. */
  readonly strings?: (v: FieldValue) => string[];
  /** Phone numbers: equal compares digits, and contains also matches digits. */
  readonly digits?: true;
  /** Id-valued types (categories, status, relations, people): group_by and id filters. */
  readonly members?: Members;
  /** Values are options of the field (category, status): full records show each option's color. */
  readonly options?: true;
}
