import type { ServiceIdentifier } from 'inversify';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';
import type { Item, ItemPage, TransferOutcome } from '../domain/files/item.js';
import type { FilterExpr, OrderTerm } from '../domain/files/query.js';
import type { ItemSearch, SearchResults } from '../domain/files/search.js';
import type { DownloadSpecification, UploadRequest, UploadSpecification } from '../domain/files/transfer.js';

export interface ChildrenQuery {
  readonly top: number;
  readonly skip: number;
  readonly includeDeleted: boolean;
  readonly filter?: FilterExpr;
  readonly orderBy: readonly OrderTerm[];
}

export interface ItemChanges {
  readonly name?: string;
  readonly description?: string;
  readonly expirationDate?: string;
}

/**
 * One account's files and folders (ShareFile or in memory): items, versions, the recycle bin, search,
 * and the addresses that move bytes. Both adapters honour test/ports/item-store.contract.ts.
 */
export interface ItemStore {
  /** An item by id or alias (home, allshared, favorites, top, box, connectors). Deleted items only with includeDeleted. */
  get(
    id: string,
    options: { readonly includeDeleted: boolean; readonly includeChildren: boolean },
  ): TaskEither<GatewayError, Item>;
  /** Home, Favorites, Shared Folders and Connectors. */
  topLevel(): TaskEither<GatewayError, readonly Item[]>;
  children(folderId: string, query: ChildrenQuery): TaskEither<GatewayError, ItemPage>;
  /** A same-named folder is a Conflict unless `overwrite`, which replaces it (its contents go to the recycle bin). */
  createFolder(
    parentId: string,
    folder: { readonly name: string; readonly description?: string; readonly overwrite: boolean },
  ): TaskEither<GatewayError, Item>;
  update(id: string, changes: ItemChanges): TaskEither<GatewayError, Item>;
  /** Moves the item to the recycle bin, or with `singleVersion` removes only the current version of a file. */
  delete(
    id: string,
    options: { readonly singleVersion: boolean; readonly forceSync: boolean },
  ): TaskEither<GatewayError, void>;
  copy(id: string, targetFolderId: string, overwrite: boolean): TaskEither<GatewayError, TransferOutcome>;
  move(id: string, targetFolderId: string, overwrite: boolean): TaskEither<GatewayError, TransferOutcome>;
  search(search: ItemSearch): TaskEither<GatewayError, SearchResults>;
  downloadLink(
    id: string,
    options: { readonly includeAllVersions: boolean },
  ): TaskEither<GatewayError, DownloadSpecification>;
  uploadLink(folderId: string, request: UploadRequest): TaskEither<GatewayError, UploadSpecification>;
}

export const ItemStore = Symbol.for('ItemStore') as ServiceIdentifier<ItemStore>;
