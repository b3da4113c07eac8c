import { HmacLinkSigner } from '../../adapters/outbound/memory/hmac-link-signer.js';
import { InMemoryItemStore } from '../../adapters/outbound/memory/in-memory-item-store.js';
import { InMemoryShareStore } from '../../adapters/outbound/memory/in-memory-share-store.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { E } from '../../domain/shared/fp.js';
import { InMemoryFileContents } from '../../adapters/outbound/memory/files/in-memory-file-contents.js';
import { fileContentsContract } from './file-contents.contract.js';
import { itemStoreContract } from './item-store.contract.js';
import { shareStoreContract } from './share-store.contract.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');

const memory = (clock: FixedClock) => {
  const items = new InMemoryItemStore({
    clock,
    signer: new HmacLinkSigner('http://127.0.0.1:8787', 'contract-secret-123456'),
  });
  const shares = new InMemoryShareStore({ clock, items, baseUrl: 'http://127.0.0.1:8787' });
  const seedFile = (folderId: string, name: string, text: string, overwrite = false) => {
    const r = items.addFile(folderId, name, new TextEncoder().encode(text), { overwrite });
    if (E.isLeft(r)) throw new Error(r.left.message);
    return r.right.item.Id;
  };
  return { items, shares, seedFile };
};

itemStoreContract('in memory', async () => {
  const clock = new FixedClock(NOW);
  const m = memory(clock);
  return { store: m.items, clock, seedFile: m.seedFile, close: async () => undefined };
});

shareStoreContract('in memory', async () => {
  const clock = new FixedClock(NOW);
  const m = memory(clock);
  return {
    shares: m.shares,
    clock,
    seedFile: (name) => m.seedFile('home', name, 'shared bytes'),
    close: async () => undefined,
  };
});

fileContentsContract('in memory', async () => {
  const m = memory(new FixedClock(NOW));
  const folder = m.items.seedFolder(m.items.homeId, 'Contents', NOW.toISOString());
  return { contents: new InMemoryFileContents(m.items), folderId: folder.Id, close: async () => undefined };
});
