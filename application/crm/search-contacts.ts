import { inject, injectable } from 'inversify';
import { contactDisplayName, DEFAULT_SEARCH_PROPERTIES } from '../../domain/crm/contact.js';
import {
  OPERATORS,
  SEARCH_LIMITS,
  VALUE_LIMITS,
  validateSearch,
  type ContactPage,
  type ContactSearch,
} from '../../domain/crm/search.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { ContactBook } from '../../ports/contact-book.js';
import {
  arrayUpTo,
  described,
  intRange,
  NonEmptyString,
  nonEmptyUpTo,
  object,
  oneOf,
  params,
  PropertyValue,
  stringUpTo,
  t,
  withoutDefaults,
} from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call } from '../runtime/markdown.js';
import { ContactSearchResult } from './crm-results.js';

const FilterCodec = object(
  'Filter',
  {
    propertyName: described(nonEmptyUpTo(256), 'Internal property name, such as "email" or "lifecyclestage".'),
    operator: described(
      oneOf(OPERATORS, 'Operator'),
      'BETWEEN uses value and highValue; IN and NOT_IN use values; HAS_PROPERTY and NOT_HAS_PROPERTY none; CONTAINS_TOKEN matches a whole word (* as wildcard).',
    ),
  },
  {
    value: described(PropertyValue, 'The value to compare with (a string; dates as YYYY-MM-DD or epoch milliseconds).'),
    highValue: described(PropertyValue, 'Upper end for BETWEEN (inclusive).'),
    values: described(t.array(PropertyValue), 'Values for IN and NOT_IN.'),
  },
);

const SortCodec = object(
  'Sort',
  { propertyName: described(nonEmptyUpTo(256), 'Property to sort by.') },
  {
    direction: described(oneOf(['ASCENDING', 'DESCENDING'] as const, 'Direction'), 'Sort direction.', 'ASCENDING'),
  },
);

export const SearchContactsParams = params(
  {},
  {
    filter_groups: described(
      t.array(
        object('FilterGroup', { filters: described(t.array(FilterCodec), 'Filters that must all match (AND).') }, {}),
      ),
      'Groups of filters; a contact matches when any group matches (OR). At most 5 groups, 10 filters per group, 25 in all.',
    ),
    sorts: described(arrayUpTo(SortCodec, 5), 'Sort order.'),
    return_properties: described(arrayUpTo(nonEmptyUpTo(256), 200), 'Properties to return.', [
      ...DEFAULT_SEARCH_PROPERTIES,
    ]),
    limit: described(intRange(1, 100), 'Contacts per page.', 10),
    after: described(NonEmptyString, 'The after value of the previous page.'),
    query: described(
      stringUpTo(SEARCH_LIMITS.maxQueryLength),
      `Free text matched against name, email, phone and company (at most ${VALUE_LIMITS.maxQueryWords} words).`,
    ),
  },
);
export type SearchContactsParams = t.TypeOf<typeof SearchContactsParams>;

export interface SearchContactsResult {
  readonly page: ContactPage;
  readonly properties: readonly string[];
}

export const toContactSearch = (p: SearchContactsParams): ContactSearch => ({
  filterGroups: (p.filter_groups ?? []).map((g) => ({ filters: g.filters })),
  sorts: (p.sorts ?? []).map((s) => ({ propertyName: s.propertyName, direction: s.direction })),
  query: p.query?.trim() ? p.query.trim() : undefined,
  properties: p.return_properties.length ? p.return_properties : DEFAULT_SEARCH_PROPERTIES,
  limit: p.limit,
  after: p.after,
});

@injectable()
export class SearchContacts implements UseCase<SearchContactsParams, SearchContactsResult> {
  constructor(@inject(ContactBook) private readonly contacts: ContactBook) {}

  execute(p: SearchContactsParams): TaskEither<GatewayError, SearchContactsResult> {
    return pipe(
      TE.fromEither(validateSearch(toContactSearch(p))),
      TE.chain((search) =>
        pipe(
          this.contacts.search(search),
          TE.map((page) => ({ page, properties: search.properties })),
        ),
      ),
    );
  }
}

const NAME_COLUMNS = new Set(['firstname', 'lastname']);

export const searchContactsTool = defineTool({
  group: 'crm',
  name: 'searchContacts',
  title: 'Search contacts',
  description:
    'Finds CRM contacts by free text (query) and/or property filters, a page at a time (after). Returns ids for crm_getContact.',
  annotations: { kind: 'Read', idempotent: true },
  params: SearchContactsParams,
  useCase: SearchContacts,
  result: ContactSearchResult,
  json: ({ page }) => ({
    total: page.total,
    count: page.results.length,
    results: page.results.map((c) => ({ id: c.id, properties: c.properties })),
    ...(page.after !== undefined ? { after: page.after } : {}),
  }),
  rows: { key: 'results', whenCut: (shown) => ({ count: shown }), cursor: 'after' },
  continuation: (p, { page }, shown) => {
    const offset = /^\d+$/.test(p.after ?? '0') ? Number(p.after ?? '0') : undefined;
    if (offset === undefined || (shown >= page.results.length && page.after === undefined)) return undefined;
    return { ...p, after: String(offset + shown) };
  },
  text: ({ page, properties }, p) => {
    if (page.results.length === 0) {
      return page.total === 0
        ? 'No contacts match. Loosen the filters, or try a shorter `query` (it matches the start of words in name, email, phone and company).'
        : `No contacts on this page (${page.total} match in all). Start again without "after".`;
    }
    const offset = /^\d+$/.test(p.after ?? '') ? Number(p.after) : 0;
    const withName = properties.some((name) => NAME_COLUMNS.has(name));
    const cols = withName ? properties.filter((name) => !NAME_COLUMNS.has(name)) : [...properties];
    const rows = page.results.map((c) => [
      c.id,
      ...(withName ? [contactDisplayName(c)] : []),
      ...cols.map((name) => c.properties[name] ?? ''),
    ]);
    const first = offset + 1;
    const last = offset + page.results.length;
    return {
      before: `## Contacts: ${page.total} match`,
      position: `Showing ${first}-${last} of ${page.total}.`,
      columns: ['id', ...(withName ? ['name'] : []), ...cols],
      rows,
      more:
        page.after !== undefined
          ? `Next page: ${call('crm_searchContacts', withoutDefaults(SearchContactsParams, { ...p, after: page.after }))}`
          : 'This is the last page.',
    };
  },
});
