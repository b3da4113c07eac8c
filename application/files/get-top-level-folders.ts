import { inject, injectable } from 'inversify';
import type { Item } from '../../domain/files/item.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { ItemStore } from '../../ports/item-store.js';
import { params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, joinBlocks, nextSteps } from '../runtime/markdown.js';
import { flag, itemJson, TYPE_PREFIX } from './files-text.js';
import { TopLevelFoldersResult } from './file-results.js';

export const GetTopLevelFoldersParams = params({}, { summary_only: flag('Only Id, Name and type.', false) });
export type GetTopLevelFoldersParams = t.TypeOf<typeof GetTopLevelFoldersParams>;

export interface TopLevelFoldersResult {
  readonly description: string;
  readonly folders: readonly Item[];
}

const DESCRIPTION =
  'The top-level containers: Home (your personal folders), Favorites, Shared Folders (id allshared) and Connectors.';

@injectable()
export class GetTopLevelFolders implements UseCase<GetTopLevelFoldersParams, TopLevelFoldersResult> {
  constructor(@inject(ItemStore) private readonly items: ItemStore) {}
  execute(): TaskEither<GatewayError, TopLevelFoldersResult> {
    return pipe(
      this.items.topLevel(),
      TE.map((folders) => ({ description: DESCRIPTION, folders })),
    );
  }
}

export const getTopLevelFoldersTool = defineTool({
  group: 'files',
  name: 'getTopLevelFolders',
  title: 'Get top-level folders',
  description:
    'The top-level containers with their ids (Home, Favorites, Shared Folders, Connectors): where to start browsing with files_listChildren.',
  annotations: { kind: 'Read', idempotent: true },
  params: GetTopLevelFoldersParams,
  useCase: GetTopLevelFolders,
  result: TopLevelFoldersResult,
  json: (r, p) => ({
    description: r.description,
    count: r.folders.length,
    folders: r.folders.map((f) =>
      p.summary_only ? { Id: f.Id, Name: f.Name, 'odata.type': TYPE_PREFIX + f.type } : itemJson(f),
    ),
  }),
  text: (r) => ({
    before: joinBlocks(`## Top-level folders (${r.folders.length})`, r.description),
    columns: ['id', 'name', 'files inside'],
    rows: r.folders.map((f) => [f.Id, f.Name, f.FileCount]),
    after: nextSteps([
      `Browse one: ${call('files_listChildren', { folder_id: 'home' })}`,
      `Search everything: ${call('files_searchItems', { query: '<words>' })}`,
    ]),
  }),
});
