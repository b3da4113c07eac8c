import { createHash, randomBytes } from 'node:crypto';
import {
  contentTypeOf,
  isAlias,
  isTextContent,
  nameProblem,
  numberedName,
  sameName,
  type Item,
  type ItemInfo,
  type ItemPage,
  type TransferOutcome,
} from '../../../domain/files/item.js';
import { matchesFilter, orderItems } from '../../../domain/files/query.js';
import { relevance, type ItemSearch, type SearchResult, type SearchResults } from '../../../domain/files/search.js';
import {
  CHUNK_SIZE_BYTES,
  MAX_UPLOAD_THREADS,
  THREADED_THRESHOLD_BYTES,
  uploadMethodFor,
  type DownloadSpecification,
  type UploadRequest,
  type UploadSpecification,
} from '../../../domain/files/transfer.js';
import { conflict, invalidInput, notFound, type GatewayError } from '../../../domain/shared/errors.js';
import { E, TE, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type {
  ChunkOutcome,
  FilePayload,
  IncomingChunk,
  TransferRefusal,
  UploadDesk,
  UploadSessionState,
} from '../../../ports/file-transfers.js';
import type { ChildrenQuery, ItemChanges, ItemStore } from '../../../ports/item-store.js';
import type { LinkSigner } from '../../../ports/link-signer.js';
import { UploadSessions, type UploadSession } from './in-memory-upload-sessions.js';
import { DEFAULT_DEMO_LIMITS, roomFor, type DemoLimits } from './demo-limits.js';

export interface AccountUser {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
}

export const DEFAULT_USER: AccountUser = {
  id: 'u4f1c2a9e7',
  firstName: 'Dana',
  lastName: 'Whitfield',
  email: 'dana.whitfield@harborline.example',
};

export interface InMemoryItemStoreOptions {
  readonly clock: Clock;
  readonly signer: LinkSigner;
  readonly user?: AccountUser;
  /** Largest file accepted (bytes). */
  readonly maxUploadBytes?: number;
  /** Files larger than this are uploaded Threaded. */
  readonly threadedThresholdBytes?: number;
  readonly uploadLinkTtlMs?: number;
  readonly downloadLinkTtlMs?: number;
  /** Most bytes all unfinished uploads may hold together (default: four of the largest files). */
  readonly maxHeldUploadBytes?: number;
  /** Makes ids (tests and demo data pass a deterministic one). */
  readonly newId?: (prefix: 'fo' | 'fi' | 'up') => string;
  /** How many files and folders, and how many bytes of content, it holds at most (the recycle bin counts). */
  readonly limits?: Pick<DemoLimits, 'items' | 'itemBytes'>;
}

/** Deleted items stay in the recycle bin, so deleting frees nothing in memory mode. */
const FULL_REMEDY = 'Deleted items stay in the recycle bin, so restart the gateway to start over.';

interface Version {
  readonly no: number;
  readonly bytes: Uint8Array;
  readonly md5: string;
  readonly created: string;
  readonly creatorId: string;
}

interface Node {
  readonly id: string;
  readonly type: 'Folder' | 'File';
  name: string;
  description?: string;
  expirationDate?: string;
  parentId?: string;
  readonly created: string;
  progenyEdit: string;
  readonly creatorId: string;
  deleted: boolean;
  /** Top-level shared folder (its parent is the `allshared` container). */
  shared: boolean;
  versions: Version[];
  readonly streamId: string;
}

const md5 = (bytes: Uint8Array): string => createHash('md5').update(bytes).digest('hex');
const refuse = (
  status: TransferRefusal['status'],
  code: TransferRefusal['code'],
  message: string,
  details?: Record<string, unknown>,
): TransferRefusal => ({
  status,
  code,
  message,
  ...(details ? { details } : {}),
});

const VIRTUAL: Record<string, { name: string; info: ItemInfo }> = {
  top: { name: 'Top', info: { CanView: true } },
  allshared: { name: 'Shared Folders', info: { CanView: true, CanUpload: true } },
  favorites: { name: 'Favorites', info: { CanView: true } },
  box: { name: 'File Box', info: { CanView: true } },
  connectors: { name: 'Connectors', info: { CanView: true } },
};

/**
 * One ShareFile account held in memory: a home folder, shared folders, favorites, files with version
 * history, a recycle bin, search over names and text content, and upload sessions served by the
 * gateway's own signed addresses (see adapters/inbound/http/file-transfer-routes.ts).
 */
export class InMemoryItemStore implements ItemStore, UploadDesk {
  private readonly nodes = new Map<string, Node>();
  private readonly uploads: UploadSessions;
  private readonly favorites = new Set<string>();
  private readonly clock: Clock;
  private readonly signer: LinkSigner;
  readonly user: AccountUser;
  readonly maxUploadBytes: number;
  private readonly threshold: number;
  private readonly uploadTtl: number;
  private readonly downloadTtl: number;
  private readonly newId: (prefix: 'fo' | 'fi' | 'up') => string;
  readonly homeId: string;

  private readonly limits: Pick<DemoLimits, 'items' | 'itemBytes'>;
  /** Bytes of content of every version ever stored (copies share their source's bytes). */
  private storedBytes = 0;

  constructor(options: InMemoryItemStoreOptions) {
    this.clock = options.clock;
    this.limits = options.limits ?? DEFAULT_DEMO_LIMITS;
    this.signer = options.signer;
    this.user = options.user ?? DEFAULT_USER;
    this.maxUploadBytes = options.maxUploadBytes ?? 100 * 1024 * 1024;
    this.threshold = options.threadedThresholdBytes ?? THREADED_THRESHOLD_BYTES;
    this.uploadTtl = options.uploadLinkTtlMs ?? 24 * 3600_000;
    this.downloadTtl = options.downloadLinkTtlMs ?? 3600_000;
    this.uploads = new UploadSessions({
      ttlMs: 2 * this.uploadTtl,
      maxHeldBytes: options.maxHeldUploadBytes ?? Math.max(4 * this.maxUploadBytes, 64 * 1024 * 1024),
    });
    this.newId = options.newId ?? ((prefix) => `${prefix}${randomBytes(8).toString('hex')}`);
    const home = this.insertNode({ type: 'Folder', name: 'My Files', parentId: undefined, shared: false });
    this.homeId = home.id;
  }

  // ---- internal helpers -------------------------------------------------------------------------

  private now(): string {
    return this.clock.now().toISOString();
  }

  private insertNode(n: {
    type: 'Folder' | 'File';
    name: string;
    parentId: string | undefined;
    shared: boolean;
    description?: string;
    versions?: Version[];
    created?: string;
  }): Node {
    const id = this.newId(n.type === 'Folder' ? 'fo' : 'fi');
    const at = n.created ?? this.now();
    const node: Node = {
      id,
      type: n.type,
      name: n.name.trim(),
      description: n.description,
      parentId: n.parentId,
      created: at,
      progenyEdit: at,
      creatorId: this.user.id,
      deleted: false,
      shared: n.shared,
      versions: n.versions ?? [],
      streamId: `st${id.slice(2)}`,
    };
    this.nodes.set(id, node);
    this.touch(n.parentId, at);
    return node;
  }

  private touch(id: string | undefined, at: string = this.now()): void {
    let cur = id ? this.nodes.get(id) : undefined;
    while (cur) {
      cur.progenyEdit = at;
      cur = cur.parentId ? this.nodes.get(cur.parentId) : undefined;
    }
  }

  private resolveId(id: string): string {
    return id === 'home' ? this.homeId : id;
  }

  /** Deleted itself or inside a deleted folder. */
  private isGone(node: Node): boolean {
    let cur: Node | undefined = node;
    while (cur) {
      if (cur.deleted) return true;
      cur = cur.parentId ? this.nodes.get(cur.parentId) : undefined;
    }
    return false;
  }

  private live(id: string): Either<GatewayError, Node> {
    const node = this.nodes.get(this.resolveId(id));
    if (!node || this.isGone(node)) {
      return E.left(
        notFound(
          'item',
          id,
          `No item with id "${id}" (it may be in the recycle bin). Find ids with files_listChildren or files_searchItems.`,
        ),
      );
    }
    return E.right(node);
  }

  private liveFolder(id: string, parameter: string): Either<GatewayError, Node> {
    const found = this.live(id);
    if (E.isRight(found) && found.right.type !== 'Folder') {
      return E.left(invalidInput(`"${id}" is a file, not a folder.`, parameter, 'folder id'));
    }
    return found;
  }

  private childrenOf(parentId: string | undefined, opts: { includeDeleted: boolean; sharedRoots?: boolean }): Node[] {
    const out: Node[] = [];
    for (const n of this.nodes.values()) {
      if (opts.sharedRoots ? n.parentId === undefined && n.shared : parentId !== undefined && n.parentId === parentId) {
        if (opts.includeDeleted || !n.deleted) out.push(n);
      }
    }
    return out;
  }

  private isUnder(node: Node, ancestorId: string): boolean {
    let cur: Node | undefined = node;
    while (cur) {
      if (cur.id === ancestorId) return true;
      cur = cur.parentId ? this.nodes.get(cur.parentId) : undefined;
    }
    return false;
  }

  private rootOf(node: Node): Node {
    let cur = node;
    while (cur.parentId) {
      const p = this.nodes.get(cur.parentId);
      if (!p) break;
      cur = p;
    }
    return cur;
  }

  private pathOf(node: Node): string {
    const names: string[] = [];
    let cur: Node | undefined = node;
    let top: Node = node;
    while (cur) {
      names.unshift(cur.name);
      top = cur;
      cur = cur.parentId ? this.nodes.get(cur.parentId) : undefined;
    }
    return `/root/${top.shared ? 'Shared Folders/' : ''}${names.join('/')}`;
  }

  private sizeOf(node: Node): number {
    if (node.type === 'File') return node.versions.at(-1)?.bytes.length ?? 0;
    let total = 0;
    for (const c of this.childrenOf(node.id, { includeDeleted: false })) total += this.sizeOf(c);
    return total;
  }

  private itemUrl(id: string): string {
    return `memory://files/Items(${id})`;
  }

  private project(node: Node, withChildren = false, includeDeleted = false): Item {
    const current = node.versions.at(-1);
    const isHome = node.id === this.homeId;
    const parentRef = node.parentId ? node.parentId : node.shared ? 'allshared' : 'top';
    const files =
      node.type === 'Folder'
        ? this.childrenOf(node.id, { includeDeleted: false }).filter((c) => c.type === 'File').length
        : 0;
    const info: ItemInfo =
      node.type === 'Folder'
        ? {
            ...(isHome ? { IsAHomeFolder: true, IsMyHomeFolder: true } : {}),
            ...(this.rootOf(node).shared ? { IsSharedFolder: true } : {}),
            CanUpload: true,
            CanDownload: true,
            CanView: true,
            CanDeleteCurrentItem: !isHome,
            CanManagePermissions: true,
          }
        : { CanDownload: true, CanView: true, CanDeleteCurrentItem: true };
    return {
      Id: node.id,
      type: node.type,
      Name: node.name,
      FileName: node.name,
      url: this.itemUrl(node.id),
      Parent: { Id: parentRef, url: this.itemUrl(parentRef) },
      CreationDate: node.created,
      ProgenyEditDate: node.progenyEdit,
      ...(node.description ? { Description: node.description } : {}),
      ...(node.expirationDate ? { ExpirationDate: node.expirationDate } : {}),
      Path: this.pathOf(node),
      CreatorId: node.creatorId,
      CreatorFirstName: this.user.firstName,
      CreatorLastName: this.user.lastName,
      FileSizeBytes: this.sizeOf(node),
      FileCount: files,
      State: 0,
      StreamID: node.streamId,
      Info: info,
      ...(current ? { MD5: current.md5, VersionCount: node.versions.length } : {}),
      ...(this.isGone(node) ? { IsDeleted: true } : {}),
      ...(withChildren && node.type === 'Folder'
        ? {
            Children: orderItems(
              this.childrenOf(node.id, { includeDeleted }).map((c) => this.project(c)),
              [],
            ),
          }
        : {}),
    };
  }

  private virtualItem(alias: string, withChildren: boolean): Item {
    const v = VIRTUAL[alias]!;
    const children = withChildren ? this.virtualChildren(alias, false) : undefined;
    return {
      Id: alias,
      type: 'Folder',
      Name: v.name,
      FileName: v.name,
      url: this.itemUrl(alias),
      ...(alias !== 'top' ? { Parent: { Id: 'top', url: this.itemUrl('top') } } : {}),
      CreationDate: new Date(Date.UTC(2026, 0, 1)).toISOString(),
      Path: alias === 'top' ? '/root' : `/root/${v.name}`,
      FileSizeBytes: 0,
      FileCount: 0,
      Info: v.info,
      ...(children ? { Children: children } : {}),
    };
  }

  private virtualChildren(alias: string, includeDeleted: boolean): Item[] {
    switch (alias) {
      case 'top':
        return this.topLevelItems();
      case 'allshared':
        return this.childrenOf(undefined, { includeDeleted, sharedRoots: true }).map((n) => this.project(n));
      case 'favorites':
        return [...this.favorites]
          .map((id) => this.nodes.get(id))
          .filter((n): n is Node => !!n && !this.isGone(n))
          .map((n) => this.project(n));
      default:
        return [];
    }
  }

  private topLevelItems(): Item[] {
    const home = this.project(this.nodes.get(this.homeId)!);
    return [
      { ...home, Name: 'Home', Parent: { Id: 'top', url: this.itemUrl('top') } },
      this.virtualItem('favorites', false),
      this.virtualItem('allshared', false),
      this.virtualItem('connectors', false),
    ];
  }

  /** A live, same-named item in the folder (or among the shared roots). */
  private sibling(parentId: string | undefined, shared: boolean, name: string, except?: string): Node | undefined {
    return this.childrenOf(parentId, { includeDeleted: false, sharedRoots: parentId === undefined && shared }).find(
      (n) => n.id !== except && sameName(n.name, name),
    );
  }

  /** Where an item may be placed: a live folder, or `allshared` for a top-level shared folder. */
  private destination(
    id: string,
    parameter: string,
  ): Either<GatewayError, { parentId: string | undefined; shared: boolean }> {
    if (id === 'allshared') return E.right({ parentId: undefined, shared: true });
    if (isAlias(id) && id !== 'home') {
      return E.left(
        invalidInput(
          `Items cannot be placed in "${id}". Use "home", "allshared" or a folder id.`,
          parameter,
          'folder id, "home" or "allshared"',
        ),
      );
    }
    const f = this.liveFolder(id, parameter);
    return E.isLeft(f) ? f : E.right({ parentId: f.right.id, shared: false });
  }

  private nameConflict(existing: Node, where: string): GatewayError {
    return conflict(
      `A ${existing.type === 'Folder' ? 'folder' : 'file'} named "${existing.name}" already exists in ${where} (id ${existing.id}). Pass overwrite=true to replace it, or choose another name.`,
      { existing_id: existing.id },
    );
  }

  /** How many live items a copy of `node` makes (itself and everything under it). */
  private treeSize(node: Node): number {
    let count = 0;
    const stack = [node];
    while (stack.length) {
      const n = stack.pop()!;
      count++;
      if (n.type === 'Folder') stack.push(...this.childrenOf(n.id, { includeDeleted: false }));
    }
    return count;
  }

  private cloneTree(node: Node, parentId: string | undefined, shared: boolean, name?: string): Node {
    const copy = this.insertNode({
      type: node.type,
      name: name ?? node.name,
      parentId,
      shared,
      description: node.description,
      versions: [...node.versions],
    });
    if (node.type === 'Folder')
      for (const c of this.childrenOf(node.id, { includeDeleted: false })) this.cloneTree(c, copy.id, false);
    return copy;
  }

  /** Puts bytes into a folder as a new file, or as a new version of a same-named file with overwrite. */
  addFile(
    folderId: string,
    name: string,
    bytes: Uint8Array,
    o: { overwrite: boolean; description?: string; created?: string },
  ): Either<GatewayError, { item: Item; version: number }> {
    const problem = nameProblem(name);
    if (problem) return E.left(invalidInput(`${problem} Choose another file name.`, 'file_name', 'file name'));
    const folder = this.liveFolder(folderId, 'folder_id');
    if (E.isLeft(folder)) return folder;
    const bytesRoom = roomFor(
      'bytes of file content',
      this.storedBytes,
      this.limits.itemBytes,
      bytes.byteLength,
      FULL_REMEDY,
    );
    if (E.isLeft(bytesRoom)) return bytesRoom;
    const itemRoom = roomFor('files and folders', this.nodes.size, this.limits.items, 1, FULL_REMEDY);
    if (E.isLeft(itemRoom)) return itemRoom;
    this.storedBytes += bytes.byteLength;
    const at = o.created ?? this.now();
    const version = (no: number): Version => ({ no, bytes, md5: md5(bytes), created: at, creatorId: this.user.id });
    const existing = this.sibling(folder.right.id, false, name);
    if (existing && existing.type === 'File' && o.overwrite) {
      existing.versions.push(version((existing.versions.at(-1)?.no ?? 0) + 1));
      if (o.description) existing.description = o.description;
      this.touch(existing.id, at);
      return E.right({ item: this.project(existing), version: existing.versions.length });
    }
    let finalName = name.trim();
    for (let n = 1; this.sibling(folder.right.id, false, finalName); n++) finalName = numberedName(name.trim(), n);
    const node = this.insertNode({
      type: 'File',
      name: finalName,
      parentId: folder.right.id,
      shared: false,
      description: o.description,
      versions: [version(1)],
      created: at,
    });
    return E.right({ item: this.project(node), version: 1 });
  }

  /** A folder dated `created` (demo data). */
  seedFolder(parentId: string, name: string, created: string, description?: string): Item {
    const dest = this.destination(parentId, 'parent_id');
    if (E.isLeft(dest)) throw new Error(`demo folder ${name}: ${dest.left.message}`);
    return this.project(
      this.insertNode({
        type: 'Folder',
        name,
        parentId: dest.right.parentId,
        shared: dest.right.shared,
        description,
        created,
      }),
    );
  }

  /** A live item by id or "home", or undefined. */
  currentItem(id: string): Item | undefined {
    const found = this.live(id);
    return E.isRight(found) ? this.project(found.right) : undefined;
  }

  /** Marks an item as a favorite (demo data). */
  addFavorite(id: string): void {
    this.favorites.add(id);
  }

  /** The file's current bytes, for the share pages. */
  currentBytes(id: string): { node: Item; bytes: Uint8Array } | undefined {
    const n = this.nodes.get(id);
    const v = n?.versions.at(-1);
    return n && v && !this.isGone(n) ? { node: this.project(n), bytes: v.bytes } : undefined;
  }

  /** Live files at or below an item, with their path relative to it. */
  filesWithin(id: string): { item: Item; path: string }[] {
    const n = this.nodes.get(id);
    if (!n || this.isGone(n)) return [];
    if (n.type === 'File') return [{ item: this.project(n), path: n.name }];
    const out: { item: Item; path: string }[] = [];
    const walk = (folder: Node, prefix: string) => {
      for (const c of orderItems(
        this.childrenOf(folder.id, { includeDeleted: false }).map((x) => this.project(x)),
        [],
      )) {
        const node = this.nodes.get(c.Id)!;
        if (node.type === 'File') out.push({ item: c, path: `${prefix}${c.Name}` });
        else walk(node, `${prefix}${c.Name}/`);
      }
    };
    walk(n, `${n.name}/`);
    return out;
  }

  isWithin(id: string, ancestorId: string): boolean {
    const n = this.nodes.get(id);
    return !!n && this.isUnder(n, ancestorId);
  }

  // ---- ItemStore ---------------------------------------------------------------------------------

  get(id: string, o: { includeDeleted: boolean; includeChildren: boolean }): TaskEither<GatewayError, Item> {
    if (isAlias(id) && id !== 'home') return TE.right(this.virtualItem(id, o.includeChildren));
    const node = this.nodes.get(this.resolveId(id));
    if (!node || (this.isGone(node) && !o.includeDeleted)) {
      return TE.left(
        notFound(
          'item',
          id,
          `No item with id "${id}"${node ? ' outside the recycle bin; pass include_deleted=true to see it' : ''}. Find ids with files_listChildren or files_searchItems.`,
        ),
      );
    }
    return TE.right(this.project(node, o.includeChildren, o.includeDeleted));
  }

  topLevel(): TaskEither<GatewayError, readonly Item[]> {
    return TE.right(this.topLevelItems());
  }

  children(folderId: string, q: ChildrenQuery): TaskEither<GatewayError, ItemPage> {
    let items: Item[];
    if (isAlias(folderId) && folderId !== 'home') {
      items = this.virtualChildren(folderId, q.includeDeleted);
    } else {
      const folder = this.liveFolder(folderId, 'folder_id');
      if (E.isLeft(folder)) return TE.left(folder.left);
      items = this.childrenOf(folder.right.id, { includeDeleted: q.includeDeleted }).map((n) => this.project(n));
    }
    const filter = q.filter;
    const matching = orderItems(filter ? items.filter((i) => matchesFilter(i, filter)) : items, q.orderBy);
    return TE.right({ folderId, totalCount: matching.length, items: matching.slice(q.skip, q.skip + q.top) });
  }

  createFolder(
    parentId: string,
    f: { name: string; description?: string; overwrite: boolean },
  ): TaskEither<GatewayError, Item> {
    const problem = nameProblem(f.name);
    if (problem) return TE.left(invalidInput(`${problem} Choose another folder name.`, 'name', 'folder name'));
    const dest = this.destination(parentId, 'parent_id');
    if (E.isLeft(dest)) return TE.left(dest.left);
    const existing = this.sibling(dest.right.parentId, dest.right.shared, f.name);
    if (existing && (!f.overwrite || existing.type !== 'Folder'))
      return TE.left(this.nameConflict(existing, parentId === 'allshared' ? 'Shared Folders' : 'that folder'));
    const room = roomFor('files and folders', this.nodes.size, this.limits.items, 1, FULL_REMEDY);
    if (E.isLeft(room)) return TE.left(room.left);
    if (existing) existing.deleted = true;
    const node = this.insertNode({
      type: 'Folder',
      name: f.name,
      parentId: dest.right.parentId,
      shared: dest.right.shared,
      description: f.description,
    });
    return TE.right(this.project(node));
  }

  update(id: string, changes: ItemChanges): TaskEither<GatewayError, Item> {
    if (isAlias(id))
      return TE.left(
        invalidInput(`The container "${id}" cannot be changed. Pass the id of a folder or file.`, 'item_id', 'item id'),
      );
    const found = this.live(id);
    if (E.isLeft(found)) return TE.left(found.left);
    const node = found.right;
    if (changes.name !== undefined) {
      const problem = nameProblem(changes.name);
      if (problem) return TE.left(invalidInput(`${problem} Choose another name.`, 'name', 'item name'));
      const clash = this.sibling(node.parentId, node.shared, changes.name, node.id);
      if (clash) return TE.left(this.nameConflict(clash, 'the same folder'));
    }
    if (changes.name !== undefined) node.name = changes.name.trim();
    if (changes.description !== undefined) node.description = changes.description;
    if (changes.expirationDate !== undefined) node.expirationDate = new Date(changes.expirationDate).toISOString();
    this.touch(node.id);
    return TE.right(this.project(node));
  }

  delete(id: string, o: { singleVersion: boolean; forceSync: boolean }): TaskEither<GatewayError, void> {
    if (isAlias(id) || this.resolveId(id) === this.homeId) {
      return TE.left(
        invalidInput(`"${id}" is a top-level container and cannot be deleted.`, 'item_id', 'id of a folder or file'),
      );
    }
    const found = this.live(id);
    if (E.isLeft(found)) return TE.left(found.left);
    const node = found.right;
    if (o.singleVersion) {
      if (node.type !== 'File')
        return TE.left(
          invalidInput(
            `"${node.name}" is a folder; single_version applies to files with version history.`,
            'single_version',
            'false for folders',
          ),
        );
      if (node.versions.length < 2) {
        return TE.left(
          invalidInput(
            `"${node.name}" has no version history (only one version), so there is no earlier version to fall back to. Call files_deleteItem without single_version to move it to the recycle bin.`,
            'single_version',
            'false for a file without history',
          ),
        );
      }
      node.versions.pop();
      this.touch(node.id);
      return TE.right(undefined);
    }
    node.deleted = true;
    this.favorites.delete(node.id);
    this.touch(node.parentId);
    return TE.right(undefined);
  }

  private placeable(
    id: string,
    target: string,
    overwrite: boolean,
    mode: 'copy' | 'move',
  ): Either<GatewayError, { node: Node; parentId: string | undefined; shared: boolean; replaced?: Node }> {
    if (isAlias(id) || this.resolveId(id) === this.homeId) {
      return E.left(
        invalidInput(
          `The container "${id}" cannot be ${mode === 'copy' ? 'copied' : 'moved'}.`,
          'item_id',
          'id of a folder or file',
        ),
      );
    }
    const found = this.live(id);
    if (E.isLeft(found)) return found;
    const dest = this.destination(target, 'target_folder_id');
    if (E.isLeft(dest)) return dest;
    const node = found.right;
    if (dest.right.shared && node.type !== 'Folder')
      return E.left(
        invalidInput('Only folders can be placed in "allshared" (Shared Folders).', 'target_folder_id', 'a folder id'),
      );
    const parentId = dest.right.parentId;
    if (node.type === 'Folder' && parentId) {
      const targetNode = this.nodes.get(parentId)!;
      if (this.isUnder(targetNode, node.id)) {
        return E.left(
          invalidInput(
            `A folder cannot be ${mode === 'copy' ? 'copied' : 'moved'} into itself or one of its subfolders. Choose a target outside "${node.name}".`,
            'target_folder_id',
            'a folder outside the item',
          ),
        );
      }
    }
    const clash = this.sibling(parentId, dest.right.shared, node.name, node.id);
    if (clash) {
      if (!overwrite) return E.left(this.nameConflict(clash, 'the target folder'));
      return E.right({ node, parentId, shared: dest.right.shared, replaced: clash });
    }
    return E.right({ node, parentId, shared: dest.right.shared });
  }

  copy(id: string, target: string, overwrite: boolean): TaskEither<GatewayError, TransferOutcome> {
    const p = this.placeable(id, target, overwrite, 'copy');
    if (E.isLeft(p)) return TE.left(p.left);
    const room = roomFor(
      'files and folders',
      this.nodes.size,
      this.limits.items,
      this.treeSize(p.right.node),
      FULL_REMEDY,
    );
    if (E.isLeft(room)) return TE.left(room.left);
    if (p.right.replaced) p.right.replaced.deleted = true;
    const copy = this.cloneTree(p.right.node, p.right.parentId, p.right.shared);
    return TE.right({ kind: 'done', item: this.project(copy) });
  }

  move(id: string, target: string, overwrite: boolean): TaskEither<GatewayError, TransferOutcome> {
    const p = this.placeable(id, target, overwrite, 'move');
    if (E.isLeft(p)) return TE.left(p.left);
    const { node, parentId, shared, replaced } = p.right;
    if (node.parentId === parentId && node.shared === shared)
      return TE.right({ kind: 'done', item: this.project(node) });
    if (replaced) replaced.deleted = true;
    const from = node.parentId;
    node.parentId = parentId;
    node.shared = shared;
    const at = this.now();
    this.touch(from, at);
    this.touch(node.id, at);
    return TE.right({ kind: 'done', item: this.project(node) });
  }

  search(s: ItemSearch): TaskEither<GatewayError, SearchResults> {
    let scopeRoot: ((n: Node) => boolean) | undefined;
    if (s.folderId !== undefined) {
      if (s.folderId === 'allshared') scopeRoot = (n) => this.rootOf(n).shared;
      else if (s.folderId === 'top') scopeRoot = undefined;
      else {
        const f = this.liveFolder(s.folderId, 'folder_id');
        if (E.isLeft(f)) return TE.left(f.left);
        const root = f.right.id;
        scopeRoot = (n) => n.id !== root && this.isUnder(n, root);
      }
    } else if (s.scope === 'personal') scopeRoot = (n) => n.id !== this.homeId && this.isUnder(n, this.homeId);
    else if (s.scope === 'shared') scopeRoot = (n) => this.rootOf(n).shared;
    const from = s.createdFrom ? Date.parse(s.createdFrom) : undefined;
    const to = s.createdTo ? Date.parse(s.createdTo) : undefined;
    const hits: { node: Node; score: number; matchedIn: ('name' | 'content')[] }[] = [];
    for (const node of this.nodes.values()) {
      if (node.id === this.homeId || this.isGone(node)) continue;
      if (scopeRoot && !scopeRoot(node)) continue;
      if (s.itemTypes?.length && !s.itemTypes.includes(node.type)) continue;
      if (s.creatorId && node.creatorId !== s.creatorId) continue;
      const created = Date.parse(node.created);
      if (from !== undefined && created < from) continue;
      if (to !== undefined && created > to) continue;
      const current = node.versions.at(-1);
      const content =
        !s.namesOnly && current && isTextContent(node.name, current.bytes)
          ? Buffer.from(current.bytes).toString('utf8')
          : undefined;
      const r = relevance(s.query, node.name, content);
      if (r.score > 0) hits.push({ node, ...r });
    }
    hits.sort((a, b) => b.score - a.score || a.node.name.localeCompare(b.node.name));
    const results: SearchResult[] = hits.slice(0, s.top).map((h, i) => {
      const item = this.project(h.node);
      const parent = h.node.parentId ? this.nodes.get(h.node.parentId) : undefined;
      return {
        Id: item.Id,
        Name: item.Name,
        FileName: item.FileName,
        DisplayName: item.Name,
        ItemType: h.node.type === 'File' ? 'file' : 'folder',
        Path: item.Path,
        Rank: i + 1,
        Score: h.score,
        ParentID: parent?.id ?? 'allshared',
        ParentName: parent?.name ?? 'Shared Folders',
        ParentSemanticPath: parent ? this.pathOf(parent) : '/root/Shared Folders',
        Size: item.FileSizeBytes,
        CreatorName: `${this.user.firstName} ${this.user.lastName}`,
        CreationDate: item.CreationDate,
        ...(item.MD5 ? { MD5: item.MD5 } : {}),
        VirusStatus: 0,
        CanDownload: true,
        CanView: true,
        CanDelete: true,
        MatchedIn: h.matchedIn,
      };
    });
    return TE.right({ totalCount: hits.length, partialResults: false, timedOut: false, results });
  }

  downloadLink(id: string, o: { includeAllVersions: boolean }): TaskEither<GatewayError, DownloadSpecification> {
    const found = this.live(id);
    if (E.isLeft(found)) return TE.left(found.left);
    const node = found.right;
    if (node.type !== 'File') {
      return TE.left(
        invalidInput(
          `"${node.name}" is a folder. getDownloadUrl takes a file id; list the folder with files_listChildren and download its files.`,
          'item_id',
          'file id',
        ),
      );
    }
    const version = o.includeAllVersions ? 'all' : String(node.versions.at(-1)!.no);
    const expires = new Date(this.clock.now().getTime() + this.downloadTtl);
    const url = this.signer.sign(`/files/transfer/download/${node.id}/${version}`, expires);
    return TE.right({
      DownloadToken: new URL(url).searchParams.get('sig') ?? '',
      DownloadUrl: url,
      ExpiresAt: expires.toISOString(),
      FileName: o.includeAllVersions ? `${node.name.replace(/\.[^.]+$/, '')} (all versions).zip` : node.name,
      ContentType: o.includeAllVersions ? 'application/zip' : contentTypeOf(node.name),
    });
  }

  uploadLink(folderId: string, r: UploadRequest): TaskEither<GatewayError, UploadSpecification> {
    const problem = nameProblem(r.fileName);
    if (problem) return TE.left(invalidInput(`${problem} Choose another file name.`, 'file_name', 'file name'));
    if (isAlias(folderId) && folderId !== 'home') {
      return TE.left(
        invalidInput(
          `Files cannot be uploaded to "${folderId}". Use "home" or a folder id.`,
          'folder_id',
          'folder id or "home"',
        ),
      );
    }
    const folder = this.liveFolder(folderId, 'folder_id');
    if (E.isLeft(folder)) return TE.left(folder.left);
    if (r.fileSize !== undefined && r.fileSize > this.maxUploadBytes) {
      return TE.left(
        invalidInput(
          `The file is ${r.fileSize} bytes; this gateway accepts files up to ${this.maxUploadBytes} bytes. Nothing was uploaded.`,
          'file_size',
          `at most ${this.maxUploadBytes}`,
          {
            limit_bytes: this.maxUploadBytes,
          },
        ),
      );
    }
    const now = this.clock.now().getTime();
    this.uploads.sweep((s) => s.expiresAt < now - this.uploadTtl);
    const pending = this.uploads.find((s) => s.folderId === folder.right.id && sameName(s.fileName, r.fileName));
    if (pending && (r.startOver || !r.canResume || !pending.canResume)) this.uploads.delete(pending.id);
    const resumable =
      pending &&
      !r.startOver &&
      r.canResume &&
      pending.canResume &&
      (r.fileSize === undefined || pending.fileSize === undefined || r.fileSize === pending.fileSize)
        ? pending
        : undefined;
    const method = uploadMethodFor(r.fileSize, this.threshold);
    const session: UploadSession = resumable ?? {
      id: this.newId('up'),
      folderId: folder.right.id,
      fileName: r.fileName.trim(),
      fileSize: r.fileSize,
      overwrite: r.overwrite,
      details: r.details,
      method,
      maxThreads: method === 'Threaded' ? MAX_UPLOAD_THREADS : 1,
      canResume: r.canResume,
      chunks: new Map(),
      held: 0,
      expiresAt: 0,
    };
    session.expiresAt = now + this.uploadTtl;
    this.uploads.set(session);
    const expires = new Date(session.expiresAt);
    const prefix = this.uploads.prefix(session);
    const received = resumable ? this.uploads.assemble(session, prefix.offset) : undefined;
    return TE.right({
      Method: session.method,
      ChunkUri: this.signer.sign(`/files/transfer/upload/${session.id}/chunk`, expires),
      FinishUri: this.signer.sign(`/files/transfer/upload/${session.id}/finish`, expires),
      IsResume: !!resumable && prefix.offset > 0,
      ResumeIndex: resumable ? prefix.index : 0,
      ResumeOffset: resumable ? prefix.offset : 0,
      ...(received && prefix.offset > 0 ? { ResumeFileHash: md5(received) } : {}),
      MaxNumberOfThreads: session.maxThreads,
      ExpiresAt: expires.toISOString(),
      ...(session.method === 'Threaded' ? { ChunkSizeBytes: CHUNK_SIZE_BYTES } : {}),
    });
  }

  // ---- UploadDesk (the data plane) -------------------------------------------------------------------

  session(uploadId: string): UploadSessionState | undefined {
    const s = this.uploads.get(uploadId);
    return s ? { maxThreads: s.maxThreads, limitBytes: this.limitOf(s) } : undefined;
  }

  /** The most bytes an upload may hold: its declared size, else the largest file. */
  private limitOf(s: UploadSession): number {
    return s.fileSize !== undefined ? Math.min(s.fileSize, this.maxUploadBytes) : this.maxUploadBytes;
  }

  discard(uploadId: string): void {
    this.uploads.delete(uploadId);
  }

  private openSession(uploadId: string): Either<TransferRefusal, UploadSession> {
    const s = this.uploads.get(uploadId);
    if (!s)
      return E.left(
        refuse(
          404,
          'NOT_FOUND',
          'This upload is finished, was abandoned or never existed. Ask files_getUploadUrl for a new upload address.',
        ),
      );
    const folder = this.nodes.get(s.folderId);
    if (!folder || this.isGone(folder)) {
      this.uploads.delete(uploadId);
      return E.left(
        refuse(
          404,
          'NOT_FOUND',
          'The destination folder of this upload no longer exists (it may be in the recycle bin). Nothing was stored.',
        ),
      );
    }
    return E.right(s);
  }

  private tooLarge(s: UploadSession, size: number): TransferRefusal {
    this.uploads.delete(s.id);
    const limit = this.limitOf(s);
    const which =
      limit < this.maxUploadBytes
        ? `this upload was declared as ${limit} bytes`
        : `this gateway accepts files up to ${limit} bytes`;
    return refuse(
      413,
      'PAYLOAD_TOO_LARGE',
      `The upload reached ${size} bytes; ${which}. The upload was discarded and nothing was stored.`,
      { limit_bytes: limit },
    );
  }

  receive(uploadId: string, chunk: IncomingChunk): TaskEither<TransferRefusal, ChunkOutcome> {
    const opened = this.openSession(uploadId);
    if (E.isLeft(opened)) return TE.left(opened.left);
    const s = opened.right;
    if (chunk.index === undefined && chunk.offset === undefined) {
      // Standard: the body is the whole file.
      if (this.uploads.putWhole(s, chunk.bytes, this.limitOf(s)) !== 'kept')
        return TE.left(this.tooLarge(s, chunk.bytes.length));
      return TE.fromEither<TransferRefusal, ChunkOutcome>(this.complete(s, chunk.bytes.length, chunk.fileHash));
    }
    const index = chunk.index ?? 0;
    const offset = chunk.offset;
    if (
      offset === undefined ||
      !Number.isSafeInteger(offset) ||
      offset < 0 ||
      !Number.isSafeInteger(index) ||
      index < 0
    ) {
      return TE.left(
        refuse(
          400,
          'INVALID_PARAMETER',
          'A chunk needs a whole-number "index" and "byteOffset" in the query string (for example ?index=1&byteOffset=4194304).',
          { parameter: 'byteOffset' },
        ),
      );
    }
    const end = offset + chunk.bytes.length;
    if (end > this.maxUploadBytes) return TE.left(this.tooLarge(s, end));
    if (s.fileSize !== undefined && end > s.fileSize) {
      return TE.left(
        refuse(
          400,
          'INVALID_PARAMETER',
          `This chunk ends at byte ${end}, past the declared file size of ${s.fileSize} bytes. Check byteOffset, or ask files_getUploadUrl again with the right file_size.`,
          { parameter: 'byteOffset' },
        ),
      );
    }
    const kept = this.uploads.put(s, offset, index, chunk.bytes, this.limitOf(s));
    if (kept === 'too-large') return TE.left(this.tooLarge(s, s.held + chunk.bytes.length));
    if (kept === 'too-many-chunks') {
      return TE.left(
        refuse(
          400,
          'INVALID_PARAMETER',
          `This upload already has ${s.chunks.size} chunks, the most one upload may have. Send larger chunks (about ${CHUNK_SIZE_BYTES} bytes each).`,
          { parameter: 'index' },
        ),
      );
    }
    if (chunk.finish) return TE.fromEither<TransferRefusal, ChunkOutcome>(this.complete(s, undefined, chunk.fileHash));
    return TE.right({ kind: 'received', index, offset, receivedBytes: s.held });
  }

  finish(uploadId: string, fileHash?: string): TaskEither<TransferRefusal, { item: Item; version: number }> {
    const opened = this.openSession(uploadId);
    if (E.isLeft(opened)) return TE.left(opened.left);
    const done = this.complete(opened.right, undefined, fileHash);
    return TE.fromEither(E.isLeft(done) ? done : E.right({ item: done.right.item, version: done.right.version }));
  }

  private complete(
    s: UploadSession,
    standardLength: number | undefined,
    fileHash?: string,
  ): Either<TransferRefusal, ChunkOutcome & { kind: 'completed' }> {
    const prefix = this.uploads.prefix(s);
    let last = 0;
    for (const [offset, c] of s.chunks) last = Math.max(last, offset + c.bytes.length);
    const total = standardLength ?? last;
    if (prefix.offset < total) {
      return E.left(
        refuse(
          400,
          'INVALID_PARAMETER',
          `Bytes ${prefix.offset} to ${total} have gaps: send the missing chunks (resume at index ${prefix.index}, byteOffset ${prefix.offset}) and finish again.`,
          {
            resume_index: prefix.index,
            resume_offset: prefix.offset,
          },
        ),
      );
    }
    if (s.fileSize !== undefined && s.method === 'Threaded' && total !== s.fileSize) {
      return E.left(
        refuse(
          400,
          'INVALID_PARAMETER',
          `Received ${total} of the ${s.fileSize} bytes declared. Send the remaining chunks from byteOffset ${total}, then finish again.`,
          {
            resume_index: prefix.index,
            resume_offset: total,
          },
        ),
      );
    }
    const bytes = this.uploads.assemble(s, total);
    if (fileHash && fileHash.toLowerCase() !== md5(bytes)) {
      return E.left(
        refuse(
          400,
          'INVALID_PARAMETER',
          `The file hash ${fileHash} does not match the MD5 of the bytes received (${md5(bytes)}). Resend the chunks that changed, or start over.`,
          { parameter: 'filehash' },
        ),
      );
    }
    const added = this.addFile(s.folderId, s.fileName, bytes, { overwrite: s.overwrite, description: s.details });
    if (E.isLeft(added)) return E.left(refuse(409, 'CONFLICT', added.left.message));
    this.uploads.delete(s.id);
    return E.right({ kind: 'completed', item: added.right.item, version: added.right.version });
  }

  read(itemId: string, version: number | 'all'): TaskEither<TransferRefusal, FilePayload> {
    const node = this.nodes.get(itemId);
    if (!node || this.isGone(node) || node.type !== 'File')
      return TE.left(
        refuse(
          404,
          'NOT_FOUND',
          'The file no longer exists (it may be in the recycle bin). Find it again with files_searchItems.',
        ),
      );
    if (version === 'all') {
      const stem = node.name.replace(/\.[^.]+$/, '');
      const ext = node.name.slice(stem.length);
      return TE.right({
        fileName: `${stem} (all versions).zip`,
        contentType: 'application/zip',
        zip: true,
        entries: node.versions.map((v) => ({
          name: `v${v.no} - ${stem}${ext}`,
          bytes: v.bytes,
          date: new Date(v.created),
        })),
      });
    }
    const v = node.versions.find((x) => x.no === version);
    if (!v)
      return TE.left(
        refuse(
          410,
          'GONE',
          `Version ${version} of "${node.name}" was deleted. Ask files_getDownloadUrl for a new address.`,
        ),
      );
    return TE.right({
      fileName: node.name,
      contentType: contentTypeOf(node.name),
      zip: false,
      md5: v.md5,
      entries: [{ name: node.name, bytes: v.bytes, date: new Date(v.created) }],
    });
  }
}
