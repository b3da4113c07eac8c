import { inject, injectable } from 'inversify';
import type { Item } from '../../domain/files/item.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../domain/shared/fp.js';
import { ItemStore } from '../../ports/item-store.js';
import { described, NonEmptyString, params, t } from '../runtime/codecs.js';
import { WRITE_MAX_BYTES } from './write-file.js';
import { defineTool, type CallContext, type UseCase } from '../runtime/define-tool.js';
import { OVERWRITE_NEEDS, overwriteRefusal } from './overwrite.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { flag, ItemIdParam, itemJson, itemText } from './files-text.js';
import { ItemResult } from './file-results.js';

export const CreateFolderParams = params(
  {
    parent_id: ItemIdParam(
      'Where to create it: a folder id, "home" (personal) or "allshared" (a new top-level shared folder).',
    ),
    name: described(NonEmptyString, 'Name of the new folder.'),
  },
  {
    description: described(t.string, 'Description of the folder.'),
    overwrite: flag(`Replace a same-named folder (it goes to the recycle bin). ${OVERWRITE_NEEDS}`, false),
  },
);
export type CreateFolderParams = t.TypeOf<typeof CreateFolderParams>;

@injectable()
export class CreateFolder implements UseCase<CreateFolderParams, Item> {
  constructor(@inject(ItemStore) private readonly items: ItemStore) {}
  execute(p: CreateFolderParams, context: CallContext): TaskEither<GatewayError, Item> {
    const refused = overwriteRefusal(p.overwrite, context, 'files_createFolder');
    if (refused) return TE.left(refused);
    return this.items.createFolder(p.parent_id.trim(), {
      name: p.name,
      ...(p.description !== undefined ? { description: p.description } : {}),
      overwrite: p.overwrite,
    });
  }
}

export const createFolderTool = defineTool({
  group: 'files',
  name: 'createFolder',
  title: 'Create folder',
  description: 'Creates a folder and returns it with its new id. A same-named folder is a conflict unless overwrite.',
  annotations: { kind: 'Write', idempotent: false },
  params: CreateFolderParams,
  useCase: CreateFolder,
  result: ItemResult,
  json: itemJson,
  text: (i) =>
    [
      itemText(i).replace(/^## /, '## Created '),
      nextSteps([
        `Write a file into it: ${call('files_writeFile', { folder_id: i.Id, file_name: '<name>', content: '<text>' })}`,
        `Upload a larger file (over ${WRITE_MAX_BYTES / 1024 / 1024} MiB): ${call('files_getUploadUrl', { folder_id: i.Id, file_name: '<name>' })}`,
        `Share it: ${call('files_createShare', { share_type: 'Send', items: [i.Id] })}`,
      ]),
    ].join('\n'),
});
