import type { Item, ItemInfo } from '../../../../domain/files/item.js';
import { orderItems } from '../../../../domain/files/query.js';
import type { ItemNode, ItemTree } from './item-tree.js';

// Items as ShareFile shows them: a node of the tree with its path, size, creator and rights, and the virtual
// containers at the top (Top, Shared Folders, Favorites, File Box, Connectors).

const VIRTUAL: Record<string, { name: string; info: ItemInfo }> = {
  top: { name: 'Top', info: { CanView: true } },
  allshared: { name: 'Shared Folders', info: { CanView: true, CanUpload: true } },
  favorites: { name: 'Favorites', info: { CanView: true } },
  box: { name: 'File Box', info: { CanView: true } },
  connectors: { name: 'Connectors', info: { CanView: true } },
};

const itemUrl = (id: string): string => `memory://files/Items(${id})`;

export class ItemViews {
  constructor(private readonly tree: ItemTree) {}

  project(node: ItemNode, withChildren = false, includeDeleted = false): Item {
    const tree = this.tree;
    const current = node.versions.at(-1);
    const isHome = node.id === tree.homeId;
    const parentRef = node.parentId ? node.parentId : node.shared ? 'allshared' : 'top';
    const files =
      node.type === 'Folder'
        ? tree.childrenOf(node.id, { includeDeleted: false }).filter((c) => c.type === 'File').length
        : 0;
    const info: ItemInfo =
      node.type === 'Folder'
        ? {
            ...(isHome ? { IsAHomeFolder: true, IsMyHomeFolder: true } : {}),
            ...(tree.rootOf(node).shared ? { IsSharedFolder: true } : {}),
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
      url: itemUrl(node.id),
      Parent: { Id: parentRef, url: itemUrl(parentRef) },
      CreationDate: node.created,
      ProgenyEditDate: node.progenyEdit,
      ...(node.description ? { Description: node.description } : {}),
      ...(node.expirationDate ? { ExpirationDate: node.expirationDate } : {}),
      Path: tree.pathOf(node),
      CreatorId: node.creatorId,
      CreatorFirstName: tree.user.firstName,
      CreatorLastName: tree.user.lastName,
      FileSizeBytes: tree.sizeOf(node),
      FileCount: files,
      State: 0,
      StreamID: node.streamId,
      Info: info,
      ...(current ? { MD5: current.md5, VersionCount: node.versions.length } : {}),
      ...(tree.isGone(node) ? { IsDeleted: true } : {}),
      ...(withChildren && node.type === 'Folder'
        ? {
            Children: orderItems(
              tree.childrenOf(node.id, { includeDeleted }).map((c) => this.project(c)),
              [],
            ),
          }
        : {}),
    };
  }

  virtualItem(alias: string, withChildren: boolean): Item {
    const v = VIRTUAL[alias]!;
    const children = withChildren ? this.virtualChildren(alias, false) : undefined;
    return {
      Id: alias,
      type: 'Folder',
      Name: v.name,
      FileName: v.name,
      url: itemUrl(alias),
      ...(alias !== 'top' ? { Parent: { Id: 'top', url: itemUrl('top') } } : {}),
      CreationDate: new Date(Date.UTC(2026, 0, 1)).toISOString(),
      Path: alias === 'top' ? '/root' : `/root/${v.name}`,
      FileSizeBytes: 0,
      FileCount: 0,
      Info: v.info,
      ...(children ? { Children: children } : {}),
    };
  }

  virtualChildren(alias: string, includeDeleted: boolean): Item[] {
    const tree = this.tree;
    switch (alias) {
      case 'top':
        return this.topLevelItems();
      case 'allshared':
        return tree.childrenOf(undefined, { includeDeleted, sharedRoots: true }).map((n) => this.project(n));
      case 'favorites':
        return [...tree.favorites]
          .map((id) => tree.nodes.get(id))
          .filter((n): n is ItemNode => !!n && !tree.isGone(n))
          .map((n) => this.project(n));
      default:
        return [];
    }
  }

  topLevelItems(): Item[] {
    const home = this.project(this.tree.nodes.get(this.tree.homeId)!);
    return [
      { ...home, Name: 'Home', Parent: { Id: 'top', url: itemUrl('top') } },
      this.virtualItem('favorites', false),
      this.virtualItem('allshared', false),
      this.virtualItem('connectors', false),
    ];
  }
}
