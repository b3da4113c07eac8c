import { randomBytes } from 'node:crypto';
import { isAlias, type Item, type ItemPage, type TransferOutcome } from '../../../domain/files/item.js';
import { matchesFilter, orderItems } from '../../../domain/files/query.js';
import type { ItemSearch, SearchResults } from '../../../domain/files/search.js';
import {
  THREADED_THRESHOLD_BYTES,
  type DownloadSpecification,
  type UploadRequest,
  type UploadSpecification,
} from '../../../domain/files/transfer.js';
import { notFound, type GatewayError } from '../../../domain/shared/errors.js';
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
import { DEFAULT_DEMO_LIMITS, type DemoLimits } from './demo-limits.js';
import { searchItems } from './files/in-memory-item-search.js';
import { InMemoryUploadDesk } from './files/in-memory-upload-desk.js';
import { ItemDownloads } from './files/item-downloads.js';
import { ItemEdits } from './files/item-edits.js';
import { DEFAULT_USER, ItemTree, type AccountUser, type ItemNode } from './files/item-tree.js';
import { ItemViews } from './files/item-views.js';

export { DEFAULT_USER, type AccountUser } from './files/item-tree.js';

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

/**
 * One ShareFile account held in memory: a home folder, shared folders, favorites, files with version
 * history, a recycle bin, search over names and text content, and upload sessions served by the
 * gateway's own signed addresses (see adapters/inbound/http/file-transfer-routes.ts). The tree, its views,
 * the edits, the search, the downloads and the upload desk each live in files/; this class is both ports
 * over one tree.
 */
export class InMemoryItemStore implements ItemStore, UploadDesk {
  readonly user: AccountUser;
  readonly maxUploadBytes: number;
  readonly homeId: string;
  private readonly tree: ItemTree;
  private readonly views: ItemViews;
  private readonly edits: ItemEdits;
  private readonly downloads: ItemDownloads;
  private readonly uploads: InMemoryUploadDesk;

  constructor(options: InMemoryItemStoreOptions) {
    this.user = options.user ?? DEFAULT_USER;
    this.maxUploadBytes = options.maxUploadBytes ?? 100 * 1024 * 1024;
    const uploadLinkTtlMs = options.uploadLinkTtlMs ?? 24 * 3600_000;
    const newId = options.newId ?? ((prefix) => `${prefix}${randomBytes(8).toString('hex')}`);
    this.tree = new ItemTree(this.user, options.clock, newId, options.limits ?? DEFAULT_DEMO_LIMITS);
    this.homeId = this.tree.homeId;
    this.views = new ItemViews(this.tree);
    this.edits = new ItemEdits(this.tree, this.views);
    this.downloads = new ItemDownloads(this.tree, {
      clock: options.clock,
      signer: options.signer,
      downloadLinkTtlMs: options.downloadLinkTtlMs ?? 3600_000,
    });
    this.uploads = new InMemoryUploadDesk(this.tree, this.edits, {
      clock: options.clock,
      signer: options.signer,
      newId,
      maxUploadBytes: this.maxUploadBytes,
      threadedThresholdBytes: options.threadedThresholdBytes ?? THREADED_THRESHOLD_BYTES,
      uploadLinkTtlMs,
      maxHeldUploadBytes: options.maxHeldUploadBytes ?? Math.max(4 * this.maxUploadBytes, 64 * 1024 * 1024),
    });
  }

  // ---- for demo data and the share store ----------------------------------------------------------

  /** Puts bytes into a folder as a new file, or as a new version of a same-named file with overwrite. */
  addFile(
    folderId: string,
    name: string,
    bytes: Uint8Array,
    o: { overwrite: boolean; description?: string; created?: string },
  ): Either<GatewayError, { item: Item; version: number }> {
    return this.edits.addFile(folderId, name, bytes, o);
  }

  /** A folder dated `created` (demo data). */
  seedFolder(parentId: string, name: string, created: string, description?: string): Item {
    return this.edits.seedFolder(parentId, name, created, description);
  }

  /** A live item by id or "home", or undefined. */
  currentItem(id: string): Item | undefined {
    const found = this.tree.live(id);
    return E.isRight(found) ? this.views.project(found.right) : undefined;
  }

  /** Marks an item as a favorite (demo data). */
  addFavorite(id: string): void {
    this.tree.favorites.add(id);
  }

  /** The file's current bytes, for the share pages. */
  currentBytes(id: string): { node: Item; bytes: Uint8Array } | undefined {
    const n = this.tree.nodes.get(id);
    const v = n?.versions.at(-1);
    return n && v && !this.tree.isGone(n) ? { node: this.views.project(n), bytes: v.bytes } : undefined;
  }

  /** Live files at or below an item, with their path relative to it. */
  filesWithin(id: string): { item: Item; path: string }[] {
    const tree = this.tree;
    const n = tree.nodes.get(id);
    if (!n || tree.isGone(n)) return [];
    if (n.type === 'File') return [{ item: this.views.project(n), path: n.name }];
    const out: { item: Item; path: string }[] = [];
    const walk = (folder: ItemNode, prefix: string) => {
      for (const c of orderItems(
        tree.childrenOf(folder.id, { includeDeleted: false }).map((x) => this.views.project(x)),
        [],
      )) {
        const node = tree.nodes.get(c.Id)!;
        if (node.type === 'File') out.push({ item: c, path: `${prefix}${c.Name}` });
        else walk(node, `${prefix}${c.Name}/`);
      }
    };
    walk(n, `${n.name}/`);
    return out;
  }

  isWithin(id: string, ancestorId: string): boolean {
    const n = this.tree.nodes.get(id);
    return !!n && this.tree.isUnder(n, ancestorId);
  }

  // ---- ItemStore ---------------------------------------------------------------------------------

  get(id: string, o: { includeDeleted: boolean; includeChildren: boolean }): TaskEither<GatewayError, Item> {
    if (isAlias(id) && id !== 'home') return TE.right(this.views.virtualItem(id, o.includeChildren));
    const node = this.tree.nodes.get(this.tree.resolveId(id));
    if (!node || (this.tree.isGone(node) && !o.includeDeleted)) {
      return TE.left(
        notFound(
          'item',
          id,
          `No item with id "${id}"${node ? ' outside the recycle bin; pass include_deleted=true to see it' : ''}. Find ids with files_listChildren or files_searchItems.`,
        ),
      );
    }
    return TE.right(this.views.project(node, o.includeChildren, o.includeDeleted));
  }

  topLevel(): TaskEither<GatewayError, readonly Item[]> {
    return TE.right(this.views.topLevelItems());
  }

  children(folderId: string, q: ChildrenQuery): TaskEither<GatewayError, ItemPage> {
    let items: Item[];
    if (isAlias(folderId) && folderId !== 'home') {
      items = this.views.virtualChildren(folderId, q.includeDeleted);
    } else {
      const folder = this.tree.liveFolder(folderId, 'folder_id');
      if (E.isLeft(folder)) return TE.left(folder.left);
      items = this.tree
        .childrenOf(folder.right.id, { includeDeleted: q.includeDeleted })
        .map((n) => this.views.project(n));
    }
    const filter = q.filter;
    const matching = orderItems(filter ? items.filter((i) => matchesFilter(i, filter)) : items, q.orderBy);
    return TE.right({ folderId, totalCount: matching.length, items: matching.slice(q.skip, q.skip + q.top) });
  }

  createFolder(
    parentId: string,
    f: { name: string; description?: string; overwrite: boolean },
  ): TaskEither<GatewayError, Item> {
    return this.edits.createFolder(parentId, f);
  }

  update(id: string, changes: ItemChanges): TaskEither<GatewayError, Item> {
    return this.edits.update(id, changes);
  }

  delete(id: string, o: { singleVersion: boolean; forceSync: boolean }): TaskEither<GatewayError, void> {
    return this.edits.delete(id, o);
  }

  copy(id: string, target: string, overwrite: boolean): TaskEither<GatewayError, TransferOutcome> {
    return this.edits.copy(id, target, overwrite);
  }

  move(id: string, target: string, overwrite: boolean): TaskEither<GatewayError, TransferOutcome> {
    return this.edits.move(id, target, overwrite);
  }

  search(s: ItemSearch): TaskEither<GatewayError, SearchResults> {
    return searchItems(this.tree, this.views, s);
  }

  downloadLink(id: string, o: { includeAllVersions: boolean }): TaskEither<GatewayError, DownloadSpecification> {
    return this.downloads.link(id, o);
  }

  uploadLink(folderId: string, r: UploadRequest): TaskEither<GatewayError, UploadSpecification> {
    return this.uploads.uploadLink(folderId, r);
  }

  // ---- UploadDesk (the data plane) -------------------------------------------------------------------

  session(uploadId: string): UploadSessionState | undefined {
    return this.uploads.session(uploadId);
  }

  discard(uploadId: string): void {
    this.uploads.discard(uploadId);
  }

  receive(uploadId: string, chunk: IncomingChunk): TaskEither<TransferRefusal, ChunkOutcome> {
    return this.uploads.receive(uploadId, chunk);
  }

  finish(uploadId: string, fileHash?: string): TaskEither<TransferRefusal, { item: Item; version: number }> {
    return this.uploads.finish(uploadId, fileHash);
  }

  read(itemId: string, version: number | 'all'): TaskEither<TransferRefusal, FilePayload> {
    return this.downloads.read(itemId, version);
  }
}
