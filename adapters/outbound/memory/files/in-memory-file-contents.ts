import type { Item } from '../../../../domain/files/item.js';
import { invalidInput, notFound, type GatewayError } from '../../../../domain/shared/errors.js';
import { E, TE, type TaskEither } from '../../../../domain/shared/fp.js';
import type { FileBytes, FileContents } from '../../../../ports/file-contents.js';
import type { InMemoryItemStore } from '../in-memory-item-store.js';

/** File contents in memory mode: the current version's bytes, and new files or versions through the store. */
export class InMemoryFileContents implements FileContents {
  constructor(private readonly store: InMemoryItemStore) {}

  read(itemId: string, maxBytes: number): TaskEither<GatewayError, FileBytes> {
    const item = this.store.currentItem(itemId);
    if (!item)
      return TE.left(
        notFound('item', itemId, `No item with id "${itemId}". Find ids with files_listChildren or files_searchItems.`),
      );
    if (item.type !== 'File')
      return TE.left(
        invalidInput(
          `"${item.Name}" is a ${item.type.toLowerCase()}; files_readFile reads files. files_listChildren lists what it holds.`,
          'item_id',
          'id of a file',
        ),
      );
    const current = this.store.currentBytes(item.Id);
    if (!current) return TE.left(notFound('item', itemId, `No item with id "${itemId}".`));
    if (current.bytes.byteLength > maxBytes) return TE.left(tooLarge(item, current.bytes.byteLength, maxBytes));
    return TE.right({ item: current.node, bytes: current.bytes });
  }

  write(folderId: string, fileName: string, bytes: Uint8Array, overwrite: boolean): TaskEither<GatewayError, Item> {
    const added = this.store.addFile(folderId, fileName, bytes, { overwrite });
    return TE.fromEither(E.map((a: { item: Item }) => a.item)(added));
  }
}

export const tooLarge = (item: Item, size: number, maxBytes: number): GatewayError =>
  invalidInput(
    `"${item.Name}" is ${size} bytes; files_readFile reads files up to ${maxBytes} bytes. Get its address with files_getDownloadUrl instead.`,
    'item_id',
    `a file of at most ${maxBytes} bytes`,
    { size_bytes: size, limit_bytes: maxBytes },
  );
