import { inject, injectable } from 'inversify';
import type { Item } from '../../domain/files/item.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import type { TaskEither } from '../../domain/shared/fp.js';
import { ItemStore } from '../../ports/item-store.js';
import { params, t } from '../runtime/codecs.js';
import { WRITE_MAX_BYTES } from './write-file.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { flag, ItemIdParam, itemJson, itemPresentation, itemSummaryJson } from './files-text.js';
import { ItemResult } from './file-results.js';

export const GetItemParams = params(
  { item_id: ItemIdParam('Item id or alias.') },
  {
    include_children: flag('Also list the items inside a folder.', false),
    include_deleted: flag('Also find it in the recycle bin.', false),
    summary_only: flag('Only the main fields.', false),
  },
);
export type GetItemParams = t.TypeOf<typeof GetItemParams>;

@injectable()
export class GetItem implements UseCase<GetItemParams, Item> {
  constructor(@inject(ItemStore) private readonly items: ItemStore) {}
  execute(p: GetItemParams): TaskEither<GatewayError, Item> {
    return this.items.get(p.item_id.trim(), {
      includeDeleted: p.include_deleted,
      includeChildren: p.include_children,
    });
  }
}

export const getItemTool = defineTool({
  group: 'files',
  name: 'getItem',
  title: 'Get file or folder',
  description:
    'Reads one file or folder by id or alias (home, allshared, favorites, top, box, connectors): name, path, parent, size, file count, dates, MD5.',
  annotations: { kind: 'Read', idempotent: true },
  params: GetItemParams,
  useCase: GetItem,
  result: ItemResult,
  // A folder's contents are cut to the budget like any list; files_listChildren pages through the rest
  // in the same order (the folder's default order, here and at the vendor).
  rows: { key: 'Children' },
  continuesWith: 'files_listChildren',
  continuation: (p, i, shown) =>
    i.Children && shown < i.Children.length
      ? {
          folder_id: i.Id,
          skip: shown,
          ...(p.include_deleted ? { include_deleted: true } : {}),
          ...(p.summary_only ? { summary_only: true } : {}),
        }
      : undefined,
  json: (i, p) =>
    p.summary_only
      ? { ...itemSummaryJson(i, true), ...(i.Children ? { Children: i.Children.map((c) => itemSummaryJson(c)) } : {}) }
      : itemJson(i),
  text: (i, p) =>
    itemPresentation(
      p.summary_only ? { ...i, Description: undefined, Info: undefined } : i,
      nextSteps(
        i.type === 'Folder'
          ? [
              `List the contents page by page: ${call('files_listChildren', { folder_id: i.Id })}`,
              `Write a file into it: ${call('files_writeFile', { folder_id: i.Id, file_name: '<name>', content: '<text>' })}`,
              `Upload a larger file (over ${WRITE_MAX_BYTES / 1024 / 1024} MiB): ${call('files_getUploadUrl', { folder_id: i.Id, file_name: '<name>' })}`,
            ]
          : [`Download it: ${call('files_getDownloadUrl', { item_id: i.Id })}`],
      ),
    ),
});
