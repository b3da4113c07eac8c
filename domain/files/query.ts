import { invalidInput, type InvalidInput } from '../shared/errors.js';
import { E, type Either } from '../shared/fp.js';
import { tokenize, type Token } from './filter-tokens.js';
import type { Item, ItemType } from './item.js';

// The OData subset that listChildren understands, parsed into a small tree that the in-memory store
// evaluates and the ShareFile adapter writes back out as OData.

export const FILTER_FIELDS = ['Name', 'FileName', 'FileSizeBytes', 'CreationDate', 'ProgenyEditDate'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
export const COMPARISONS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] as const;
export type Comparison = (typeof COMPARISONS)[number];

export type FilterValue =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'date'; readonly value: string };

export type FilterExpr =
  | { readonly op: 'and' | 'or'; readonly left: FilterExpr; readonly right: FilterExpr }
  | { readonly op: 'not'; readonly expr: FilterExpr }
  | { readonly op: Comparison; readonly field: FilterField; readonly value: FilterValue }
  | {
      readonly op: 'startswith' | 'endswith' | 'substringof';
      readonly field: 'Name' | 'FileName';
      readonly value: string;
    }
  | { readonly op: 'isof'; readonly type: ItemType };

export const SUPPORTED_FILTER =
  "Supported filter: comparisons eq, ne, gt, ge, lt, le on Name, FileName, FileSizeBytes, CreationDate, ProgenyEditDate (strings in single quotes, dates as 2026-01-31 or 2026-01-31T10:00:00Z, sizes as numbers); startswith(Name,'x'), endswith(Name,'x'), substringof('x',Name); isof('Files.Api.Models.File') or isof('Files.Api.Models.Folder'); combined with and, or, not and parentheses. Example: isof('Files.Api.Models.File') and FileSizeBytes gt 1000";

/**
 * Bounds checked before any recursion: the parser and every walk of the tree (matching, writing OData)
 * recurse once per level, so a filter 5,000 levels deep or with 20,000 conditions would exhaust the
 * stack or the event loop. Real filters are a few conditions and a few levels.
 */
export const FILTER_LIMITS = { maxLength: 2000, maxDepth: 32, maxConditions: 100 } as const;

const fieldOf = (word: string): FilterField | undefined =>
  FILTER_FIELDS.find((f) => f.toLowerCase() === word.toLowerCase());

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

const typeOf = (name: string): ItemType | undefined => {
  const m = /^(?:Files|ShareFile)\.Api\.Models\.(File|Folder)$/i.exec(name.trim());
  if (!m) return undefined;
  return m[1]!.toLowerCase() === 'file' ? 'File' : 'Folder';
};

class Parser {
  private pos = 0;
  /** Open parentheses and `not`s around the current position; checked before each step down. */
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}
  private down(): void {
    if (++this.depth > FILTER_LIMITS.maxDepth)
      throw new FilterLimit(
        `it is nested more than ${FILTER_LIMITS.maxDepth} levels deep (parentheses and not)`,
        `OData filter expression nested at most ${FILTER_LIMITS.maxDepth} levels deep`,
      );
  }
  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }
  private next(): Token | undefined {
    return this.tokens[this.pos++];
  }
  private isWord(t: Token | undefined, w: string): boolean {
    return t?.kind === 'word' && t.text.toLowerCase() === w;
  }
  private expect(kind: Token['kind'], what: string): Token {
    const t = this.next();
    if (!t || t.kind !== kind)
      throw new FilterSyntax(`expected ${what}${t ? ` but found "${t.text}"` : ' at the end'}`);
    return t;
  }

  parse(): FilterExpr {
    const e = this.or();
    if (this.pos < this.tokens.length) throw new FilterSyntax(`unexpected "${this.tokens[this.pos]!.text}"`);
    return e;
  }
  private or(): FilterExpr {
    let left = this.and();
    while (this.isWord(this.peek(), 'or')) {
      this.next();
      left = { op: 'or', left, right: this.and() };
    }
    return left;
  }
  private and(): FilterExpr {
    let left = this.unary();
    while (this.isWord(this.peek(), 'and')) {
      this.next();
      left = { op: 'and', left, right: this.unary() };
    }
    return left;
  }
  private unary(): FilterExpr {
    if (this.isWord(this.peek(), 'not')) {
      this.next();
      this.down();
      const expr = this.unary();
      this.depth--;
      return { op: 'not', expr };
    }
    return this.primary();
  }
  private primary(): FilterExpr {
    const t = this.next();
    if (!t) throw new FilterSyntax('the expression ends too early');
    if (t.kind === 'lparen') {
      this.down();
      const e = this.or();
      this.expect('rparen', '")"');
      this.depth--;
      return e;
    }
    if (t.kind !== 'word') throw new FilterSyntax(`unexpected "${t.text}"`);
    const fn = t.text.toLowerCase();
    if (this.peek()?.kind === 'lparen' && ['startswith', 'endswith', 'substringof', 'isof'].includes(fn))
      return this.func(fn);
    if (this.peek()?.kind === 'lparen') throw new FilterSyntax(`the function "${t.text}" is not supported`);
    const field = fieldOf(t.text);
    if (!field) throw new FilterSyntax(`the field "${t.text}" is not supported`);
    const opTok = this.next();
    const op =
      opTok?.kind === 'word'
        ? (COMPARISONS as readonly string[]).find((c) => c === opTok.text.toLowerCase())
        : undefined;
    if (!op)
      throw new FilterSyntax(
        `expected one of ${COMPARISONS.join(', ')} after ${field}${opTok ? ` but found "${opTok.text}"` : ''}`,
      );
    return { op: op as Comparison, field, value: this.literal(field) };
  }
  private literal(field: FilterField): FilterValue {
    let t = this.next();
    if (!t) throw new FilterSyntax(`a value is missing after ${field}`);
    // OData v3 typed literal: datetime'2026-01-01T00:00:00'
    if (t.kind === 'word' && t.text.toLowerCase() === 'datetime' && this.peek()?.kind === 'string')
      t = { kind: 'word', text: this.next()!.text };
    // ShareFile-NET's date, .NET's "u" format unquoted: 2026-01-31 10:00:00Z
    if (t.kind === 'word' && /^\d{4}-\d{2}-\d{2}$/.test(t.text) && /^\d{2}:\d{2}:\d{2}Z$/.test(this.peek()?.text ?? ''))
      t = { kind: 'word', text: `${t.text}T${this.next()!.text}` };
    if (field === 'FileSizeBytes') {
      if (t.kind !== 'number') throw new FilterSyntax(`FileSizeBytes compares with a number, not "${t.text}"`);
      return { kind: 'number', value: Number(t.text) };
    }
    if (field === 'CreationDate' || field === 'ProgenyEditDate') {
      if (!ISO_DATE.test(t.text) || Number.isNaN(Date.parse(t.text)))
        throw new FilterSyntax(`${field} compares with an ISO 8601 date such as 2026-01-31, not "${t.text}"`);
      return { kind: 'date', value: new Date(Date.parse(t.text)).toISOString() };
    }
    if (t.kind !== 'string') throw new FilterSyntax(`${field} compares with a string in single quotes, not ${t.text}`);
    return { kind: 'string', value: t.text };
  }
  private func(fn: string): FilterExpr {
    this.expect('lparen', '"("');
    if (fn === 'isof') {
      const t = this.next();
      if (!t || (t.kind !== 'string' && t.kind !== 'word')) throw new FilterSyntax('isof needs a type name');
      const type = typeOf(t.text);
      if (!type)
        throw new FilterSyntax(`isof accepts Files.Api.Models.File or Files.Api.Models.Folder, not "${t.text}"`);
      this.expect('rparen', '")"');
      return { op: 'isof', type };
    }
    let fieldTok: Token;
    let valueTok: Token;
    if (fn === 'substringof') {
      valueTok = this.expect('string', 'a quoted string');
      this.expect('comma', '","');
      fieldTok = this.expect('word', 'a field name');
    } else {
      fieldTok = this.expect('word', 'a field name');
      this.expect('comma', '","');
      valueTok = this.expect('string', 'a quoted string');
    }
    this.expect('rparen', '")"');
    // `startswith(Name, 'x') eq true|false`: the form ShareFile's own SDK writes (FunctionEqualityFilter)
    let isEqual = true;
    const compared = this.tokens[this.pos + 1];
    if (this.isWord(this.peek(), 'eq') && (this.isWord(compared, 'true') || this.isWord(compared, 'false'))) {
      isEqual = this.isWord(compared, 'true');
      this.pos += 2;
    }
    const field = fieldOf(fieldTok.text);
    if (field !== 'Name' && field !== 'FileName')
      throw new FilterSyntax(`${fn} works on Name or FileName, not "${fieldTok.text}"`);
    const expr = { op: fn as 'startswith' | 'endswith' | 'substringof', field, value: valueTok.text } as const;
    return isEqual ? expr : { op: 'not', expr };
  }
}

class FilterSyntax extends Error {}

/** A filter over one of the FILTER_LIMITS; `expected` names the limit. */
class FilterLimit extends FilterSyntax {
  constructor(
    message: string,
    readonly expected: string,
  ) {
    super(message);
  }
}

/** Conditions are joined by and/or, so there is one more condition than there are joins. */
const conditionCount = (tokens: readonly Token[]): number =>
  1 +
  tokens.filter((t) => t.kind === 'word' && (t.text.toLowerCase() === 'and' || t.text.toLowerCase() === 'or')).length;

export const parseFilter = (source: string): Either<InvalidInput, FilterExpr> => {
  const bad = (why: string, expected = 'OData filter expression') =>
    invalidInput(`The filter cannot be used: ${why}. ${SUPPORTED_FILTER}`, 'filter', expected, {
      supported: SUPPORTED_FILTER,
    });
  if (source.length > FILTER_LIMITS.maxLength) {
    return E.left(
      bad(
        `it is ${source.length} characters long; the limit is ${FILTER_LIMITS.maxLength}`,
        `OData filter expression of at most ${FILTER_LIMITS.maxLength} characters`,
      ),
    );
  }
  const tokens = tokenize(source);
  if (E.isLeft(tokens)) return E.left(bad(tokens.left));
  if (tokens.right.length === 0) return E.left(bad('it is empty'));
  const conditions = conditionCount(tokens.right);
  if (conditions > FILTER_LIMITS.maxConditions) {
    return E.left(
      bad(
        `it joins ${conditions} conditions; the limit is ${FILTER_LIMITS.maxConditions}`,
        `OData filter expression with at most ${FILTER_LIMITS.maxConditions} conditions`,
      ),
    );
  }
  try {
    return E.right(new Parser(tokens.right).parse());
  } catch (e) {
    if (e instanceof FilterLimit) return E.left(bad(e.message, e.expected));
    if (e instanceof FilterSyntax) return E.left(bad(e.message));
    throw e;
  }
};

const fieldValue = (item: Item, field: FilterField): string | number => {
  switch (field) {
    case 'Name':
      return item.Name;
    case 'FileName':
      return item.FileName;
    case 'FileSizeBytes':
      return item.FileSizeBytes;
    case 'CreationDate':
      return item.CreationDate;
    case 'ProgenyEditDate':
      return item.ProgenyEditDate ?? item.CreationDate;
  }
};

const compare = (a: string | number, b: string | number): number => {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en', { sensitivity: 'base' });
};

/** Whether an item matches the filter. String comparisons ignore case, as ShareFile's do. */
export const matchesFilter = (item: Item, f: FilterExpr): boolean => {
  switch (f.op) {
    case 'and':
      return matchesFilter(item, f.left) && matchesFilter(item, f.right);
    case 'or':
      return matchesFilter(item, f.left) || matchesFilter(item, f.right);
    case 'not':
      return !matchesFilter(item, f.expr);
    case 'isof':
      return item.type === f.type;
    case 'startswith':
      return fieldValue(item, f.field).toString().toLowerCase().startsWith(f.value.toLowerCase());
    case 'endswith':
      return fieldValue(item, f.field).toString().toLowerCase().endsWith(f.value.toLowerCase());
    case 'substringof':
      return fieldValue(item, f.field).toString().toLowerCase().includes(f.value.toLowerCase());
    default: {
      const left = fieldValue(item, f.field);
      const c =
        f.value.kind === 'date' ? Date.parse(String(left)) - Date.parse(f.value.value) : compare(left, f.value.value);
      switch (f.op) {
        case 'eq':
          return c === 0;
        case 'ne':
          return c !== 0;
        case 'gt':
          return c > 0;
        case 'ge':
          return c >= 0;
        case 'lt':
          return c < 0;
        case 'le':
          return c <= 0;
      }
    }
  }
};

export const ORDER_FIELDS = ['Name', 'FileName', 'CreationDate', 'ProgenyEditDate', 'FileSizeBytes'] as const;
export type OrderField = (typeof ORDER_FIELDS)[number];
export interface OrderTerm {
  readonly field: OrderField;
  readonly descending: boolean;
}

export const SUPPORTED_ORDERBY = `Supported orderby: one or more of ${ORDER_FIELDS.join(', ')}, each optionally followed by asc or desc, separated by commas. Example: "FileSizeBytes desc, Name asc".`;

export const parseOrderBy = (source: string): Either<InvalidInput, readonly OrderTerm[]> => {
  const terms: OrderTerm[] = [];
  for (const part of source.split(',')) {
    const words = part.trim().split(/\s+/).filter(Boolean);
    const field = ORDER_FIELDS.find((f) => f.toLowerCase() === (words[0] ?? '').toLowerCase());
    const dir = (words[1] ?? 'asc').toLowerCase();
    if (!field || words.length > 2 || !['asc', 'desc', 'ascending', 'descending'].includes(dir)) {
      return E.left(
        invalidInput(
          `The orderby "${part.trim()}" cannot be used. ${SUPPORTED_ORDERBY}`,
          'orderby',
          'OData orderby expression',
          { supported: SUPPORTED_ORDERBY },
        ),
      );
    }
    terms.push({ field, descending: dir.startsWith('desc') });
  }
  return E.right(terms);
};

/** Folders first, then by name: the default order of a listing. */
export const defaultOrder = (a: Item, b: Item): number =>
  a.type !== b.type ? (a.type === 'Folder' ? -1 : 1) : a.Name.localeCompare(b.Name, 'en', { sensitivity: 'base' });

export const orderItems = (items: readonly Item[], terms: readonly OrderTerm[]): Item[] => {
  if (!terms.length) return [...items].sort(defaultOrder);
  return [...items].sort((a, b) => {
    for (const t of terms) {
      const av = fieldValue(a, t.field);
      const bv = fieldValue(b, t.field);
      const c =
        t.field === 'CreationDate' || t.field === 'ProgenyEditDate'
          ? Date.parse(String(av)) - Date.parse(String(bv))
          : compare(av, bv);
      if (c !== 0) return t.descending ? -c : c;
    }
    return a.Id.localeCompare(b.Id);
  });
};

export const orderByToOData = (terms: readonly OrderTerm[]): string =>
  terms.map((t) => `${t.field} ${t.descending ? 'desc' : 'asc'}`).join(',');
