import { expect } from 'vitest';
import { ShareFileItemStore } from '../../adapters/outbound/sharefile/sharefile-item-store.js';
import { ShareFileShareStore } from '../../adapters/outbound/sharefile/sharefile-share-store.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { E } from '../../domain/shared/fp.js';
import { shareFileTestClient, startShareFileServer, type ShareFileStandIn } from '../fakes/sharefile-server.js';
import { UrlFetchGuard } from '../../adapters/outbound/http/url-fetch-guard.js';
import { ShareFileFileContents } from '../../adapters/outbound/sharefile/sharefile-file-contents.js';
import { fileContentsContract } from './file-contents.contract.js';
import { itemStoreContract } from './item-store.contract.js';
import { shareStoreContract } from './share-store.contract.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');

export const shareFileAdapters = async (clock: FixedClock) => {
  const fake = await startShareFileServer({ clock });
  const client = shareFileTestClient(fake, clock);
  const seedFile = (folderId: string, name: string, text: string, overwrite = false) => {
    const r = fake.items.addFile(folderId, name, new TextEncoder().encode(text), { overwrite });
    if (E.isLeft(r)) throw new Error(r.left.message);
    return r.right.item.Id;
  };
  return {
    fake,
    client,
    items: new ShareFileItemStore({ client, maxUploadBytes: 100 * 1024 * 1024 }),
    shares: new ShareFileShareStore(client),
    seedFile,
  };
};

const noViolations = (fake: ShareFileStandIn) => expect(fake.violations).toEqual([]);

let itemFake: ShareFileStandIn | undefined;
itemStoreContract(
  'ShareFile (local stand-in)',
  async () => {
    const clock = new FixedClock(NOW);
    const a = await shareFileAdapters(clock);
    itemFake = a.fake;
    return { store: a.items, clock, seedFile: a.seedFile, close: () => a.fake.close() };
  },
  () => noViolations(itemFake!),
);

let shareFake: ShareFileStandIn | undefined;
shareStoreContract(
  'ShareFile (local stand-in)',
  async () => {
    const clock = new FixedClock(NOW);
    const a = await shareFileAdapters(clock);
    shareFake = a.fake;
    return {
      shares: a.shares,
      clock,
      seedFile: (name) => a.seedFile('home', name, 'shared bytes'),
      close: () => a.fake.close(),
    };
  },
  () => noViolations(shareFake!),
);

let contentsFake: ShareFileStandIn | undefined;
fileContentsContract('ShareFile (local stand-in)', async () => {
  const a = await shareFileAdapters(new FixedClock(NOW));
  contentsFake = a.fake;
  const folder = a.fake.items.seedFolder(a.fake.items.homeId, 'Contents', NOW.toISOString());
  return {
    contents: new ShareFileFileContents(
      a.items,
      new UrlFetchGuard({ maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivate: true }),
      { apiBaseUrl: a.fake.apiBaseUrl, timeoutMs: 5000 },
    ),
    folderId: folder.Id,
    close: async () => {
      noViolations(contentsFake!);
      await a.fake.close();
    },
  };
});
