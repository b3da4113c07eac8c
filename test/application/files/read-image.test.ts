import { describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES, ReadImage } from '../../../application/files/read-image.js';
import type { Item } from '../../../domain/files/item.js';
import { invalidInput } from '../../../domain/shared/errors.js';
import { E, TE } from '../../../domain/shared/fp.js';
import type { FileContents } from '../../../ports/file-contents.js';

// Issue 43: the file view's image bytes are bounded (2 MiB): a larger image gets its download link instead.

/** File contents holding one file of `size` bytes, refusing a read above the reader's limit (the port's contract). */
const oneFile = (name: string, size: number): FileContents => ({
  read: (itemId, maxBytes) =>
    size > maxBytes
      ? TE.left(invalidInput(`The file is larger than ${maxBytes} bytes.`, 'item_id'))
      : TE.right({ item: { Id: itemId, Name: name } as Item, bytes: new Uint8Array(size) }),
  write: () => TE.left(invalidInput('read only')),
});

const read = (name: string, size: number) => new ReadImage(oneFile(name, size)).execute({ item_id: ' fi1 ' })();

describe('ReadImage', () => {
  it('reads an image of exactly 2 MiB and names its type by extension', async () => {
    const result = await read('photo.JPG', IMAGE_MAX_BYTES);
    expect(E.isRight(result) && result.right).toMatchObject({ itemId: 'fi1', contentType: 'image/jpeg' });
    expect(E.isRight(result) && result.right.bytes.length).toBe(2 * 1024 * 1024);
  });

  it('refuses an image one byte over 2 MiB', async () => {
    const result = await read('photo.png', IMAGE_MAX_BYTES + 1);
    expect(E.isLeft(result) && result.left._tag).toBe('InvalidInput');
  });

  it('refuses a file that is not a raster image (SVG included)', async () => {
    for (const name of ['notes.txt', 'logo.svg', 'png']) {
      const result = await read(name, 10);
      expect(E.isLeft(result) && result.left.message).toContain('not an image');
    }
  });
});
