import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixedClock } from '../../adapters/outbound/system-clock.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { E, type TaskEither } from '../../domain/shared/fp.js';
import { parseFilter, parseOrderBy } from '../../domain/files/query.js';
import type { ItemStore } from '../../ports/item-store.js';

export interface ItemStoreHarness {
  readonly store: ItemStore;
  readonly clock: FixedClock;
  /** Puts a text file into a folder behind the adapter's back (as if uploaded); returns its id. */
  seedFile(folderId: string, name: string, text: string, overwrite?: boolean): string;
  close(): Promise<void>;
}

const ok = async <A>(task: TaskEither<GatewayError, A>): Promise<A> => {
  const r = await task();
  if (E.isLeft(r)) throw new Error(`expected success, got ${r.left._tag}: ${r.left.message}`);
  return r.right;
};
const failure = async <A>(task: TaskEither<GatewayError, A>): Promise<GatewayError> => {
  const r = await task();
  if (E.isRight(r)) throw new Error('expected a failure');
  return r.left;
};
const right = <A>(e: E.Either<unknown, A>): A => {
  if (E.isLeft(e)) throw new Error('bad test input');
  return e.right;
};

/** What every ItemStore adapter must do, whatever the storage behind it. */
export const itemStoreContract = (
  name: string,
  make: () => Promise<ItemStoreHarness>,
  after?: (h: ItemStoreHarness) => void,
) =>
  describe(`ItemStore contract: ${name}`, () => {
    let h: ItemStoreHarness;
    let homeId: string;
    beforeAll(async () => {
      h = await make();
      homeId = (await ok(h.store.get('home', { includeDeleted: false, includeChildren: false }))).Id;
    });
    afterAll(async () => {
      after?.(h);
      await h.close();
    });

    it('creates a folder in home and reads it back; a same-named folder is a conflict unless overwrite', async () => {
      const f = await ok(h.store.createFolder('home', { name: 'Contract A', description: 'first', overwrite: false }));
      expect(f).toMatchObject({ type: 'Folder', Name: 'Contract A', Parent: { Id: homeId } });
      const again = await ok(h.store.get(f.Id, { includeDeleted: false, includeChildren: false }));
      expect(again).toMatchObject({ Id: f.Id, Name: 'Contract A', Description: 'first' });
      expect((await failure(h.store.createFolder('home', { name: 'Contract A', overwrite: false })))._tag).toBe(
        'Conflict',
      );
      const replaced = await ok(h.store.createFolder('home', { name: 'Contract A', overwrite: true }));
      expect(replaced.Id).not.toBe(f.Id);
    });

    it('lists children with paging, total count, order and filter', async () => {
      const folder = await ok(h.store.createFolder('home', { name: 'Contract List', overwrite: false }));
      h.seedFile(folder.Id, 'b-notes.txt', 'bb');
      h.seedFile(folder.Id, 'a-notes.txt', 'a');
      h.seedFile(folder.Id, 'c-report.txt', 'cccc');
      await ok(h.store.createFolder(folder.Id, { name: 'sub', overwrite: false }));
      const page = await ok(
        h.store.children(folder.Id, {
          top: 2,
          skip: 0,
          includeDeleted: false,
          orderBy: right(parseOrderBy('Name asc')),
        }),
      );
      expect(page.totalCount).toBe(4);
      expect(page.items.map((i) => i.Name)).toEqual(['a-notes.txt', 'b-notes.txt']);
      const rest = await ok(
        h.store.children(folder.Id, {
          top: 2,
          skip: 2,
          includeDeleted: false,
          orderBy: right(parseOrderBy('Name asc')),
        }),
      );
      expect(rest.items.map((i) => i.Name)).toEqual(['c-report.txt', 'sub']);
      const bySize = await ok(
        h.store.children(folder.Id, {
          top: 10,
          skip: 0,
          includeDeleted: false,
          orderBy: right(parseOrderBy('FileSizeBytes desc')),
          filter: right(parseFilter("isof('Files.Api.Models.File')")),
        }),
      );
      expect(bySize.items.map((i) => i.Name)).toEqual(['c-report.txt', 'b-notes.txt', 'a-notes.txt']);
      const filtered = await ok(
        h.store.children(folder.Id, {
          top: 10,
          skip: 0,
          includeDeleted: false,
          orderBy: [],
          filter: right(parseFilter("startswith(Name,'a') or FileSizeBytes gt 3")),
        }),
      );
      expect(filtered.items.map((i) => i.Name).sort()).toEqual(['a-notes.txt', 'c-report.txt']);
    });

    it('renames and describes an item', async () => {
      const folder = await ok(h.store.createFolder('home', { name: 'Contract Rename', overwrite: false }));
      const updated = await ok(h.store.update(folder.Id, { name: 'Contract Renamed', description: 'after' }));
      expect(updated).toMatchObject({ Id: folder.Id, Name: 'Contract Renamed', Description: 'after' });
    });

    it('deletes into the recycle bin: gone from reads, still there with includeDeleted', async () => {
      const folder = await ok(h.store.createFolder('home', { name: 'Contract Bin', overwrite: false }));
      const fileId = h.seedFile(folder.Id, 'old.txt', 'old');
      await ok(h.store.delete(fileId, { singleVersion: false, forceSync: false }));
      expect((await failure(h.store.get(fileId, { includeDeleted: false, includeChildren: false })))._tag).toBe(
        'NotFound',
      );
      expect((await ok(h.store.get(fileId, { includeDeleted: true, includeChildren: false }))).Id).toBe(fileId);
      const listed = await ok(h.store.children(folder.Id, { top: 10, skip: 0, includeDeleted: true, orderBy: [] }));
      expect(listed.items.map((i) => i.Id)).toContain(fileId);
      const hidden = await ok(h.store.children(folder.Id, { top: 10, skip: 0, includeDeleted: false, orderBy: [] }));
      expect(hidden.items.map((i) => i.Id)).not.toContain(fileId);
    });

    it('deletes a single version only of a file with history, and refuses for a file without', async () => {
      const folder = await ok(h.store.createFolder('home', { name: 'Contract Versions', overwrite: false }));
      const once = h.seedFile(folder.Id, 'once.txt', 'one');
      expect((await failure(h.store.delete(once, { singleVersion: true, forceSync: false })))._tag).toBe(
        'InvalidInput',
      );
      const twice = h.seedFile(folder.Id, 'twice.txt', 'first');
      expect(h.seedFile(folder.Id, 'twice.txt', 'second version', true)).toBe(twice);
      const before = await ok(h.store.get(twice, { includeDeleted: false, includeChildren: false }));
      expect(before.FileSizeBytes).toBe('second version'.length);
      await ok(h.store.delete(twice, { singleVersion: true, forceSync: false }));
      const after = await ok(h.store.get(twice, { includeDeleted: false, includeChildren: false }));
      expect(after.FileSizeBytes).toBe('first'.length);
    });

    it('copies with a new id and moves with the same id; a folder cannot move into itself', async () => {
      const src = await ok(h.store.createFolder('home', { name: 'Contract Source', overwrite: false }));
      const child = await ok(h.store.createFolder(src.Id, { name: 'child', overwrite: false }));
      const target = await ok(h.store.createFolder('home', { name: 'Contract Target', overwrite: false }));
      const copy = await ok(h.store.copy(src.Id, target.Id, false));
      if (copy.kind !== 'done') throw new Error('expected a finished copy');
      expect(copy.item.Id).not.toBe(src.Id);
      expect(copy.item.Parent?.Id).toBe(target.Id);
      const copiedChildren = await ok(
        h.store.children(copy.item.Id, { top: 10, skip: 0, includeDeleted: false, orderBy: [] }),
      );
      expect(copiedChildren.items.map((i) => i.Name)).toEqual(['child']);
      expect(copiedChildren.items[0]!.Id).not.toBe(child.Id);
      expect((await failure(h.store.copy(src.Id, target.Id, false)))._tag).toBe('Conflict');
      expect((await failure(h.store.move(src.Id, child.Id, false)))._tag).toBe('InvalidInput');
      const other = await ok(h.store.createFolder('home', { name: 'Contract Elsewhere', overwrite: false }));
      const moved = await ok(h.store.move(src.Id, other.Id, false));
      if (moved.kind !== 'done') throw new Error('expected a finished move');
      expect(moved.item).toMatchObject({ Id: src.Id, Parent: { Id: other.Id } });
    });

    it('searches names and text content, best first', async () => {
      const folder = await ok(h.store.createFolder('home', { name: 'Contract Search', overwrite: false }));
      const byContent = h.seedFile(folder.Id, 'memo.txt', 'The zephyrine valve needs replacing.');
      const byName = h.seedFile(folder.Id, 'zephyrine-manual.txt', 'nothing to see');
      const r = await ok(h.store.search({ query: 'zephyrine', scope: 'all', namesOnly: false, top: 10 }));
      expect(r.results.map((x) => x.Id).sort()).toEqual([byContent, byName].sort());
      expect(r.results[0]).toMatchObject({ Rank: 1, Id: byName, ItemType: 'file' });
      const namesOnly = await ok(h.store.search({ query: 'zephyrine', scope: 'all', namesOnly: true, top: 10 }));
      expect(namesOnly.results.map((x) => x.Id)).toEqual([byName]);
    });

    it('hands out download and upload specifications, and refuses an oversized upload', async () => {
      const folder = await ok(h.store.createFolder('home', { name: 'Contract Transfer', overwrite: false }));
      const file = h.seedFile(folder.Id, 'get-me.txt', 'bytes');
      expect((await ok(h.store.downloadLink(file, { includeAllVersions: false }))).DownloadUrl).toMatch(/^https?:\/\//);
      expect((await failure(h.store.downloadLink(folder.Id, { includeAllVersions: false })))._tag).toBe('InvalidInput');
      const small = await ok(
        h.store.uploadLink(folder.Id, {
          fileName: 'up.txt',
          fileSize: 10,
          canResume: true,
          startOver: false,
          overwrite: false,
          notify: false,
        }),
      );
      expect(small).toMatchObject({ Method: 'Standard', IsResume: false });
      expect(small.ChunkUri).toMatch(/^https?:\/\//);
      const big = await ok(
        h.store.uploadLink(folder.Id, {
          fileName: 'big.bin',
          fileSize: 50 * 1024 * 1024,
          canResume: true,
          startOver: false,
          overwrite: false,
          notify: false,
        }),
      );
      expect(big.Method).toBe('Threaded');
      const huge = await failure(
        h.store.uploadLink(folder.Id, {
          fileName: 'huge.bin',
          fileSize: 10 * 1024 ** 3,
          canResume: true,
          startOver: false,
          overwrite: false,
          notify: false,
        }),
      );
      expect(huge._tag).toBe('InvalidInput');
    });

    it('says NotFound for an unknown id', async () => {
      expect(
        (await failure(h.store.get('fi0000nothere', { includeDeleted: false, includeChildren: false })))._tag,
      ).toBe('NotFound');
    });
  });
