import { isAlias, nameProblem, numberedName, type Item, type TransferOutcome } from '../../../../domain/files/item.js';
import { invalidInput, type GatewayError } from '../../../../domain/shared/errors.js';
import { E, TE, type Either, type TaskEither } from '../../../../domain/shared/fp.js';
import type { ItemChanges } from '../../../../ports/item-store.js';
import { md5, type ItemNode, type ItemTree, type Version } from './item-tree.js';
import type { ItemViews } from './item-views.js';

// The changes to the tree: new files and versions, folders, renames, deletes (to the recycle bin or of the
// newest version), copies and moves.

interface Placeable {
  readonly node: ItemNode;
  readonly parentId: string | undefined;
  readonly shared: boolean;
  readonly replaced?: ItemNode;
}

export class ItemEdits {
  constructor(
    private readonly tree: ItemTree,
    private readonly views: ItemViews,
  ) {}

  /** Puts bytes into a folder as a new file, or as a new version of a same-named file with overwrite. */
  addFile(
    folderId: string,
    name: string,
    bytes: Uint8Array,
    o: { overwrite: boolean; description?: string; created?: string },
  ): Either<GatewayError, { item: Item; version: number }> {
    const tree = this.tree;
    const problem = nameProblem(name);
    if (problem) return E.left(invalidInput(`${problem} Choose another file name.`, 'file_name', 'file name'));
    const folder = tree.liveFolder(folderId, 'folder_id');
    if (E.isLeft(folder)) return folder;
    const bytesRoom = tree.roomForBytes(bytes.byteLength);
    if (E.isLeft(bytesRoom)) return bytesRoom;
    const itemRoom = tree.roomForItems(1);
    if (E.isLeft(itemRoom)) return itemRoom;
    tree.storedBytes += bytes.byteLength;
    const at = o.created ?? tree.now();
    const version = (no: number): Version => ({ no, bytes, md5: md5(bytes), created: at, creatorId: tree.user.id });
    const existing = tree.sibling(folder.right.id, false, name);
    if (existing && existing.type === 'File' && o.overwrite) {
      existing.versions.push(version((existing.versions.at(-1)?.no ?? 0) + 1));
      if (o.description) existing.description = o.description;
      tree.touch(existing.id, at);
      return E.right({ item: this.views.project(existing), version: existing.versions.length });
    }
    let finalName = name.trim();
    for (let n = 1; tree.sibling(folder.right.id, false, finalName); n++) finalName = numberedName(name.trim(), n);
    const node = tree.insertNode({
      type: 'File',
      name: finalName,
      parentId: folder.right.id,
      shared: false,
      description: o.description,
      versions: [version(1)],
      created: at,
    });
    return E.right({ item: this.views.project(node), version: 1 });
  }

  /** A folder dated `created` (demo data). */
  seedFolder(parentId: string, name: string, created: string, description?: string): Item {
    const dest = this.tree.destination(parentId, 'parent_id');
    if (E.isLeft(dest)) throw new Error(`demo folder ${name}: ${dest.left.message}`);
    return this.views.project(
      this.tree.insertNode({
        type: 'Folder',
        name,
        parentId: dest.right.parentId,
        shared: dest.right.shared,
        description,
        created,
      }),
    );
  }

  createFolder(
    parentId: string,
    f: { name: string; description?: string; overwrite: boolean },
  ): TaskEither<GatewayError, Item> {
    const tree = this.tree;
    const problem = nameProblem(f.name);
    if (problem) return TE.left(invalidInput(`${problem} Choose another folder name.`, 'name', 'folder name'));
    const dest = tree.destination(parentId, 'parent_id');
    if (E.isLeft(dest)) return TE.left(dest.left);
    const existing = tree.sibling(dest.right.parentId, dest.right.shared, f.name);
    if (existing && (!f.overwrite || existing.type !== 'Folder'))
      return TE.left(tree.nameConflict(existing, parentId === 'allshared' ? 'Shared Folders' : 'that folder'));
    const room = tree.roomForItems(1);
    if (E.isLeft(room)) return TE.left(room.left);
    if (existing) existing.deleted = true;
    const node = tree.insertNode({
      type: 'Folder',
      name: f.name,
      parentId: dest.right.parentId,
      shared: dest.right.shared,
      description: f.description,
    });
    return TE.right(this.views.project(node));
  }

  update(id: string, changes: ItemChanges): TaskEither<GatewayError, Item> {
    const tree = this.tree;
    if (isAlias(id))
      return TE.left(
        invalidInput(`The container "${id}" cannot be changed. Pass the id of a folder or file.`, 'item_id', 'item id'),
      );
    const found = tree.live(id);
    if (E.isLeft(found)) return TE.left(found.left);
    const node = found.right;
    if (changes.name !== undefined) {
      const problem = nameProblem(changes.name);
      if (problem) return TE.left(invalidInput(`${problem} Choose another name.`, 'name', 'item name'));
      const clash = tree.sibling(node.parentId, node.shared, changes.name, node.id);
      if (clash) return TE.left(tree.nameConflict(clash, 'the same folder'));
    }
    if (changes.name !== undefined) node.name = changes.name.trim();
    if (changes.description !== undefined) node.description = changes.description;
    if (changes.expirationDate !== undefined) node.expirationDate = new Date(changes.expirationDate).toISOString();
    tree.touch(node.id);
    return TE.right(this.views.project(node));
  }

  delete(id: string, o: { singleVersion: boolean; forceSync: boolean }): TaskEither<GatewayError, void> {
    const tree = this.tree;
    if (isAlias(id) || tree.resolveId(id) === tree.homeId) {
      return TE.left(
        invalidInput(`"${id}" is a top-level container and cannot be deleted.`, 'item_id', 'id of a folder or file'),
      );
    }
    const found = tree.live(id);
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
      tree.touch(node.id);
      return TE.right(undefined);
    }
    node.deleted = true;
    tree.favorites.delete(node.id);
    tree.touch(node.parentId);
    return TE.right(undefined);
  }

  copy(id: string, target: string, overwrite: boolean): TaskEither<GatewayError, TransferOutcome> {
    const p = this.placeable(id, target, overwrite, 'copy');
    if (E.isLeft(p)) return TE.left(p.left);
    const room = this.tree.roomForItems(this.tree.treeSize(p.right.node));
    if (E.isLeft(room)) return TE.left(room.left);
    if (p.right.replaced) p.right.replaced.deleted = true;
    const copy = this.tree.cloneTree(p.right.node, p.right.parentId, p.right.shared);
    return TE.right({ kind: 'done', item: this.views.project(copy) });
  }

  move(id: string, target: string, overwrite: boolean): TaskEither<GatewayError, TransferOutcome> {
    const p = this.placeable(id, target, overwrite, 'move');
    if (E.isLeft(p)) return TE.left(p.left);
    const { node, parentId, shared, replaced } = p.right;
    if (node.parentId === parentId && node.shared === shared)
      return TE.right({ kind: 'done', item: this.views.project(node) });
    if (replaced) replaced.deleted = true;
    const from = node.parentId;
    node.parentId = parentId;
    node.shared = shared;
    const at = this.tree.now();
    this.tree.touch(from, at);
    this.tree.touch(node.id, at);
    return TE.right({ kind: 'done', item: this.views.project(node) });
  }

  private placeable(
    id: string,
    target: string,
    overwrite: boolean,
    mode: 'copy' | 'move',
  ): Either<GatewayError, Placeable> {
    const tree = this.tree;
    if (isAlias(id) || tree.resolveId(id) === tree.homeId) {
      return E.left(
        invalidInput(
          `The container "${id}" cannot be ${mode === 'copy' ? 'copied' : 'moved'}.`,
          'item_id',
          'id of a folder or file',
        ),
      );
    }
    const found = tree.live(id);
    if (E.isLeft(found)) return found;
    const dest = tree.destination(target, 'target_folder_id');
    if (E.isLeft(dest)) return dest;
    const node = found.right;
    if (dest.right.shared && node.type !== 'Folder')
      return E.left(
        invalidInput('Only folders can be placed in "allshared" (Shared Folders).', 'target_folder_id', 'a folder id'),
      );
    const parentId = dest.right.parentId;
    if (node.type === 'Folder' && parentId) {
      const targetNode = tree.nodes.get(parentId)!;
      if (tree.isUnder(targetNode, node.id)) {
        return E.left(
          invalidInput(
            `A folder cannot be ${mode === 'copy' ? 'copied' : 'moved'} into itself or one of its subfolders. Choose a target outside "${node.name}".`,
            'target_folder_id',
            'a folder outside the item',
          ),
        );
      }
    }
    const clash = tree.sibling(parentId, dest.right.shared, node.name, node.id);
    if (clash) {
      if (!overwrite) return E.left(tree.nameConflict(clash, 'the target folder'));
      return E.right({ node, parentId, shared: dest.right.shared, replaced: clash });
    }
    return E.right({ node, parentId, shared: dest.right.shared });
  }
}
