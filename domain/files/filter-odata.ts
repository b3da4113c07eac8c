import { invalidInput, type InvalidInput } from '../shared/errors.js';
import { E, type Either } from '../shared/fp.js';
import type { ItemType } from './item.js';
import type { FilterExpr, FilterField, FilterValue } from './query.js';

// The filter written as ShareFile's $filter, using only the forms ShareFile-NET's query builder writes
// (src/ShareFile.Api.Client/Requests/Filters): `Prop eq|ne|gt|lt value`, `startswith(Prop, 'v') eq true|false`,
// `endswith(...)` likewise, `substringof('v', Prop) eq true|false`, `isof('ShareFile.Api.Models.X')`, joined
// by `and` and `or` with no parentheses (BooleanFilter writes `{left} {op} {right}`), dates unquoted as
// .NET's "u" format (`2026-01-31 10:00:00Z`). There is no `ge`, `le`, `not`, `datetime'…'` nor grouping, so
// the tree is brought to alternatives of conditions (`a and b or c and d`; `and` binds first in OData):
// `not` is pushed down to the conditions, `ge` is `gt or eq`, `le` is `lt or eq`.

type Atom =
  | { readonly kind: 'compare'; readonly op: 'eq' | 'ne' | 'gt' | 'lt'; field: FilterField; value: FilterValue }
  | {
      readonly kind: 'fn';
      readonly fn: 'startswith' | 'endswith' | 'substringof';
      readonly field: string;
      readonly value: string;
      readonly isEqual: boolean;
    }
  | { readonly kind: 'isof'; readonly type: ItemType };

/** Alternatives (or) of conditions (and). */
type Dnf = readonly (readonly Atom[])[];

/** Bounds of the written form: alternatives multiply when or-groups are and-ed together. */
export const SHAREFILE_FILTER_LIMITS = { maxAlternatives: 64, maxConditions: 200 } as const;

class TooLarge extends Error {}

const size = (d: Dnf): number => d.reduce((n, t) => n + t.length, 0);

const both = (a: Dnf, b: Dnf): Dnf => {
  if (a.length * b.length > SHAREFILE_FILTER_LIMITS.maxAlternatives) throw new TooLarge();
  const out = a.flatMap((x) => b.map((y) => [...x, ...y]));
  if (size(out) > SHAREFILE_FILTER_LIMITS.maxConditions) throw new TooLarge();
  return out;
};

const either = (a: Dnf, b: Dnf): Dnf => {
  if (a.length + b.length > SHAREFILE_FILTER_LIMITS.maxAlternatives) throw new TooLarge();
  const out = [...a, ...b];
  if (size(out) > SHAREFILE_FILTER_LIMITS.maxConditions) throw new TooLarge();
  return out;
};

const compare = (op: 'eq' | 'ne' | 'gt' | 'lt', field: FilterField, value: FilterValue): Atom => ({
  kind: 'compare',
  op,
  field,
  value,
});

/** `negated` says the condition sits under an odd number of `not`s. Depth is bounded by FILTER_LIMITS. */
const dnf = (f: FilterExpr, negated: boolean): Dnf => {
  switch (f.op) {
    case 'and':
      return negated ? either(dnf(f.left, true), dnf(f.right, true)) : both(dnf(f.left, false), dnf(f.right, false));
    case 'or':
      return negated ? both(dnf(f.left, true), dnf(f.right, true)) : either(dnf(f.left, false), dnf(f.right, false));
    case 'not':
      return dnf(f.expr, !negated);
    case 'isof':
      // the gateway knows two item types; `not isof(File)` is isof(Folder)
      return [[{ kind: 'isof', type: negated ? (f.type === 'File' ? 'Folder' : 'File') : f.type }]];
    case 'startswith':
    case 'endswith':
    case 'substringof':
      return [[{ kind: 'fn', fn: f.op, field: f.field, value: f.value, isEqual: !negated }]];
    default: {
      const { field, value } = f;
      const one = (op: 'eq' | 'ne' | 'gt' | 'lt'): Dnf => [[compare(op, field, value)]];
      const orEqual = (op: 'gt' | 'lt'): Dnf => [[compare(op, field, value)], [compare('eq', field, value)]];
      switch (negated ? ({ eq: 'ne', ne: 'eq', gt: 'le', ge: 'lt', lt: 'ge', le: 'gt' } as const)[f.op] : f.op) {
        case 'eq':
          return one('eq');
        case 'ne':
          return one('ne');
        case 'gt':
          return one('gt');
        case 'lt':
          return one('lt');
        case 'ge':
          return orEqual('gt');
        case 'le':
          return orEqual('lt');
      }
    }
  }
};

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** .NET's DateTime.ToUniversalTime().ToString("u"): whole seconds, a space before the time, `Z`, no quotes. */
export const sdkDate = (iso: string): string =>
  new Date(Date.parse(iso)).toISOString().slice(0, 19).replace('T', ' ') + 'Z';

const valueText = (v: FilterValue): string =>
  v.kind === 'number' ? String(v.value) : v.kind === 'date' ? sdkDate(v.value) : quote(v.value);

const atomText = (a: Atom, typePrefix: string): string => {
  switch (a.kind) {
    case 'isof':
      return `isof(${quote(typePrefix + a.type)})`;
    case 'fn':
      return a.fn === 'substringof'
        ? `substringof(${quote(a.value)}, ${a.field}) eq ${a.isEqual}`
        : `${a.fn}(${a.field}, ${quote(a.value)}) eq ${a.isEqual}`;
    case 'compare':
      return `${a.field} ${a.op} ${valueText(a.value)}`;
  }
};

/**
 * The filter as ShareFile's `$filter`, in the SDK's forms only; refused when its alternatives would pass
 * SHAREFILE_FILTER_LIMITS (each and-ed or-group multiplies them).
 */
export const filterToShareFile = (
  f: FilterExpr,
  typePrefix = 'ShareFile.Api.Models.',
): Either<InvalidInput, string> => {
  try {
    const terms = dnf(f, false);
    return E.right(terms.map((t) => t.map((a) => atomText(a, typePrefix)).join(' and ')).join(' or '));
  } catch (e) {
    if (!(e instanceof TooLarge)) throw e;
    const { maxAlternatives, maxConditions } = SHAREFILE_FILTER_LIMITS;
    return E.left(
      invalidInput(
        `The filter cannot be sent to ShareFile: ShareFile takes a filter as alternatives (or) of conditions (and) without parentheses, and this one, written that way, needs more than ${maxAlternatives} alternatives or ${maxConditions} conditions (every or-group inside an and multiplies them; ge and le count as two). Use fewer or-groups, or filter in two listings.`,
        'filter',
        `OData filter expression that ShareFile can take as at most ${maxAlternatives} alternatives of conditions`,
      ),
    );
  }
};
