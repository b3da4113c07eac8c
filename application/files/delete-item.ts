import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { ItemStore } from '../../ports/item-store.js';
import { params, t } from '../runtime/codecs.js';
import type { Preview } from '../runtime/confirm.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { flag, ItemIdParam, size } from './files-text.js';
import { DeletedItemResult } from './file-results.js';

export const DeleteItemParams = params(
  { item_id: ItemIdParam('Id of the file or folder.') },
  {
    single_version: flag(
      'Delete only the current version of a file that has version history; the previous version becomes current.',
      false,
    ),
    force_sync: flag('Wait until the deletion is complete.', false),
  },
);
export type DeleteItemParams = t.TypeOf<typeof DeleteItemParams>;

export interface DeleteItemResult {
  readonly message: string;
  readonly single_version: boolean;
}

@injectable()
export class DeleteItem implements UseCase<DeleteItemParams, DeleteItemResult> {
  constructor(@inject(ItemStore) private readonly items: ItemStore) {}
  preview(p: DeleteItemParams): TaskEither<GatewayError, Preview> {
    const id = p.item_id.trim();
    return pipe(
      this.items.get(id, { includeDeleted: false, includeChildren: false }),
      TE.map((i) => {
        const what =
          i.type === 'Folder'
            ? `the folder "${i.Name}" (id ${i.Id}) with its ${i.FileCount} file(s), ${size(i.FileSizeBytes)} in all,`
            : `the file "${i.Name}" (id ${i.Id}, ${size(i.FileSizeBytes)})`;
        return {
          summary: p.single_version
            ? `delete the current version of the file "${i.Name}" (id ${i.Id}); the previous version becomes current`
            : `move ${what} to the recycle bin`,
          facts: {
            item_id: i.Id,
            name: i.Name,
            type: i.type,
            file_count: i.FileCount,
            size_bytes: i.FileSizeBytes,
            path: i.Path,
            single_version: p.single_version,
          },
        };
      }),
    );
  }

  execute(p: DeleteItemParams): TaskEither<GatewayError, DeleteItemResult> {
    const single = p.single_version;
    const id = p.item_id.trim();
    return pipe(
      this.items.delete(id, { singleVersion: single, forceSync: p.force_sync }),
      TE.map(() => ({
        message: single
          ? `The current version of ${id} was deleted; the previous version is now current.`
          : `Item ${id} was moved to the recycle bin. It is hidden from listings and searches; files_getItem or files_listChildren with include_deleted=true still show it.`,
        single_version: single,
      })),
    );
  }
}

export const deleteItemTool = defineTool({
  group: 'files',
  name: 'deleteItem',
  title: 'Delete file or folder',
  description:
    'Moves a file or folder (with its contents) to the recycle bin, where include_deleted on files_getItem or files_listChildren still shows it.',
  annotations: { kind: 'Destructive', idempotent: false },
  params: DeleteItemParams,
  useCase: DeleteItem,
  result: DeletedItemResult,
  text: (r, p) =>
    [
      `## ${r.single_version ? 'Version deleted' : 'Moved to the recycle bin'} (id ${p.item_id.trim()})`,
      r.message,
      nextSteps(
        r.single_version
          ? [`See the file now: ${call('files_getItem', { item_id: p.item_id.trim() })}`]
          : [`See it in the bin: ${call('files_getItem', { item_id: p.item_id.trim(), include_deleted: true })}`],
      ),
    ].join('\n\n'),
});
