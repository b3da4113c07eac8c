import { E, type Either } from '../shared/fp.js';
import { invalidInput, type InvalidInput } from '../shared/errors.js';
import type { Contact, PropertyValues } from './contact.js';
import { DEFAULT_SEARCHABLE_PROPERTIES } from './contact.js';
import { wildcardMatcher } from '../shared/wildcard.js';

export const OPERATORS = [
  'EQ',
  'NEQ',
  'LT',
  'LTE',
  'GT',
  'GTE',
  'BETWEEN',
  'IN',
  'NOT_IN',
  'HAS_PROPERTY',
  'NOT_HAS_PROPERTY',
  'CONTAINS_TOKEN',
  'NOT_CONTAINS_TOKEN',
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Filter {
  readonly propertyName: string;
  readonly operator: Operator;
  readonly value?: string;
  readonly highValue?: string;
  readonly values?: readonly string[];
}

export interface FilterGroup {
  readonly filters: readonly Filter[];
}

export type SortDirection = 'ASCENDING' | 'DESCENDING';

export interface Sort {
  readonly propertyName: string;
  readonly direction: SortDirection;
}

export interface ContactSearch {
  readonly filterGroups: readonly FilterGroup[];
  readonly sorts: readonly Sort[];
  readonly query?: string;
  readonly properties: readonly string[];
  readonly limit: number;
  /** Opaque paging cursor from a previous page. */
  readonly after?: string;
}

export interface ContactPage {
  readonly total: number;
  readonly results: readonly Contact[];
  /** Cursor of the next page; absent on the last page. */
  readonly after?: string;
}

/** HubSpot's documented search limits. */
export const SEARCH_LIMITS = {
  maxGroups: 5,
  maxFiltersPerGroup: 10,
  maxFilters: 25,
  maxLimit: 100,
  maxQueryLength: 3000,
  maxResults: 10_000,
} as const;

/**
 * The gateway's own bounds on the caller's text, so that matching costs a bounded amount per contact
 * (the in-memory book and the HubSpot stand-in match every filter against every contact).
 */
export const VALUE_LIMITS = {
  /** Characters in a filter's value, highValue or one of its values. */
  maxValueLength: 512,
  /** Members of an IN / NOT_IN list. */
  maxValues: 100,
  /** Words of the free-text query. */
  maxQueryWords: 32,
} as const;

const checkValues = (f: Filter, p: string): Either<InvalidInput, Filter> => {
  if (f.values && f.values.length > VALUE_LIMITS.maxValues) {
    return E.left(
      invalidInput(
        `${f.operator} on "${f.propertyName}" takes at most ${VALUE_LIMITS.maxValues} values; got ${f.values.length}.`,
        `${p}.values`,
        `array of at most ${VALUE_LIMITS.maxValues} strings`,
      ),
    );
  }
  const long = [
    ['value', f.value],
    ['highValue', f.highValue],
    ...(f.values ?? []).map((v, i) => [`values[${i}]`, v] as const),
  ].find(([, v]) => v !== undefined && v.length > VALUE_LIMITS.maxValueLength);
  if (long) {
    return E.left(
      invalidInput(
        `A filter value is at most ${VALUE_LIMITS.maxValueLength} characters; "${long[0]}" of "${f.propertyName}" has ${long[1]!.length}.`,
        `${p}.${long[0]}`,
        `string of at most ${VALUE_LIMITS.maxValueLength} characters`,
      ),
    );
  }
  return E.right(f);
};

/**
 * Checks a search the way HubSpot does, so that both adapters reject the same requests with the same
 * actionable message (BETWEEN needs value and highValue, IN needs values, and so on).
 */
export const validateSearch = (search: ContactSearch): Either<InvalidInput, ContactSearch> => {
  const groups = search.filterGroups;
  if (groups.length > SEARCH_LIMITS.maxGroups) {
    return E.left(
      invalidInput(
        `At most ${SEARCH_LIMITS.maxGroups} filter groups are allowed; got ${groups.length}.`,
        'filter_groups',
        `array of at most ${SEARCH_LIMITS.maxGroups} groups`,
      ),
    );
  }
  let total = 0;
  for (const [g, group] of groups.entries()) {
    const at = `filter_groups[${g}].filters`;
    if (group.filters.length === 0)
      return E.left(
        invalidInput(
          `Filter group ${g} has no filters; remove it or add at least one filter.`,
          at,
          'non-empty array of filters',
        ),
      );
    if (group.filters.length > SEARCH_LIMITS.maxFiltersPerGroup) {
      return E.left(
        invalidInput(
          `A filter group holds at most ${SEARCH_LIMITS.maxFiltersPerGroup} filters; group ${g} has ${group.filters.length}.`,
          at,
          `at most ${SEARCH_LIMITS.maxFiltersPerGroup} filters`,
        ),
      );
    }
    total += group.filters.length;
    for (const [i, f] of group.filters.entries()) {
      const p = `${at}[${i}]`;
      const sized = checkValues(f, p);
      if (E.isLeft(sized)) return sized;
      switch (f.operator) {
        case 'BETWEEN':
          if (f.value === undefined || f.highValue === undefined) {
            return E.left(
              invalidInput(
                `BETWEEN on "${f.propertyName}" needs both "value" (low end) and "highValue" (high end).`,
                `${p}.highValue`,
                'string',
              ),
            );
          }
          break;
        case 'IN':
        case 'NOT_IN':
          if (!f.values || f.values.length === 0) {
            return E.left(
              invalidInput(
                `${f.operator} on "${f.propertyName}" needs "values", a non-empty array of strings (not "value").`,
                `${p}.values`,
                'non-empty array of strings',
              ),
            );
          }
          break;
        case 'HAS_PROPERTY':
        case 'NOT_HAS_PROPERTY':
          break;
        default:
          if (f.value === undefined) {
            return E.left(
              invalidInput(`${f.operator} on "${f.propertyName}" needs a "value".`, `${p}.value`, 'string'),
            );
          }
      }
    }
  }
  if (total > SEARCH_LIMITS.maxFilters) {
    return E.left(
      invalidInput(
        `At most ${SEARCH_LIMITS.maxFilters} filters in all are allowed; got ${total}.`,
        'filter_groups',
        `at most ${SEARCH_LIMITS.maxFilters} filters`,
      ),
    );
  }
  if (search.query !== undefined && search.query.length > SEARCH_LIMITS.maxQueryLength) {
    return E.left(
      invalidInput(
        `The query is limited to ${SEARCH_LIMITS.maxQueryLength} characters.`,
        'query',
        `string of at most ${SEARCH_LIMITS.maxQueryLength} characters`,
      ),
    );
  }
  const words = tokens(search.query ?? '').length;
  if (words > VALUE_LIMITS.maxQueryWords) {
    return E.left(
      invalidInput(
        `The query has ${words} words; use at most ${VALUE_LIMITS.maxQueryWords}, or filter_groups for exact conditions.`,
        'query',
        `at most ${VALUE_LIMITS.maxQueryWords} words`,
      ),
    );
  }
  if (search.limit < 1 || search.limit > SEARCH_LIMITS.maxLimit) {
    return E.left(
      invalidInput(
        `limit must be between 1 and ${SEARCH_LIMITS.maxLimit}.`,
        'limit',
        `integer from 1 to ${SEARCH_LIMITS.maxLimit}`,
      ),
    );
  }
  return E.right(search);
};

type Comparable = number | string;

const NUMERIC = /^-?\d+(\.\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Numbers and dates compare as numbers (dates as epoch milliseconds, as HubSpot accepts them); the rest as lower-case text. */
const comparable = (v: string): Comparable => {
  if (NUMERIC.test(v)) return Number(v);
  if (ISO_DATE.test(v)) {
    const t = Date.parse(v);
    if (!Number.isNaN(t)) return t;
  }
  return v.toLowerCase();
};

const compare = (a: string, b: string): number => {
  const x = comparable(a);
  const y = comparable(b);
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const xs = String(x);
  const ys = String(y);
  return xs < ys ? -1 : xs > ys ? 1 : 0;
};

const tokens = (v: string): string[] =>
  v
    .toLowerCase()
    .split(/[^\p{L}\p{N}@._+-]+/u)
    .filter(Boolean);

/** CONTAINS_TOKEN: a whole word of the value, `*` as a wildcard (`*@example.com`). */
const containsToken = (value: string, token: string): boolean => {
  const needle = token.toLowerCase();
  if (needle.includes('*')) {
    // A linear-time glob, never a regular expression built from the caller's value (see wildcard.ts).
    const matches = wildcardMatcher(needle);
    return matches(value.toLowerCase()) || tokens(value).some(matches);
  }
  return (
    value.toLowerCase() === needle ||
    tokens(value).includes(needle) ||
    value.toLowerCase().split(/\s+/).includes(needle)
  );
};

const present = (v: string | null | undefined): v is string => v !== null && v !== undefined && v !== '';

export const matchesFilter = (props: PropertyValues, f: Filter): boolean => {
  const v = props[f.propertyName];
  switch (f.operator) {
    case 'HAS_PROPERTY':
      return present(v);
    case 'NOT_HAS_PROPERTY':
      return !present(v);
    case 'NEQ':
      return !present(v) || compare(v, f.value ?? '') !== 0;
    case 'NOT_IN':
      return !present(v) || !(f.values ?? []).some((x) => compare(v, x) === 0);
    case 'NOT_CONTAINS_TOKEN':
      return !present(v) || !containsToken(v, f.value ?? '');
    default:
      break;
  }
  if (!present(v)) return false;
  switch (f.operator) {
    case 'EQ':
      return compare(v, f.value ?? '') === 0;
    case 'LT':
      return compare(v, f.value ?? '') < 0;
    case 'LTE':
      return compare(v, f.value ?? '') <= 0;
    case 'GT':
      return compare(v, f.value ?? '') > 0;
    case 'GTE':
      return compare(v, f.value ?? '') >= 0;
    case 'BETWEEN':
      return compare(v, f.value ?? '') >= 0 && compare(v, f.highValue ?? '') <= 0;
    case 'IN':
      return (f.values ?? []).some((x) => compare(v, x) === 0);
    case 'CONTAINS_TOKEN':
      return containsToken(v, f.value ?? '');
  }
  return false;
};

/** Groups are ORed, filters inside a group ANDed; no groups matches everything. */
export const matchesFilterGroups = (props: PropertyValues, groups: readonly FilterGroup[]): boolean =>
  groups.length === 0 || groups.some((g) => g.filters.every((f) => matchesFilter(props, f)));

/** Free text: every word of the query must start a word of one of the default searchable properties. */
export const matchesQuery = (props: PropertyValues, query: string | undefined): boolean => {
  const words = tokens(query ?? '');
  if (words.length === 0) return true;
  const haystack = DEFAULT_SEARCHABLE_PROPERTIES.flatMap((name) => {
    const v = props[name];
    if (!present(v)) return [];
    const lower = v.toLowerCase();
    // Whole value, words, the parts of an email (local part pieces and domain) and plain alphanumeric runs.
    return [lower, ...tokens(v), ...lower.split('@'), ...lower.split(/[^\p{L}\p{N}]+/u).filter(Boolean)];
  });
  return words.every((w) => haystack.some((h) => h.startsWith(w)));
};

/** Sort order: the given sorts, then id ascending, so pages never overlap. Unset values sort last. */
export const compareContacts =
  (sorts: readonly Sort[]) =>
  (a: Contact, b: Contact): number => {
    for (const s of sorts) {
      const x = a.properties[s.propertyName];
      const y = b.properties[s.propertyName];
      if (!present(x) && !present(y)) continue;
      if (!present(x)) return 1;
      if (!present(y)) return -1;
      const c = compare(x, y);
      if (c !== 0) return s.direction === 'DESCENDING' ? -c : c;
    }
    return Number(a.id) - Number(b.id);
  };
