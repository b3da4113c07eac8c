import { isTextContent } from '../../../../domain/files/item.js';
import { relevance, type ItemSearch, type SearchResult, type SearchResults } from '../../../../domain/files/search.js';
import type { GatewayError } from '../../../../domain/shared/errors.js';
import { E, TE, type Either, type TaskEither } from '../../../../domain/shared/fp.js';
import type { ItemNode, ItemTree } from './item-tree.js';
import type { ItemViews } from './item-views.js';

// Search over the live items of the tree: by name, and by content for text files, within a folder or a scope,
// ranked by the domain's relevance.

/** Which nodes the search may return, or undefined for all; a Left when the folder is not a live folder. */
const scopeOf = (tree: ItemTree, s: ItemSearch): Either<GatewayError, ((n: ItemNode) => boolean) | undefined> => {
  if (s.folderId !== undefined) {
    if (s.folderId === 'allshared') return E.right((n) => tree.rootOf(n).shared);
    if (s.folderId === 'top') return E.right(undefined);
    const f = tree.liveFolder(s.folderId, 'folder_id');
    if (E.isLeft(f)) return f;
    const root = f.right.id;
    return E.right((n) => n.id !== root && tree.isUnder(n, root));
  }
  if (s.scope === 'personal') return E.right((n) => n.id !== tree.homeId && tree.isUnder(n, tree.homeId));
  if (s.scope === 'shared') return E.right((n) => tree.rootOf(n).shared);
  return E.right(undefined);
};

export const searchItems = (
  tree: ItemTree,
  views: ItemViews,
  s: ItemSearch,
): TaskEither<GatewayError, SearchResults> => {
  const scope = scopeOf(tree, s);
  if (E.isLeft(scope)) return TE.left(scope.left);
  const scopeRoot = scope.right;
  const from = s.createdFrom ? Date.parse(s.createdFrom) : undefined;
  const to = s.createdTo ? Date.parse(s.createdTo) : undefined;
  const hits: { node: ItemNode; score: number; matchedIn: ('name' | 'content')[] }[] = [];
  for (const node of tree.nodes.values()) {
    if (node.id === tree.homeId || tree.isGone(node)) continue;
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
    const item = views.project(h.node);
    const parent = h.node.parentId ? tree.nodes.get(h.node.parentId) : undefined;
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
      ParentSemanticPath: parent ? tree.pathOf(parent) : '/root/Shared Folders',
      Size: item.FileSizeBytes,
      CreatorName: `${tree.user.firstName} ${tree.user.lastName}`,
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
};
