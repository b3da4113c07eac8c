import { createHash } from 'node:crypto';
import { isAlias, sameName } from '../../../../domain/files/item.js';
import { conflict, invalidInput, notFound, type GatewayError } from '../../../../domain/shared/errors.js';
import { E, type Either } from '../../../../domain/shared/fp.js';
import type { Clock } from '../../../../ports/clock.js';
import { roomFor, type DemoLimits } from '../demo-limits.js';

// The files and folders of one in-memory ShareFile account: nodes with their versions, and the walks over
// the tree that the store, the search and the upload desk share.

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

export const md5 = (bytes: Uint8Array): string => createHash('md5').update(bytes).digest('hex');

export type NewId = (prefix: 'fo' | 'fi' | 'up') => string;

/** Deleted items stay in the recycle bin, so deleting frees nothing in memory mode. */
const FULL_REMEDY = 'Deleted items stay in the recycle bin, so restart the gateway to start over.';

export interface Version {
  readonly no: number;
  readonly bytes: Uint8Array;
  readonly md5: string;
  readonly created: string;
  readonly creatorId: string;
}

export interface ItemNode {
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

/** Where an item goes: a folder, or (no parent, shared) the top of Shared Folders. */
export interface Placement {
  readonly parentId: string | undefined;
  readonly shared: boolean;
}

export class ItemTree {
  readonly nodes = new Map<string, ItemNode>();
  readonly favorites = new Set<string>();
  readonly homeId: string;
  /** Bytes of content of every version ever stored (copies share their source's bytes). */
  storedBytes = 0;

  constructor(
    readonly user: AccountUser,
    private readonly clock: Clock,
    private readonly newId: NewId,
    private readonly limits: Pick<DemoLimits, 'items' | 'itemBytes'>,
  ) {
    this.homeId = this.insertNode({ type: 'Folder', name: 'My Files', parentId: undefined, shared: false }).id;
  }

  now(): string {
    return this.clock.now().toISOString();
  }

  /** Right when `count` more files and folders fit. */
  roomForItems(count: number): Either<GatewayError, void> {
    return roomFor('files and folders', this.nodes.size, this.limits.items, count, FULL_REMEDY);
  }

  /** Right when `bytes` more bytes of content fit. */
  roomForBytes(bytes: number): Either<GatewayError, void> {
    return roomFor('bytes of file content', this.storedBytes, this.limits.itemBytes, bytes, FULL_REMEDY);
  }

  insertNode(n: {
    type: 'Folder' | 'File';
    name: string;
    parentId: string | undefined;
    shared: boolean;
    description?: string;
    versions?: Version[];
    created?: string;
  }): ItemNode {
    const id = this.newId(n.type === 'Folder' ? 'fo' : 'fi');
    const at = n.created ?? this.now();
    const node: ItemNode = {
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

  /** Dates the item and every folder above it as edited at `at`. */
  touch(id: string | undefined, at: string = this.now()): void {
    let cur = id ? this.nodes.get(id) : undefined;
    while (cur) {
      cur.progenyEdit = at;
      cur = cur.parentId ? this.nodes.get(cur.parentId) : undefined;
    }
  }

  resolveId(id: string): string {
    return id === 'home' ? this.homeId : id;
  }

  /** Deleted itself or inside a deleted folder. */
  isGone(node: ItemNode): boolean {
    let cur: ItemNode | undefined = node;
    while (cur) {
      if (cur.deleted) return true;
      cur = cur.parentId ? this.nodes.get(cur.parentId) : undefined;
    }
    return false;
  }

  live(id: string): Either<GatewayError, ItemNode> {
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

  liveFolder(id: string, parameter: string): Either<GatewayError, ItemNode> {
    const found = this.live(id);
    if (E.isRight(found) && found.right.type !== 'Folder') {
      return E.left(invalidInput(`"${id}" is a file, not a folder.`, parameter, 'folder id'));
    }
    return found;
  }

  childrenOf(parentId: string | undefined, opts: { includeDeleted: boolean; sharedRoots?: boolean }): ItemNode[] {
    const out: ItemNode[] = [];
    for (const n of this.nodes.values()) {
      if (opts.sharedRoots ? n.parentId === undefined && n.shared : parentId !== undefined && n.parentId === parentId) {
        if (opts.includeDeleted || !n.deleted) out.push(n);
      }
    }
    return out;
  }

  isUnder(node: ItemNode, ancestorId: string): boolean {
    let cur: ItemNode | undefined = node;
    while (cur) {
      if (cur.id === ancestorId) return true;
      cur = cur.parentId ? this.nodes.get(cur.parentId) : undefined;
    }
    return false;
  }

  rootOf(node: ItemNode): ItemNode {
    let cur = node;
    while (cur.parentId) {
      const p = this.nodes.get(cur.parentId);
      if (!p) break;
      cur = p;
    }
    return cur;
  }

  pathOf(node: ItemNode): string {
    const names: string[] = [];
    let cur: ItemNode | undefined = node;
    let top: ItemNode = node;
    while (cur) {
      names.unshift(cur.name);
      top = cur;
      cur = cur.parentId ? this.nodes.get(cur.parentId) : undefined;
    }
    return `/root/${top.shared ? 'Shared Folders/' : ''}${names.join('/')}`;
  }

  sizeOf(node: ItemNode): number {
    if (node.type === 'File') return node.versions.at(-1)?.bytes.length ?? 0;
    let total = 0;
    for (const c of this.childrenOf(node.id, { includeDeleted: false })) total += this.sizeOf(c);
    return total;
  }

  /** A live, same-named item in the folder (or among the shared roots). */
  sibling(parentId: string | undefined, shared: boolean, name: string, except?: string): ItemNode | undefined {
    return this.childrenOf(parentId, { includeDeleted: false, sharedRoots: parentId === undefined && shared }).find(
      (n) => n.id !== except && sameName(n.name, name),
    );
  }

  /** Where an item may be placed: a live folder, or `allshared` for a top-level shared folder. */
  destination(id: string, parameter: string): Either<GatewayError, Placement> {
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

  nameConflict(existing: ItemNode, where: string): GatewayError {
    return conflict(
      `A ${existing.type === 'Folder' ? 'folder' : 'file'} named "${existing.name}" already exists in ${where} (id ${existing.id}). Pass overwrite=true to replace it, or choose another name.`,
      { existing_id: existing.id },
    );
  }

  /** How many live items a copy of `node` makes (itself and everything under it). */
  treeSize(node: ItemNode): number {
    let count = 0;
    const stack = [node];
    while (stack.length) {
      const n = stack.pop()!;
      count++;
      if (n.type === 'Folder') stack.push(...this.childrenOf(n.id, { includeDeleted: false }));
    }
    return count;
  }

  cloneTree(node: ItemNode, parentId: string | undefined, shared: boolean, name?: string): ItemNode {
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
}
