import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E } from '../../domain/shared/fp.js';
import type { FileContents } from '../../ports/file-contents.js';

export interface FileContentsHarness {
  readonly contents: FileContents;
  /** A folder id of the account (created for the test). */
  readonly folderId: string;
  readonly close: () => Promise<void>;
}

const text = (s: string) => new TextEncoder().encode(s);

/** What every FileContents adapter must do (memory mode and ShareFile). */
export const fileContentsContract = (name: string, start: () => Promise<FileContentsHarness>) =>
  describe(`FileContents contract: ${name}`, () => {
    let h: FileContentsHarness;
    beforeAll(async () => {
      h = await start();
    });
    afterAll(() => h.close());

    it('writes a file and reads the same bytes back', async () => {
      const written = await h.contents.write(h.folderId, 'contract.txt', text('one\ntwo\n'), false)();
      if (E.isLeft(written)) throw new Error(written.left.message);
      expect(written.right).toMatchObject({ Name: 'contract.txt', type: 'File' });
      const read = await h.contents.read(written.right.Id, 1024)();
      if (E.isLeft(read)) throw new Error(read.left.message);
      expect(new TextDecoder().decode(read.right.bytes)).toBe('one\ntwo\n');
    });

    it('makes a new version with overwrite, and a numbered name without it', async () => {
      const first = await h.contents.write(h.folderId, 'versioned.txt', text('v1'), false)();
      if (E.isLeft(first)) throw new Error(first.left.message);
      const second = await h.contents.write(h.folderId, 'versioned.txt', text('v2'), true)();
      if (E.isLeft(second)) throw new Error(second.left.message);
      expect(second.right.Id).toBe(first.right.Id);
      const read = await h.contents.read(first.right.Id, 1024)();
      expect(E.isRight(read) && new TextDecoder().decode(read.right.bytes)).toBe('v2');
      const third = await h.contents.write(h.folderId, 'versioned.txt', text('v3'), false)();
      if (E.isLeft(third)) throw new Error(third.left.message);
      expect(third.right.Id).not.toBe(first.right.Id);
      expect(third.right.Name).toBe('versioned (1).txt');
    });

    it('refuses a folder, a file above the limit and an unknown id', async () => {
      const folder = await h.contents.read(h.folderId, 1024)();
      expect(E.isLeft(folder) && folder.left).toMatchObject({ _tag: 'InvalidInput', parameter: 'item_id' });
      const big = await h.contents.write(h.folderId, 'big.txt', text('x'.repeat(100)), false)();
      if (E.isLeft(big)) throw new Error(big.left.message);
      const tooBig = await h.contents.read(big.right.Id, 10)();
      expect(E.isLeft(tooBig) && tooBig.left).toMatchObject({ _tag: 'InvalidInput', parameter: 'item_id' });
      const missing = await h.contents.read('fi-does-not-exist', 1024)();
      expect(E.isLeft(missing) && missing.left._tag).toBe('NotFound');
    });
  });
