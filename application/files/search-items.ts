import { inject, injectable } from 'inversify';
import type { ItemType } from '../../domain/files/item.js';
import { SEARCH_QUERY_LIMITS, searchTerms, type SearchResults, type SearchScope } from '../../domain/files/search.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { ItemStore } from '../../ports/item-store.js';
import {
  arrayUpTo,
  described,
  intRange,
  NonEmptyString,
  nonEmptyUpTo,
  oneOf,
  params,
  t,
  withoutDefaults,
} from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, joinBlocks, nextSteps } from '../runtime/markdown.js';
import { flag, size, TYPE_PREFIX } from './files-text.js';
import { isoDate } from './update-item.js';
import { SearchResultsResult } from './file-results.js';

export const SearchItemsParams = params(
  {
    query: described(
      nonEmptyUpTo(SEARCH_QUERY_LIMITS.maxLength),
      `Words to find (at most ${SEARCH_QUERY_LIMITS.maxTerms}).`,
    ),
  },
  {
    search_scope: described(
      oneOf(['all', 'personal', 'shared'] as const, 'SearchScope'),
      'all, personal (home folder) or shared (shared folders).',
      'all',
    ),
    folder_id: described(NonEmptyString, 'Only this folder and its subfolders.'),
    item_types: described(
      arrayUpTo(oneOf(['File', 'Folder'] as const, 'ItemType'), 2),
      'Only these kinds: File, Folder or both.',
    ),
    creator_id: described(NonEmptyString, 'Only items created by this user id.'),
    create_start_date: described(NonEmptyString, 'Created on or after (ISO 8601).'),
    create_end_date: described(NonEmptyString, 'Created on or before (ISO 8601).'),
    item_name_only: flag('Match names only, not file contents.', false),
    top: described(intRange(1, 500), 'Maximum results.', 50),
    summary_only: flag('Only the main fields.', false),
  },
);
export type SearchItemsParams = t.TypeOf<typeof SearchItemsParams>;

export interface SearchItemsResult extends SearchResults {
  readonly query: string;
  readonly scope: SearchScope;
}

@injectable()
export class SearchItems implements UseCase<SearchItemsParams, SearchItemsResult> {
  constructor(@inject(ItemStore) private readonly items: ItemStore) {}
  execute(p: SearchItemsParams): TaskEither<GatewayError, SearchItemsResult> {
    const query = p.query.trim();
    const terms = searchTerms(query).length;
    if (!terms) return TE.left(invalidInput('The query has no letters or digits to search for.', 'query', 'words'));
    if (terms > SEARCH_QUERY_LIMITS.maxTerms) {
      return TE.left(
        invalidInput(
          `The query has ${terms} words; use at most ${SEARCH_QUERY_LIMITS.maxTerms}, the most distinctive ones.`,
          'query',
          `at most ${SEARCH_QUERY_LIMITS.maxTerms} words`,
        ),
      );
    }
    for (const [name, value] of [
      ['create_start_date', p.create_start_date],
      ['create_end_date', p.create_end_date],
    ] as const) {
      const bad = value !== undefined ? isoDate(value, name) : undefined;
      if (bad) return TE.left(bad);
    }
    const endOfDay = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v.trim()) ? `${v.trim()}T23:59:59.999Z` : v.trim());
    const scope = p.search_scope;
    return pipe(
      this.items.search({
        query,
        scope,
        ...(p.folder_id ? { folderId: p.folder_id.trim() } : {}),
        ...(p.item_types?.length ? { itemTypes: p.item_types as ItemType[] } : {}),
        ...(p.creator_id ? { creatorId: p.creator_id.trim() } : {}),
        ...(p.create_start_date ? { createdFrom: new Date(Date.parse(p.create_start_date.trim())).toISOString() } : {}),
        ...(p.create_end_date ? { createdTo: new Date(Date.parse(endOfDay(p.create_end_date))).toISOString() } : {}),
        namesOnly: p.item_name_only,
        top: p.top,
      }),
      TE.map((r) => ({ ...r, query, scope })),
    );
  }
}

export const searchItemsTool = defineTool({
  group: 'files',
  name: 'searchItems',
  title: 'Search files and folders',
  description:
    'Finds files and folders whose name or text contains all the query words, best match first. Returns ids for files_getItem, files_readFile and files_getDownloadUrl.',
  annotations: { kind: 'Read', idempotent: true },
  params: SearchItemsParams,
  useCase: SearchItems,
  result: SearchResultsResult,
  json: (r, p) => ({
    query: r.query,
    search_scope: p.folder_id ? 'folder' : r.scope,
    total_count: r.totalCount,
    returned_count: r.results.length,
    partial_results: r.partialResults,
    timed_out: r.timedOut,
    results: r.results.map((x) =>
      p.summary_only
        ? { Id: x.Id, Name: x.Name, ItemType: x.ItemType, Size: x.Size, CreationDate: x.CreationDate, Path: x.Path }
        : { ...x, ItemID: x.Id, 'odata.type': `${TYPE_PREFIX}SearchResult` },
    ),
    ...(p.summary_only ? { summary_only: true } : {}),
  }),
  text: (r, p) => {
    const where = p.folder_id ? `in folder ${p.folder_id}` : r.scope === 'all' ? 'everywhere' : `in ${r.scope} folders`;
    const heading = `## Search "${r.query}" ${where}: ${r.totalCount} match${r.totalCount === 1 ? '' : 'es'}`;
    const notes = [
      r.partialResults ? 'The storage returned partial results.' : '',
      r.timedOut ? 'The search timed out; results may be incomplete.' : '',
    ]
      .filter(Boolean)
      .join(' ');
    if (!r.results.length)
      return [
        heading,
        notes,
        'Nothing matches. Try fewer or shorter words, another scope, or item_name_only=false to search contents.',
      ]
        .filter(Boolean)
        .join('\n\n');
    return {
      before: joinBlocks(heading, notes),
      position: `Showing 1-${r.results.length} of ${r.totalCount}.${r.results.length < r.totalCount ? ` Raise top (now ${p.top}) to see more: ${call('files_searchItems', { ...withoutDefaults(SearchItemsParams, p), top: Math.min(500, r.totalCount) })}` : ''}`,
      columns: [
        'rank',
        'id',
        'name',
        'type',
        'size',
        'folder',
        'score',
        ...(r.results.some((x) => x.MatchedIn) ? ['matched in'] : []),
      ],
      rows: r.results.map((x) => [
        x.Rank,
        x.Id,
        x.Name,
        x.ItemType,
        size(x.Size),
        x.ParentSemanticPath ?? x.ParentName,
        x.Score,
        ...(x.MatchedIn ? [x.MatchedIn.join(' + ')] : []),
      ]),
      after: nextSteps([
        `Download a file: ${call('files_getDownloadUrl', { item_id: r.results[0]!.Id })}`,
        `Read its details: ${call('files_getItem', { item_id: r.results[0]!.Id })}`,
      ]),
    };
  },
});
