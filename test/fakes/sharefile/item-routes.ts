import { parseFilter, parseOrderBy } from '../../../domain/files/query.js';
import { E } from '../../../domain/shared/fp.js';
import type { ServerResponse } from 'node:http';
import { filterFormProblems } from './filter-forms.js';
import { bool, type Json, type SfRoute, type StandInContext } from './exchange.js';
import { sfItem } from './sharefile-shapes.js';

// ShareFile's item operations on the stand-in: read an item, list children (with OData $filter, $orderby,
// $top and $skip), create a folder, update or move (PATCH with a new Parent), delete, copy and search.

const ITEM = /^\/Items\(([^)]+)\)$/;

/** A folder's children as ShareFile's OData feed (also what a symbolic link's remote connector answers). */
export const childrenFeed = (
  { items, api, reply }: StandInContext,
  id: string,
  q: URLSearchParams,
  res: ServerResponse,
): void | Promise<void> => {
  if (id === 'top')
    return reply.run(res, items.topLevel(), (list) =>
      reply.send(res, 200, { 'odata.count': list.length, value: list.map((i) => sfItem(api, i)) }),
    );
  const filter = q.get('$filter') ? parseFilter(q.get('$filter')!) : E.right(undefined);
  const order = q.get('$orderby') ? parseOrderBy(q.get('$orderby')!) : E.right([]);
  if (E.isLeft(filter) || E.isLeft(order))
    return reply.sfError(res, 400, 'BadRequest', 'The OData expression is not supported.');
  const top = Number(q.get('$top') ?? '100');
  const skip = Number(q.get('$skip') ?? '0');
  return reply.run(
    res,
    items.children(id, {
      top,
      skip,
      includeDeleted: bool(q.get('includeDeleted')),
      orderBy: order.right,
      ...(filter.right ? { filter: filter.right } : {}),
    }),
    (page) =>
      reply.send(res, 200, {
        'odata.metadata': `${api}/$metadata#Items`,
        'odata.count': page.totalCount,
        value: page.items.map((i) => sfItem(api, i)),
        ...(skip + page.items.length < page.totalCount
          ? { 'odata.nextLink': `${api}/Items(${id})/Children?$skip=${skip + page.items.length}&$top=${top}` }
          : {}),
      }),
  );
};

export const ITEM_ROUTES: readonly SfRoute[] = [
  {
    method: 'GET',
    path: ITEM,
    handle: ({ items, api, reply }, { res, q, match }) =>
      reply.run(
        res,
        items.get(match[1]!, {
          includeDeleted: bool(q.get('includeDeleted')),
          includeChildren: (q.get('$expand') ?? '').includes('Children'),
        }),
        (i) => reply.send(res, 200, sfItem(api, i)),
      ),
  },
  {
    method: 'GET',
    path: /^\/Items\(([^)]+)\)\/Children$/,
    handle: (ctx, { res, q, match, logged }) => {
      const id = match[1]!;
      for (const problem of filterFormProblems(q.get('$filter') ?? '')) ctx.reply.violation(logged, problem);
      // ShareFile-NET ItemsEntity.GetChildren: "A 302 redirection is returned if the folder is a SymbolicLink.
      // The redirection will enumerate the children of the remote connector."
      const link = ctx.flags.symlinks.get(id);
      if (link) return ctx.reply.send(res, 302, undefined, { location: link });
      return childrenFeed(ctx, id, q, res);
    },
  },
  {
    method: 'POST',
    path: /^\/Items(?:\(([^)]+)\))?\/Folder$/,
    handle: ({ items, api, reply }, { res, logged, body, q, match }) => {
      if (!reply.checked(logged, 'createFolder.request.json'))
        return reply.sfError(res, 400, 'BadRequest', 'Request body does not match Folder');
      const b = body as Json;
      return reply.run(
        res,
        items.createFolder(match[1] ?? 'allshared', {
          name: String(b['Name'] ?? ''),
          ...(typeof b['Description'] === 'string' ? { description: b['Description'] } : {}),
          overwrite: bool(q.get('overwrite')),
        }),
        (i) => reply.send(res, 200, sfItem(api, i)),
      );
    },
  },
  {
    method: 'PATCH',
    path: ITEM,
    handle: ({ items, api, reply, flags }, { res, logged, body, q, match }) => {
      if (!reply.checked(logged, 'updateItem.request.json'))
        return reply.sfError(res, 400, 'BadRequest', 'Request body does not match Item');
      const b = body as Json;
      const id = match[1]!;
      const parent = (b['Parent'] as Json | undefined)?.['Id'];
      if (typeof parent === 'string') {
        if (flags.asyncTransfers)
          return reply.send(res, 202, {
            'odata.type': 'ShareFile.Api.Models.AsyncOperation',
            Id: 'aop-1',
            Operation: 'Move',
            State: 'Scheduled',
            Source: { Id: id },
            Target: { Id: parent },
          });
        // ShareFile-NET's ItemsEntity.Update has no overwrite: a name clash in the target is a conflict.
        if (q.has('overwrite')) reply.violation(logged, 'PATCH Items(id) takes no overwrite parameter');
        return reply.run(res, items.move(id, parent, false), (o) =>
          o.kind === 'done' ? reply.send(res, 200, sfItem(api, o.item)) : reply.send(res, 202, {}),
        );
      }
      return reply.run(
        res,
        items.update(id, {
          ...(typeof b['Name'] === 'string' ? { name: b['Name'] } : {}),
          ...(typeof b['Description'] === 'string' ? { description: b['Description'] } : {}),
          ...(typeof b['ExpirationDate'] === 'string' ? { expirationDate: b['ExpirationDate'] } : {}),
        }),
        (i) => reply.send(res, 200, sfItem(api, i)),
      );
    },
  },
  {
    method: 'DELETE',
    path: ITEM,
    handle: ({ items, reply }, { res, q, match }) =>
      reply.run(
        res,
        items.delete(match[1]!, { singleVersion: bool(q.get('singleversion')), forceSync: bool(q.get('forceSync')) }),
        () => reply.send(res, 204),
      ),
  },
  {
    method: 'POST',
    path: /^\/Items\(([^)]+)\)\/Copy$/,
    handle: async ({ items, api, reply, flags }, { res, q, match }) => {
      const target = q.get('targetid') ?? '';
      if (flags.asyncTransfers)
        return reply.send(res, 202, {
          'odata.type': 'ShareFile.Api.Models.AsyncOperation',
          Id: 'aop-2',
          Operation: 'Copy',
          State: 'Scheduled',
          Source: { Id: match[1] },
          Target: { Id: target },
        });
      // The answer is the modified source (ShareFile-NET ItemsEntity.Copy), not the copy.
      const copied = await items.copy(match[1]!, target, bool(q.get('overwrite')))();
      if (E.isRight(copied) && copied.right.kind !== 'done') return reply.send(res, 202, {});
      // a test may rename the copy (ShareFile's `<base> (n).<ext>`) or make it not listed yet ('')
      if (E.isRight(copied) && copied.right.kind === 'done' && flags.copyLandsAs !== undefined) {
        const id = copied.right.item.Id;
        if (flags.copyLandsAs === '') await items.delete(id, { singleVersion: false, forceSync: false })();
        else await items.update(id, { name: flags.copyLandsAs })();
      }
      const source = E.isLeft(copied)
        ? async () => copied
        : items.get(match[1]!, { includeDeleted: false, includeChildren: false });
      return reply.run(res, source, (item) => reply.send(res, 200, sfItem(api, item)));
    },
  },
  {
    method: 'POST',
    path: /^\/Items\/AdvancedSimpleSearch$/,
    handle: ({ items, reply }, { res, logged, body }) => {
      if (!reply.checked(logged, 'advancedSimpleSearch.request.json'))
        return reply.sfError(res, 400, 'BadRequest', 'Request body does not match SimpleSearchQuery');
      const b = body as { Query: Json; Paging: Json };
      const parent = String(b.Query['ParentID'] ?? '');
      const type = String(b.Query['ItemType'] ?? '');
      return reply.run(
        res,
        items.search({
          query: String(b.Query['SearchQuery'] ?? ''),
          scope: parent === 'home' ? 'personal' : parent === 'allshared' ? 'shared' : 'all',
          ...(parent && parent !== 'home' && parent !== 'allshared' ? { folderId: parent } : {}),
          ...(type ? { itemTypes: [type === 'Folder' ? 'Folder' : 'File'] } : {}),
          ...(b.Query['CreatorID'] ? { creatorId: String(b.Query['CreatorID']) } : {}),
          ...(b.Query['CreateStartDate'] ? { createdFrom: String(b.Query['CreateStartDate']) } : {}),
          ...(b.Query['CreateEndDate'] ? { createdTo: String(b.Query['CreateEndDate']) } : {}),
          namesOnly: b.Query['ItemNameOnly'] === true,
          top: Number(b.Paging['Count'] ?? 50),
        }),
        (r) =>
          reply.send(res, 200, {
            'odata.type': 'ShareFile.Api.Models.SearchResults',
            PartialResults: r.partialResults,
            TimedOut: r.timedOut,
            Results: r.results.map((x) => ({
              ...x,
              ItemID: x.Id,
              ItemType: x.ItemType === 'file' ? 'File' : 'Folder',
              'odata.type': 'ShareFile.Api.Models.SearchResult',
              MatchedIn: undefined,
            })),
          }),
      );
    },
  },
];
