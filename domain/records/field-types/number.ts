// Numeric field types: number (and unique_id), calculation and money. Filters compare one number.
import { E } from '../../shared/fp.js';
import { NUMBER_MATCHES, type FieldFilter } from '../filter-model.js';
import { isEmptyValue, type FieldValue, type MoneyValue } from '../values.js';
import { isObject } from './input.js';
import { OPERATIONS, problem, type Checked, type FilterOperands, type Validate, type ValueTypeSpec } from './spec.js';

// --- validation ---

export const validateNumber: Validate = (_field, raw, name) => {
  const n = typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  return typeof n === 'number' && Number.isFinite(n)
    ? E.right({ kind: 'number', value: n })
    : problem(`${name} takes a number, such as 42 or 3.5.`, 'number');
};

export const validateMoney: Validate = (field, raw, name) => {
  const shape = "{value: '1250.00', currency: 'USD'}";
  if (!isObject(raw)) return problem(`${name} takes an object ${shape}.`, shape);
  const v = typeof raw['value'] === 'number' ? String(raw['value']) : raw['value'];
  const currency = typeof raw['currency'] === 'string' ? raw['currency'].trim().toUpperCase() : undefined;
  if (typeof v !== 'string' || !/^-?\d+(\.\d+)?$/.test(v.trim()))
    return problem(`${name}: value must be an amount string such as '1250.00'.`, shape);
  const allowed = field.currencies ?? [];
  if (!currency || !/^[A-Z]{3}$/.test(currency) || (allowed.length > 0 && !allowed.includes(currency)))
    return problem(
      `${name}: currency must be ${allowed.length ? `one of ${allowed.join(', ')}` : 'a three-letter code such as USD'}.`,
      shape,
    );
  return E.right({ kind: 'money', value: v.trim(), currency });
};

// --- filters ---

const numberValues = (raw: readonly unknown[]): Checked<FilterOperands> => {
  const n =
    raw.length === 1 ? (typeof raw[0] === 'string' && raw[0].trim() !== '' ? Number(raw[0]) : raw[0]) : undefined;
  if (typeof n !== 'number' || !Number.isFinite(n))
    return problem('Number filters take exactly one number: [{"value": 100000}].', 'array with one {value: number}');
  return E.right({ numbers: [n] });
};

const numberFilter =
  (numberOf: (v: FieldValue) => number) =>
  <R>(f: FieldFilter, get: (r: R) => FieldValue | undefined): ((r: R) => boolean) => {
    const n = f.numbers[0]!;
    const match = f.match;
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
      return v !== undefined && !isEmptyValue(v) && cmp(numberOf(v));
    };
  };

// --- the value types ---

const numeric = (numberOf: (v: FieldValue) => number, format: (v: FieldValue) => string): ValueTypeSpec => ({
  matchTypes: () => NUMBER_MATCHES,
  filterValues: numberValues,
  compile: numberFilter(numberOf),
  sortKey: numberOf,
  format,
  operations: OPERATIONS,
  sample: numberOf,
  column: 'number',
  numberOf,
});

const plainNumber = (v: FieldValue): number => v as number;
/**
 * A number as a model reads it: thousands separators from 10,000 up, none below, so that a year (1956), a
 * street number or a short id reads as written rather than as "1,956".
 */
export const formatNumber = (v: FieldValue): string =>
  typeof v !== 'number'
    ? String(v)
    : Math.abs(v) < 10_000
      ? String(Number(v.toFixed(4)))
      : v.toLocaleString('en-US', { maximumFractionDigits: 4 });
const formatMoney = (v: FieldValue): string => {
  const m = v as MoneyValue;
  const n = Number(m.value);
  return `${m.currency} ${Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : m.value}`;
};

export const NUMBER = numeric(plainNumber, formatNumber);
export const CALCULATION = numeric(plainNumber, formatNumber);
export const MONEY = numeric((v) => Number((v as MoneyValue).value), formatMoney);
