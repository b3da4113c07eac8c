import { inject, injectable } from 'inversify';
import { LISTABLE_ALIASES, isAlias, type Item } from '../../domain/files/item.js';
import { FILTER_LIMITS, parseFilter, parseOrderBy } from '../../domain/files/query.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { E, pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { ItemStore } from '../../ports/item-store.js';
import { described, intRange, NonEmptyString, params, stringUpTo, t, withoutDefaults } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { flag, itemJson, itemRows, itemSummaryJson } from './files-text.js';
import { ItemListResult } from './file-results.js';

export const ListChildrenParams = params(
  {},
  {
    folder_id: described(NonEmptyString, 'Folder id or alias (home, allshared, favorites, top).', 'home'),
    top: described(intRange(1, 1000), 'Items per page.', 100),
    skip: described(intRange(0, 1_000_000), 'Items to skip (paging).', 0),
    include_deleted: flag('Also list items in the recycle bin.', false),
    filter: described(
      stringUpTo(FILTER_LIMITS.maxLength),
      "OData filter: eq, ne, gt, ge, lt, le on Name, FileName, FileSizeBytes, CreationDate, ProgenyEditDate; startswith(Name,'x'), endswith(Name,'x'), substringof('x',Name); isof('Files.Api.Models.File') or isof('Files.Api.Models.Folder'); and, or, not, parentheses.",
    ),
    orderby: described(
      stringUpTo(200),
      'Name, FileName, CreationDate, ProgenyEditDate or FileSizeBytes, each asc or desc, comma-separated ("CreationDate desc"). Default: folders first, by name.',
    ),
    summary_only: flag('Only the main fields.', false),
    verbose: flag(
      "MCP: structuredContent carries whole items. By default each item there is its Id, Name, odata.type and the table's columns.",
      false,
    ),
  },
);
export type ListChildrenParams = t.TypeOf<typeof ListChildrenParams>;

export interface ListChildrenResult {
  readonly folderId: string;
  readonly totalCount: number;
  readonly skip: number;
  readonly items: readonly Item[];
}

@injectable()
export class ListChildren implements UseCase<ListChildrenParams, ListChildrenResult> {
  constructor(@inject(ItemStore) private readonly items: ItemStore) {}
  execute(p: ListChildrenParams): TaskEither<GatewayError, ListChildrenResult> {
    const folderId = p.folder_id.trim();
    if (isAlias(folderId) && !(LISTABLE_ALIASES as readonly string[]).includes(folderId)) {
      return TE.left(
        invalidInput(
          `"${folderId}" cannot be listed. Aliases listChildren accepts: ${LISTABLE_ALIASES.join(', ')}; files_getItem reads "${folderId}".`,
          'folder_id',
          'folder id or home, allshared, favorites, top',
        ),
      );
    }
    const filter = p.filter?.trim() ? parseFilter(p.filter) : E.right(undefined);
    if (E.isLeft(filter)) return TE.left(filter.left);
    const orderBy = p.orderby?.trim() ? parseOrderBy(p.orderby) : E.right([]);
    if (E.isLeft(orderBy)) return TE.left(orderBy.left);
    const skip = p.skip;
    return pipe(
      this.items.children(folderId, {
        top: p.top,
        skip,
        includeDeleted: p.include_deleted,
        orderBy: orderBy.right,
        ...(filter.right ? { filter: filter.right } : {}),
      }),
      TE.map((page) => ({ folderId, totalCount: page.totalCount, skip, items: page.items })),
    );
  }
}

export const listChildrenTool = defineTool({
  group: 'files',
  name: 'listChildren',
  title: 'List folder contents',
  description:
    'Lists the files and folders in a folder with ids, sizes and dates, a page at a time (top, skip). Narrow with an OData filter; sort with orderby.',
  annotations: { kind: 'Read', idempotent: true },
  params: ListChildrenParams,
  useCase: ListChildren,
  result: ItemListResult,
  rows: { key: 'items', whenCut: (shown) => ({ returned_count: shown, has_more: true }) },
  continuation: (p, r, shown) => (r.skip + shown < r.totalCount ? { ...p, skip: r.skip + shown } : undefined),
  json: (r, p) => ({
    folder_id: r.folderId,
    total_count: r.totalCount,
    returned_count: r.items.length,
    has_more: r.skip + r.items.length < r.totalCount,
    items: r.items.map((i) => (p.summary_only ? itemSummaryJson(i) : itemJson(i))),
    ...(p.summary_only ? { summary_only: true } : {}),
  }),
  text: (r, p) => {
    const heading = `## Contents of ${r.folderId} (${r.totalCount} item${r.totalCount === 1 ? '' : 's'}${p.filter ? ' matching the filter' : ''})`;
    if (r.items.length === 0) {
      return [
        heading,
        r.totalCount === 0
          ? p.filter
            ? 'Nothing matches the filter.'
            : 'The folder is empty.'
          : `No items on this page; there are ${r.totalCount}. Start again with skip 0.`,
      ].join('\n\n');
    }
    const hasMore = r.skip + r.items.length < r.totalCount;
    const next = { ...withoutDefaults(ListChildrenParams, p), folder_id: r.folderId, skip: r.skip + r.items.length };
    return {
      before: heading,
      position: `Showing ${r.skip + 1}-${r.skip + r.items.length} of ${r.totalCount}.`,
      ...itemRows(r.items),
      more: hasMore ? `Next page: ${call('files_listChildren', next)}` : 'This is the last page.',
      after: nextSteps([
        `Open a folder: ${call('files_listChildren', { folder_id: '<id>' })}`,
        `Download a file: ${call('files_getDownloadUrl', { item_id: '<id>' })}`,
      ]),
    };
  },
});
