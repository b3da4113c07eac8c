import { isAlias, isCopyName, type Item, type ItemPage, type TransferOutcome } from '../../../domain/files/item.js';
import { filterToShareFile } from '../../../domain/files/filter-odata.js';
import { orderByToOData } from '../../../domain/files/query.js';
import type { ItemSearch, SearchResults } from '../../../domain/files/search.js';
import {
  uploadMethodFor,
  type DownloadSpecification,
  type UploadMethod,
  type UploadRequest,
  type UploadSpecification,
} from '../../../domain/files/transfer.js';
import { invalidInput, type GatewayError } from '../../../domain/shared/errors.js';
import { E, pipe, TE, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { ChildrenQuery, ItemChanges, ItemStore } from '../../../ports/item-store.js';
import type { AxiosResponse } from 'axios';
import { LRUCache } from 'lru-cache';
import type { GuardedFetcher } from '../../../ports/url-fetcher.js';
import { listingData } from './sharefile-symlink.js';
import {
  decodeShareFile,
  SfAsyncOperation,
  SfFeed,
  SfItem,
  SfSearchResults,
  SfUploadSpecification,
} from './sharefile-codecs.js';
import { itemPath, type ShareFileClient, type SfRequest } from './sharefile-client.js';
import {
  downloadAnswer,
  itemTypeOf,
  toItem,
  toSearchRequest,
  toSearchResults,
  toUploadRequest,
  toUploadSpecification,
} from './sharefile-mapping.js';

export interface ShareFileItemStoreOptions {
  readonly client: ShareFileClient;
  readonly maxUploadBytes: number;
  readonly threadedThresholdBytes?: number;
  /** The URL fetch guard a symbolic link's listing is followed through when it redirects off the API host. */
  readonly fetcher?: GuardedFetcher;
}

/** How long an alias's resolved folder id is kept (per connection; the home folder's id does not change). */
const ALIAS_ID_TTL_MS = 10 * 60_000;

/** The files tools over ShareFile's v3 API (api.sharefile.com/html/docs/Items.html). */
export class ShareFileItemStore implements ItemStore {
  /** The folder ids the aliases (`home`, `allshared`...) resolved to: at most one per alias, for ten minutes. */
  readonly #aliasIds = new LRUCache<string, string>({ max: 8, ttl: ALIAS_ID_TTL_MS });

  constructor(private readonly o: ShareFileItemStoreOptions) {}

  private call<A>(r: SfRequest, decode: (res: AxiosResponse) => Either<GatewayError, A>): TaskEither<GatewayError, A> {
    return this.o.client.call(r, decode);
  }

  private item(r: SfRequest, what: string): TaskEither<GatewayError, Item> {
    return this.call(r, (res) => pipe(decodeShareFile(SfItem, res.data, what), E.map(toItem)));
  }

  private outcome(r: SfRequest, targetId: string, itemId: string): TaskEither<GatewayError, TransferOutcome> {
    return this.call(r, (res): Either<GatewayError, TransferOutcome> => {
      const data = res.data as Record<string, unknown> | undefined;
      if (
        res.status === 202 ||
        (typeof data?.['odata.type'] === 'string' && /AsyncOperation/.test(data['odata.type']))
      ) {
        const op = SfAsyncOperation.decode(data);
        const a = E.isRight(op) ? op.right : undefined;
        return E.right({
          kind: 'async',
          itemId,
          targetId,
          ...(a?.Id ? { operationId: a.Id } : {}),
          ...(a?.State ? { state: a.State } : {}),
        });
      }
      return pipe(
        decodeShareFile(SfItem, data, 'the item'),
        E.map((sf): TransferOutcome => ({ kind: 'done', item: toItem(sf) })),
      );
    });
  }

  get(id: string, o: { includeDeleted: boolean; includeChildren: boolean }): TaskEither<GatewayError, Item> {
    return this.item(
      {
        method: 'GET',
        path: itemPath(id),
        query: { includeDeleted: o.includeDeleted, ...(o.includeChildren ? { $expand: 'Children' } : {}) },
        subject: ['item', id],
      },
      'the item',
    );
  }

  topLevel(): TaskEither<GatewayError, readonly Item[]> {
    return this.call({ method: 'GET', path: `${itemPath('top')}/Children`, subject: ['item', 'top'] }, (res) =>
      pipe(
        decodeShareFile(SfFeed(SfItem), res.data, 'the top-level folders'),
        E.map((f) => f.value.map(toItem)),
      ),
    );
  }

  /** A folder's page of children; a symbolic-link folder's 302 is followed once (sharefile-symlink.ts). */
  children(folderId: string, q: ChildrenQuery): TaskEither<GatewayError, ItemPage> {
    const filter = q.filter ? filterToShareFile(q.filter) : E.right(undefined);
    if (E.isLeft(filter)) return TE.left(filter.left);
    const request: SfRequest = {
      method: 'GET',
      path: `${itemPath(folderId)}/Children`,
      query: {
        includeDeleted: q.includeDeleted,
        $top: q.top,
        $skip: q.skip,
        ...(filter.right !== undefined ? { $filter: filter.right } : {}),
        ...(q.orderBy.length ? { $orderby: orderByToOData(q.orderBy) } : {}),
      },
      subject: ['item', folderId],
    };
    return pipe(
      listingData({ client: this.o.client, ...(this.o.fetcher ? { fetcher: this.o.fetcher } : {}) }, request, folderId),
      TE.chainEitherK((data): Either<GatewayError, ItemPage> =>
        pipe(
          decodeShareFile(SfFeed(SfItem), data, 'the folder listing'),
          E.map((f) => {
            const items = f.value.map(toItem);
            const more = typeof f['odata.nextLink'] === 'string';
            return { folderId, totalCount: f['odata.count'] ?? q.skip + items.length + (more ? 1 : 0), items };
          }),
        ),
      ),
    );
  }

  createFolder(
    parentId: string,
    f: { name: string; description?: string; overwrite: boolean },
  ): TaskEither<GatewayError, Item> {
    return this.item(
      {
        method: 'POST',
        path: parentId === 'allshared' ? '/Items/Folder' : `${itemPath(parentId)}/Folder`,
        query: { overwrite: f.overwrite, passthrough: false },
        body: { Name: f.name.trim(), ...(f.description !== undefined ? { Description: f.description } : {}) },
        subject: ['folder', parentId],
      },
      'the new folder',
    );
  }

  update(id: string, c: ItemChanges): TaskEither<GatewayError, Item> {
    return this.item(
      {
        method: 'PATCH',
        path: itemPath(id),
        body: {
          ...(c.name !== undefined ? { Name: c.name.trim(), FileName: c.name.trim() } : {}),
          ...(c.description !== undefined ? { Description: c.description } : {}),
          ...(c.expirationDate !== undefined ? { ExpirationDate: c.expirationDate } : {}),
        },
        subject: ['item', id],
      },
      'the updated item',
    );
  }

  delete(id: string, o: { singleVersion: boolean; forceSync: boolean }): TaskEither<GatewayError, void> {
    const remove = this.call(
      {
        method: 'DELETE',
        path: itemPath(id),
        query: { singleversion: o.singleVersion, forceSync: o.forceSync },
        subject: ['item', id],
      },
      () => E.right(undefined),
    );
    if (!o.singleVersion) return remove;
    // ShareFile would delete the only version of a file without history; say so instead.
    return pipe(
      this.call({ method: 'GET', path: itemPath(id), subject: ['item', id] }, (res) =>
        decodeShareFile(SfItem, res.data, 'the item'),
      ),
      TE.chain((sf) =>
        itemTypeOf(sf['odata.type']) !== 'File'
          ? TE.left(
              invalidInput(
                `"${sf.Name ?? id}" is a folder; single_version applies to files with version history.`,
                'single_version',
                'false for folders',
              ),
            )
          : sf.HasMultipleVersions === false
            ? TE.left(
                invalidInput(
                  `"${sf.Name ?? id}" has no version history (only one version). Call files_deleteItem without single_version to move it to the recycle bin.`,
                  'single_version',
                  'false for a file without history',
                ),
              )
            : remove,
      ),
    );
  }

  /**
   * `POST Items(id)/Copy`. ShareFile answers with the modified source (ShareFile-NET ItemsEntity.Copy: "the
   * modified source object"), not the copy: the copy is then found in the target by its name, newest first.
   */
  copy(id: string, target: string, overwrite: boolean): TaskEither<GatewayError, TransferOutcome> {
    return pipe(
      this.outcome(
        { method: 'POST', path: `${itemPath(id)}/Copy`, query: { targetid: target, overwrite }, subject: ['item', id] },
        target,
        id,
      ),
      TE.chain((o) => (o.kind === 'done' ? this.copyIn(target, o.item) : TE.right(o))),
    );
  }

  private copyIn(target: string, source: Item): TaskEither<GatewayError, TransferOutcome> {
    const newestNamed = (name: string | undefined): TaskEither<GatewayError, ItemPage> =>
      this.children(target, {
        top: 5,
        skip: 0,
        includeDeleted: false,
        ...(name === undefined ? {} : { filter: { op: 'eq', field: 'Name', value: { kind: 'string', value: name } } }),
        orderBy: [{ field: 'CreationDate', descending: true }],
      });
    // only the source's name or ShareFile's renamed form (`<base> (n).<ext>`) is the copy (issue 42: the
    // newest item of any name in the target was taken for it)
    const copyOf = (page: ItemPage) => page.items.find((i) => i.Id !== source.Id && isCopyName(source.Name, i.Name));
    return pipe(
      newestNamed(source.Name),
      TE.chain((page) => {
        const found = copyOf(page);
        return found ? TE.right<GatewayError, Item | undefined>(found) : pipe(newestNamed(undefined), TE.map(copyOf));
      }),
      TE.map((copy): TransferOutcome =>
        copy
          ? { kind: 'done', item: copy }
          : { kind: 'unseen', itemId: source.Id, name: source.Name, targetId: target },
      ),
    );
  }

  /**
   * A move is `PATCH Items(id)` with the new Parent (ShareFile-NET ItemsEntity.Update takes no `overwrite`).
   * With `overwrite`, an item of the same name in the target is deleted (to the recycle bin) first.
   */
  move(id: string, target: string, overwrite: boolean): TaskEither<GatewayError, TransferOutcome> {
    const patch = this.outcome(
      { method: 'PATCH', path: itemPath(id), body: { Parent: { Id: target } }, subject: ['item', id] },
      target,
      id,
    );
    if (!overwrite) return patch;
    return pipe(
      this.get(id, { includeDeleted: false, includeChildren: false }),
      TE.chain((item) =>
        this.children(target, {
          top: 5,
          skip: 0,
          includeDeleted: false,
          filter: { op: 'eq', field: 'Name', value: { kind: 'string', value: item.Name ?? '' } },
          orderBy: [],
        }),
      ),
      TE.chain((page) =>
        TE.sequenceSeqArray(
          page.items
            .filter((clash) => clash.Id !== id)
            .map((clash) => this.delete(clash.Id, { singleVersion: false, forceSync: true })),
        ),
      ),
      TE.chain(() => patch),
    );
  }

  /**
   * `POST Items/AdvancedSimpleSearch`. A scope or folder given as an alias (`home`, `allshared`) is sent as the
   * folder id ShareFile answers for `GET Items(alias)`: nothing documents that search resolves aliases in
   * ParentID (ShareFile-NET Models/SimpleQuery.cs: a free string). The id is kept per connection (bounded,
   * ten minutes), so a warm search is one vendor call.
   */
  search(s: ItemSearch): TaskEither<GatewayError, SearchResults> {
    const parent = s.folderId ?? (s.scope === 'personal' ? 'home' : s.scope === 'shared' ? 'allshared' : undefined);
    return pipe(
      parent !== undefined && isAlias(parent)
        ? this.aliasId(parent)
        : TE.right<GatewayError, string | undefined>(parent),
      TE.chain((parentId) =>
        this.call({ method: 'POST', path: '/Items/AdvancedSimpleSearch', body: toSearchRequest(s, parentId) }, (res) =>
          pipe(
            decodeShareFile(SfSearchResults, res.data, 'the search'),
            E.map((r) => toSearchResults(r, s.top)),
          ),
        ),
      ),
    );
  }

  /** The folder id behind an alias, from `GET Items(alias)` (kept per connection). */
  private aliasId(alias: string): TaskEither<GatewayError, string> {
    const kept = this.#aliasIds.get(alias);
    if (kept !== undefined) return TE.right(kept);
    return pipe(
      this.call({ method: 'GET', path: itemPath(alias), subject: ['folder', alias] }, (res) =>
        decodeShareFile(SfItem, res.data, `the folder "${alias}"`),
      ),
      TE.map((sf) => {
        this.#aliasIds.set(alias, sf.Id);
        return sf.Id;
      }),
    );
  }

  /**
   * `GET Items(id)/Download?redirect=false` gives a DownloadSpecification. A provider that redirects anyway
   * answers 302 (ShareFile-NET ItemsEntity.Download: "It will return 302 redirection to the download link");
   * its `Location` is then the link.
   */
  downloadLink(id: string, o: { includeAllVersions: boolean }): TaskEither<GatewayError, DownloadSpecification> {
    return this.call(
      {
        method: 'GET',
        path: `${itemPath(id)}/Download`,
        query: { redirect: false, includeAllVersions: o.includeAllVersions, includeDeleted: false },
        subject: ['item', id],
        acceptRedirect: true,
      },
      (res) => downloadAnswer(res, 'the download request'),
    );
  }

  uploadLink(folderId: string, r: UploadRequest): TaskEither<GatewayError, UploadSpecification> {
    if (isAlias(folderId) && folderId !== 'home')
      return TE.left(
        invalidInput(
          `Files cannot be uploaded to "${folderId}". Use "home" or a folder id.`,
          'folder_id',
          'folder id or "home"',
        ),
      );
    if (r.fileSize !== undefined && r.fileSize > this.o.maxUploadBytes) {
      return TE.left(
        invalidInput(
          `The file is ${r.fileSize} bytes; this gateway accepts files up to ${this.o.maxUploadBytes} bytes. Nothing was uploaded.`,
          'file_size',
          `at most ${this.o.maxUploadBytes}`,
          { limit_bytes: this.o.maxUploadBytes },
        ),
      );
    }
    const method: UploadMethod = uploadMethodFor(r.fileSize, this.o.threadedThresholdBytes);
    const body = toUploadRequest(r, method);
    return this.call(
      { method: 'POST', path: `${itemPath(folderId)}/Upload2`, body, subject: ['folder', folderId] },
      (res) =>
        pipe(
          decodeShareFile(SfUploadSpecification, res.data, 'the upload request'),
          E.map((u) => toUploadSpecification(u, method)),
        ),
    );
  }
}
