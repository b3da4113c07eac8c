import { inject, injectable } from 'inversify';
import type { TransferOutcome } from '../../domain/files/item.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../domain/shared/fp.js';
import { ItemStore } from '../../ports/item-store.js';
import { defineTool, type CallContext, type UseCase } from '../runtime/define-tool.js';
import { overwriteRefusal } from './overwrite.js';
import { TransferItemParams, transferJson, transferText } from './transfer-item.js';
import { TransferResult } from './file-results.js';

@injectable()
export class CopyItem implements UseCase<TransferItemParams, TransferOutcome> {
  constructor(@inject(ItemStore) private readonly items: ItemStore) {}
  execute(p: TransferItemParams, context: CallContext): TaskEither<GatewayError, TransferOutcome> {
    const refused = overwriteRefusal(p.overwrite, context, 'files_copyItem');
    if (refused) return TE.left(refused);
    return this.items.copy(p.item_id.trim(), p.target_folder_id.trim(), p.overwrite);
  }
}

export const copyItemTool = defineTool({
  group: 'files',
  name: 'copyItem',
  title: 'Copy file or folder',
  description:
    'Copies a file or folder (with its contents) into another folder; the copy gets a new id. A same-named item there is a conflict unless overwrite.',
  annotations: { kind: 'Write', idempotent: false },
  params: TransferItemParams,
  useCase: CopyItem,
  result: TransferResult,
  json: transferJson,
  text: (o) => transferText(o, 'Copied'),
});
