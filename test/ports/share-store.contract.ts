import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixedClock } from '../../adapters/outbound/system-clock.js';
import type { NewShare } from '../../domain/files/share.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { E, type TaskEither } from '../../domain/shared/fp.js';
import type { ShareStore } from '../../ports/share-store.js';

export interface ShareStoreHarness {
  readonly shares: ShareStore;
  readonly clock: FixedClock;
  /** A file to share; returns its id. */
  seedFile(name: string): string;
  close(): Promise<void>;
}

const ok = async <A>(task: TaskEither<GatewayError, A>): Promise<A> => {
  const r = await task();
  if (E.isLeft(r)) throw new Error(`expected success, got ${r.left._tag}: ${r.left.message}`);
  return r.right;
};

const send = (itemIds: string[], clock: FixedClock, days = 30): NewShare => ({
  shareType: 'Send',
  itemIds,
  title: 'Contract share',
  expirationDate: new Date(clock.now().getTime() + days * 86_400_000).toISOString(),
  maxDownloads: 3,
  requireLogin: false,
  requireUserInfo: false,
  isViewOnly: false,
  notifyOnDownload: false,
  notifyOnUpload: false,
  recipients: [],
});

/** What every ShareStore adapter must do. */
export const shareStoreContract = (
  name: string,
  make: () => Promise<ShareStoreHarness>,
  after?: (h: ShareStoreHarness) => void,
) =>
  describe(`ShareStore contract: ${name}`, () => {
    let h: ShareStoreHarness;
    beforeAll(async () => {
      h = await make();
    });
    afterAll(async () => {
      after?.(h);
      await h.close();
    });

    it('creates a Send share and reads it back with its items', async () => {
      const file = h.seedFile('shared-plan.txt');
      const s = await ok(h.shares.create(send([file], h.clock)));
      expect(s).toMatchObject({ ShareType: 'Send', Title: 'Contract share', MaxDownloads: 3, TotalDownloads: 0 });
      expect(s.Uri).toMatch(/^https?:\/\//);
      const got = await ok(h.shares.get(s.Id, { includeItems: true, includeRecipients: false }));
      expect(got.Items?.map((i) => i.Id)).toEqual([file]);
    });

    it('creates a Request share into a folder', async () => {
      const s = await ok(
        h.shares.create({ ...send([], h.clock), shareType: 'Request', parentId: 'home', title: 'Send me files' }),
      );
      expect(s).toMatchObject({ ShareType: 'Request', Title: 'Send me files' });
    });

    it('lists newest first, by type, hiding expired shares unless asked', async () => {
      const file = h.seedFile('soon-expired.txt');
      const short = await ok(h.shares.create(send([file], h.clock, 1)));
      h.clock.advance(2 * 86_400_000);
      const active = await ok(h.shares.list({ top: 100, skip: 0, includeExpired: false }));
      expect(active.shares.map((s) => s.Id)).not.toContain(short.Id);
      const all = await ok(h.shares.list({ top: 100, skip: 0, includeExpired: true }));
      expect(all.shares.map((s) => s.Id)).toContain(short.Id);
      expect(all.totalCount).toBeGreaterThan(active.totalCount);
      const requests = await ok(h.shares.list({ shareType: 'Request', top: 100, skip: 0, includeExpired: true }));
      expect(requests.shares.every((s) => s.ShareType === 'Request')).toBe(true);
      const firstPage = await ok(h.shares.list({ top: 1, skip: 0, includeExpired: true }));
      expect(firstPage.shares).toHaveLength(1);
      expect(firstPage.totalCount).toBe(all.totalCount);
    });

    it('updates only the given fields', async () => {
      const s = await ok(h.shares.create(send([h.seedFile('to-update.txt')], h.clock)));
      const u = await ok(h.shares.update(s.Id, { title: 'Renamed share', maxDownloads: -1 }));
      expect(u).toMatchObject({ Id: s.Id, Title: 'Renamed share', MaxDownloads: -1, RequireLogin: false });
    });

    it("gives a Send share's direct download address, distinct from its landing page", async () => {
      const s = await ok(h.shares.create(send([h.seedFile('direct.txt')], h.clock)));
      const d = await ok(h.shares.downloadLink(s.Id));
      expect(d.DownloadUrl).toMatch(/^https?:\/\//);
      expect(d.DownloadUrl).not.toBe(s.Uri);
      const missing = await h.shares.downloadLink('no-such-share')();
      expect(E.isLeft(missing) && missing.left._tag).toBe('NotFound');
    });

    it('deletes a share: afterwards it is NotFound', async () => {
      const s = await ok(h.shares.create(send([h.seedFile('to-revoke.txt')], h.clock)));
      await ok(h.shares.delete(s.Id));
      const r = await h.shares.get(s.Id, { includeItems: false, includeRecipients: false })();
      expect(E.isLeft(r) && r.left._tag).toBe('NotFound');
    });
  });
