import type { Item, TransferOutcome } from '../../domain/files/item.js';
import { NonEmptyString, described, params, type t } from '../runtime/codecs.js';
import { call, fields, nextSteps } from '../runtime/markdown.js';
import { flag, ItemIdParam, itemJson, itemText } from './files-text.js';
import { OVERWRITE_NEEDS } from './overwrite.js';

// What copyItem and moveItem share: parameters and how an outcome (done or asynchronous) is shown.

export const TransferItemParams = params(
  {
    item_id: ItemIdParam('Id of the file or folder.'),
    target_folder_id: described(
      NonEmptyString,
      'Destination folder id, "home", or "allshared" (folders only: becomes a top-level shared folder).',
    ),
  },
  {
    overwrite: flag(`Replace a same-named item there (it goes to the recycle bin). ${OVERWRITE_NEEDS}`, false),
  },
);
export type TransferItemParams = t.TypeOf<typeof TransferItemParams>;

const unseenMessage = (o: { name: string; targetId: string }) =>
  `Copied: ShareFile reported the copy of "${o.name}" done, but it is not listed in folder ${o.targetId} yet (under that name or as "<name> (n)"). Do not copy again: list the folder in a moment.`;

export const transferJson = (o: TransferOutcome): unknown =>
  o.kind === 'done'
    ? itemJson(o.item)
    : o.kind === 'unseen'
      ? { copied: true, found: false, message: unseenMessage(o), item_id: o.itemId, target_folder_id: o.targetId }
      : {
          async: true,
          message:
            'The storage accepted the operation and runs it in the background (the destination is in another storage zone).',
          operation_id: o.operationId,
          state: o.state,
          item_id: o.itemId,
          target_folder_id: o.targetId,
        };

export const transferText = (o: TransferOutcome, verb: 'Copied' | 'Moved'): string => {
  if (o.kind === 'unseen')
    return [
      `## Copied ${o.itemId}; not found in the destination yet`,
      unseenMessage(o),
      nextSteps([`Look for it: ${call('files_listChildren', { folder_id: o.targetId })}`]),
    ].join('\n\n');
  if (o.kind === 'async') {
    return [
      `## ${verb === 'Copied' ? 'Copy' : 'Move'} of ${o.itemId} started (runs in the background)`,
      'The destination is in another storage zone, so the storage runs this as an asynchronous operation. It is not finished yet; the item will appear in the destination when it is.',
      fields([
        ['Operation', o.operationId],
        ['State', o.state],
      ]),
      nextSteps([`Check the destination later: ${call('files_listChildren', { folder_id: o.targetId })}`]),
    ]
      .filter(Boolean)
      .join('\n\n');
  }
  const i: Item = o.item;
  return [
    itemText(i).replace(/^## /, `## ${verb} `),
    nextSteps([`Open the destination: ${call('files_listChildren', { folder_id: i.Parent?.Id ?? 'home' })}`]),
  ].join('\n');
};
