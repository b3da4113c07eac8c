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
export class MoveItem implements UseCase<TransferItemParams, TransferOutcome> {
  constructor(@inject(ItemStore) private readonly items: ItemStore) {}
  execute(p: TransferItemParams, context: CallContext): TaskEither<GatewayError, TransferOutcome> {
    const refused = overwriteRefusal(p.overwrite, context, 'files_moveItem');
    if (refused) return TE.left(refused);
    return this.items.move(p.item_id.trim(), p.target_folder_id.trim(), p.overwrite);
  }
}

export const moveItemTool = defineTool({
  group: 'files',
  name: 'moveItem',
  title: 'Move file or folder',
  description:
    'Moves a file or folder (with its contents) into another folder; its id stays. A same-named item there is a conflict unless overwrite.',
  annotations: { kind: 'Write', idempotent: true },
  params: TransferItemParams,
  useCase: MoveItem,
  result: TransferResult,
  json: transferJson,
  text: (o) => transferText(o, 'Moved'),
});
