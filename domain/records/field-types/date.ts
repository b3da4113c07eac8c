// Date field types: single_date, range_date, and the system dates created_on and last_modified_on.
import { E } from '../../shared/fp.js';
import { DATE_EXPECTED, DATE_MATCHES, dateCompare, resolveDateValue, type FieldFilter } from '../filter-model.js';
import { DATE_ONLY, isValidDate, isValidDateTime, type DateValue, type FieldValue } from '../values.js';
import { isObject } from './input.js';
import { problem, type Validate, type ValueTypeSpec } from './spec.js';

const DATE_TIME_EXPECTED = "string 'YYYY-MM-DD HH:MM:SS'";

export const validateSingleDate: Validate = (_field, raw, name) => {
  if (isObject(raw))
    return problem(
      `${name} takes a string 'YYYY-MM-DD HH:MM:SS' (time required; use 00:00:00 for a date only), not an object with start. Only range_date fields take {start, end}.`,
      DATE_TIME_EXPECTED,
    );
  if (typeof raw === 'string' && DATE_ONLY.test(raw.trim()) && isValidDate(raw.trim()))
    return problem(`${name} needs a time: send '${raw.trim()} 00:00:00' for a date only.`, DATE_TIME_EXPECTED);
  return typeof raw === 'string' && isValidDateTime(raw.trim())
    ? E.right({ kind: 'date', start: raw.trim(), end: null })
    : problem(
        `${name} takes a string 'YYYY-MM-DD HH:MM:SS' (time required; use 00:00:00 for a date only).`,
        DATE_TIME_EXPECTED,
      );
};

export const validateRangeDate: Validate = (_field, raw, name) => {
  const shape = "{start: 'YYYY-MM-DD HH:MM:SS', end: 'YYYY-MM-DD HH:MM:SS'}";
  if (!isObject(raw)) return problem(`${name} takes an object ${shape}.`, shape);
  const unknown = Object.keys(raw).filter((k) => k !== 'start' && k !== 'end');
  if (unknown.length) return problem(`${name} takes only start and end, not ${unknown.join(', ')}.`, shape);
  const start = raw['start'];
  const end = raw['end'] ?? null;
  if (typeof start !== 'string' || !isValidDateTime(start.trim()))
    return problem(`${name}: start must be 'YYYY-MM-DD HH:MM:SS' (use 00:00:00 for a date only).`, shape);
  if (end !== null && (typeof end !== 'string' || !isValidDateTime(end.trim())))
    return problem(`${name}: end must be 'YYYY-MM-DD HH:MM:SS' (use 00:00:00 for a date only).`, shape);
  if (typeof end === 'string' && end.trim() < start.trim())
    return problem(`${name}: end ${end} is before start ${start}.`, shape);
  return E.right({ kind: 'date', start: start.trim(), end: typeof end === 'string' ? end.trim() : null });
};

const startOf = (v: FieldValue): string => (v as DateValue).start;

const formatDate = (v: FieldValue): string => {
  const d = v as DateValue;
  const trim = (s: string) => (s.endsWith(' 00:00:00') ? s.slice(0, 10) : s);
  return d.end && d.end !== d.start ? `${trim(d.start)} -> ${trim(d.end)}` : trim(d.start);
};

export const DATE: ValueTypeSpec = {
  matchTypes: () => DATE_MATCHES,
  filterValues: (raw, { ctx }) => {
    const bound = raw.length === 1 ? resolveDateValue(raw[0], ctx) : undefined;
    return bound
      ? E.right({ bound })
      : problem(`Date filters take exactly one value: ${DATE_EXPECTED}.`, DATE_EXPECTED);
  },
  compile: <R>(f: FieldFilter, get: (r: R) => FieldValue | undefined) => {
    const bound = f.bound!;
    const match = f.match;
    return (r: R) => {
      const v = get(r) as DateValue | undefined;
      return v !== undefined && dateCompare(v.start, match, bound);
    };
  },
  sortKey: startOf,
  format: formatDate,
  operations: ['min', 'max', 'count'],
  sample: startOf,
  column: 'date',
};
