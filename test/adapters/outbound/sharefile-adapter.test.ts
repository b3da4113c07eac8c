import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShareFileClient } from '../../../adapters/outbound/sharefile/sharefile-client.js';
import { ShareFileItemStore } from '../../../adapters/outbound/sharefile/sharefile-item-store.js';
import {
  ShareFileShareNotifier,
  ShareFileShareStore,
} from '../../../adapters/outbound/sharefile/sharefile-share-store.js';
import { ShareFileFileContents } from '../../../adapters/outbound/sharefile/sharefile-file-contents.js';
import { UrlFetchGuard } from '../../../adapters/outbound/http/url-fetch-guard.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { E } from '../../../domain/shared/fp.js';
import {
  EXAMPLES_DIR,
  shareFileTestClient,
  startShareFileServer,
  type ShareFileStandIn,
} from '../../fakes/sharefile-server.js';

// These tests read how one vendor answer is mapped: no retries, and no breaker opening on purpose-made
// failures (retries and the breaker have their own tests in test/adapters/inbound/upstream-faults.test.ts).
configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

const NOW = new Date('2026-11-21T10:00:00.000Z');

describe('ShareFile adapter specifics', () => {
  const clock = new FixedClock(NOW);
  let fake: ShareFileStandIn;
  let items: ShareFileItemStore;
  let shares: ShareFileShareStore;
  let notifier: ShareFileShareNotifier;
  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
    const client = shareFileTestClient(fake, clock);
    items = new ShareFileItemStore({ client, maxUploadBytes: 1024 * 1024 });
    shares = new ShareFileShareStore(client);
    notifier = new ShareFileShareNotifier(client);
  });
  afterAll(() => fake.close());

  it('refreshes the token form-encoded at /oauth/token once for concurrent calls, and again before it expires', async () => {
    await Promise.all([items.get('home', { includeDeleted: false, includeChildren: false })(), items.topLevel()()]);
    expect(fake.requests.filter((r) => r.path === '/oauth/token')).toHaveLength(1);
    expect(fake.requests.find((r) => r.path === '/oauth/token')!.headers['content-type']).toContain(
      'application/x-www-form-urlencoded',
    );
    clock.advance(8 * 3600_000);
    await items.topLevel()();
    expect(fake.requests.filter((r) => r.path === '/oauth/token')).toHaveLength(2);
    expect(fake.violations).toEqual([]);
  });

  it('sends the documented paths and query: Children with $top/$skip, Download with redirect=false, move as PATCH Parent', async () => {
    const folder = await items.createFolder('home', { name: 'Paths', overwrite: false })();
    if (E.isLeft(folder)) throw new Error(folder.left.message);
    await items.children(folder.right.Id, { top: 5, skip: 10, includeDeleted: false, orderBy: [] })();
    const list = fake.requests.at(-1)!;
    expect(list.path).toBe(`/sf/v3/Items(${folder.right.Id})/Children`);
    expect(list.query.get('$top')).toBe('5');
    expect(list.query.get('$skip')).toBe('10');
    const file = fake.items.addFile(folder.right.Id, 'a.txt', new TextEncoder().encode('x'), { overwrite: false });
    if (E.isLeft(file)) throw new Error('seed');
    await items.downloadLink(file.right.item.Id, { includeAllVersions: true })();
    expect(fake.requests.at(-1)!.query.get('redirect')).toBe('false');
    expect(fake.requests.at(-1)!.query.get('includeAllVersions')).toBe('true');
    await items.move(file.right.item.Id, 'home', false)();
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'PATCH',
      path: `/sf/v3/Items(${file.right.item.Id})`,
      body: { Parent: { Id: 'home' } },
    });
    expect(fake.violations).toEqual([]);
  });

  it('surfaces an asynchronous cross-zone move or copy as such', async () => {
    fake.asyncTransfers = true;
    try {
      const r = await items.move('fo-somewhere', 'fo-other-zone', false)();
      expect(E.isRight(r) && r.right).toMatchObject({
        kind: 'async',
        operationId: 'aop-1',
        state: 'Scheduled',
        itemId: 'fo-somewhere',
        targetId: 'fo-other-zone',
      });
      const c = await items.copy('fo-somewhere', 'fo-other-zone', false)();
      expect(E.isRight(c) && c.right.kind).toBe('async');
    } finally {
      fake.asyncTransfers = false;
    }
  });

  it('maps both error body forms, rate limits and outages to gateway errors', async () => {
    const missing = await items.get('fi-missing', { includeDeleted: false, includeChildren: false })();
    expect(E.isLeft(missing) && missing.left).toMatchObject({ _tag: 'NotFound', id: 'fi-missing' });
    expect(E.isLeft(missing) && missing.left.message).toContain('ShareFile said:');
    fake.odataErrors = true;
    fake.failNext(400, {
      'odata.error': { code: 'BadRequest', message: { lang: 'en-US', value: 'Name contains invalid characters' } },
    });
    const bad = await items.update('fo-x', { name: 'x' })();
    expect(E.isLeft(bad) && bad.left).toMatchObject({
      _tag: 'InvalidInput',
      message: expect.stringContaining('Name contains invalid characters'),
    });
    fake.odataErrors = false;
    fake.failNext(429, { code: 'Throttled', message: { lang: 'en-US', value: 'Slow down' } }, { 'retry-after': '7' });
    const limited = await items.topLevel()();
    expect(E.isLeft(limited) && limited.left).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 7 });
    fake.failNext(503, { code: 'ServiceUnavailable', message: { lang: 'en-US', value: 'Maintenance' } });
    const down = await items.topLevel()();
    expect(E.isLeft(down) && down.left).toMatchObject({ _tag: 'UpstreamFailure', retryable: true, status: 503 });
  });

  it('retries once with a fresh token after a 401', async () => {
    const before = fake.requests.filter((r) => r.path === '/oauth/token').length;
    fake.failNext(401, { code: 'Unauthorized', message: { lang: 'en-US', value: 'expired' } });
    const r = await items.topLevel()();
    expect(E.isRight(r)).toBe(true);
    expect(fake.requests.filter((r) => r.path === '/oauth/token').length).toBe(before + 1);
  });

  it('re-sends a share through Shares/Resend with the documented body', async () => {
    const f = fake.items.addFile(fake.items.homeId, 'resend.txt', new TextEncoder().encode('r'), { overwrite: false });
    if (E.isLeft(f)) throw new Error('seed');
    const s = await shares.create({
      shareType: 'Send',
      itemIds: [f.right.item.Id],
      maxDownloads: -1,
      requireLogin: false,
      requireUserInfo: false,
      isViewOnly: false,
      notifyOnDownload: false,
      notifyOnUpload: false,
      recipients: [],
    })();
    if (E.isLeft(s)) throw new Error(s.left.message);
    const sent = await notifier.notify({
      share: s.right,
      recipients: ['ana@example.com'],
      personalMessage: 'Here you go',
      ccSender: true,
    })();
    expect(E.isRight(sent)).toBe(true);
    expect(fake.resends.at(-1)).toMatchObject({
      ShareId: s.right.Id,
      Recipients: ['ana@example.com'],
      Body: 'Here you go',
      CcSender: true,
    });
    expect(fake.violations).toEqual([]);
  });

  it('reads the copy (not the modified source ShareFile answers with) from the target folder', async () => {
    const from = await items.createFolder('home', { name: 'CopyFrom', overwrite: false })();
    const to = await items.createFolder('home', { name: 'CopyTo', overwrite: false })();
    if (E.isLeft(from) || E.isLeft(to)) throw new Error('seed');
    const f = fake.items.addFile(from.right.Id, 'plan.txt', new TextEncoder().encode('p'), { overwrite: false });
    if (E.isLeft(f)) throw new Error('seed');
    const r = await items.copy(f.right.item.Id, to.right.Id, false)();
    if (E.isLeft(r) || r.right.kind !== 'done') throw new Error('copy failed');
    expect(r.right.item.Id).not.toBe(f.right.item.Id);
    expect(r.right.item).toMatchObject({ Name: 'plan.txt', Parent: { Id: to.right.Id } });
    expect(fake.violations).toEqual([]);
  });

  it("takes only the source's name or ShareFile's renamed form as the copy; else copied, not found yet (issue 42)", async () => {
    const from = await items.createFolder('home', { name: 'CopyFrom42', overwrite: false })();
    const to = await items.createFolder('home', { name: 'CopyTo42', overwrite: false })();
    if (E.isLeft(from) || E.isLeft(to)) throw new Error('seed');
    const f = fake.items.addFile(from.right.Id, 'report.pdf', new TextEncoder().encode('p'), { overwrite: false });
    if (E.isLeft(f)) throw new Error('seed');
    try {
      fake.copyLandsAs = 'report (2).pdf';
      const renamed = await items.copy(f.right.item.Id, to.right.Id, false)();
      if (E.isLeft(renamed) || renamed.right.kind !== 'done') throw new Error('copy failed');
      expect(renamed.right.item.Name).toBe('report (2).pdf');
      // the copy is not listed yet, and another file is the newest in the target: it is not the copy
      fake.copyLandsAs = '';
      const to2 = await items.createFolder('home', { name: 'CopyTo42b', overwrite: false })();
      if (E.isLeft(to2)) throw new Error('seed');
      clock.advance(60_000);
      const other = fake.items.addFile(to2.right.Id, 'notes.txt', new TextEncoder().encode('n'), { overwrite: false });
      if (E.isLeft(other)) throw new Error('seed');
      const unseen = await items.copy(f.right.item.Id, to2.right.Id, false)();
      if (E.isLeft(unseen)) throw new Error(unseen.left.message);
      expect(unseen.right).toEqual({
        kind: 'unseen',
        itemId: f.right.item.Id,
        name: 'report.pdf',
        targetId: to2.right.Id,
      });
    } finally {
      fake.copyLandsAs = undefined;
    }
    expect(fake.violations).toEqual([]);
  });

  it('moves with overwrite by deleting the clash first; PATCH carries no overwrite', async () => {
    const a = await items.createFolder('home', { name: 'MoveA', overwrite: false })();
    const b = await items.createFolder('home', { name: 'MoveB', overwrite: false })();
    if (E.isLeft(a) || E.isLeft(b)) throw new Error('seed');
    const mover = fake.items.addFile(a.right.Id, 'same.txt', new TextEncoder().encode('new'), { overwrite: false });
    const clash = fake.items.addFile(b.right.Id, 'same.txt', new TextEncoder().encode('old'), { overwrite: false });
    if (E.isLeft(mover) || E.isLeft(clash)) throw new Error('seed');
    const refused = await items.move(mover.right.item.Id, b.right.Id, false)();
    expect(E.isLeft(refused) && refused.left._tag).toBe('Conflict');
    const moved = await items.move(mover.right.item.Id, b.right.Id, true)();
    expect(E.isRight(moved) && moved.right.kind).toBe('done');
    const calls = fake.requests.slice(-4).map((r) => `${r.method} ${r.path}`);
    expect(calls).toEqual([
      `GET /sf/v3/Items(${mover.right.item.Id})`,
      `GET /sf/v3/Items(${b.right.Id})/Children`,
      `DELETE /sf/v3/Items(${clash.right.item.Id})`,
      `PATCH /sf/v3/Items(${mover.right.item.Id})`,
    ]);
    expect(fake.requests.filter((r) => r.method === 'PATCH').every((r) => !r.query.has('overwrite'))).toBe(true);
    expect(fake.violations).toEqual([]);
  });

  it("takes a download link from a 302's Location when the provider redirects anyway", async () => {
    const f = fake.items.addFile(fake.items.homeId, 'redirected.txt', new TextEncoder().encode('r'), {
      overwrite: false,
    });
    if (E.isLeft(f)) throw new Error('seed');
    fake.redirectDownloads = true;
    try {
      const r = await items.downloadLink(f.right.item.Id, { includeAllVersions: false })();
      if (E.isLeft(r)) throw new Error(r.left.message);
      expect(r.right.DownloadUrl).toBe(`${fake.url}/download/${f.right.item.Id}`);
    } finally {
      fake.redirectDownloads = false;
    }
  });

  it('asks for notification on use as Settings.NotifyOnUse, and a resend carries it', async () => {
    const f = fake.items.addFile(fake.items.homeId, 'notify.txt', new TextEncoder().encode('n'), { overwrite: false });
    if (E.isLeft(f)) throw new Error('seed');
    const s = await shares.create({
      shareType: 'Send',
      itemIds: [f.right.item.Id],
      maxDownloads: -1,
      requireLogin: false,
      requireUserInfo: false,
      isViewOnly: false,
      notifyOnDownload: true,
      notifyOnUpload: false,
      recipients: [],
    })();
    if (E.isLeft(s)) throw new Error(s.left.message);
    expect(fake.requests.at(-1)!.body).toMatchObject({ Settings: { NotifyOnUse: true } });
    expect(s.right.NotifyOnDownload).toBe(true);
    await notifier.notify({ share: s.right, recipients: ['bo@example.com'], ccSender: false })();
    expect(fake.resends.at(-1)).toMatchObject({ ShareId: s.right.Id, NotifyOnUse: true });
    expect(fake.violations).toEqual([]);
  });

  it('writes a file by a Standard upload to its ChunkUri and reads it back through its download address', async () => {
    const contents = new ShareFileFileContents(
      items,
      new UrlFetchGuard({ maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivate: true }),
      { apiBaseUrl: fake.apiBaseUrl, timeoutMs: 5000 },
    );
    const written = await contents.write(
      'home',
      'contents.txt',
      new TextEncoder().encode('hello sharefile\n'),
      false,
    )();
    if (E.isLeft(written)) throw new Error(written.left.message);
    expect(written.right.Name).toBe('contents.txt');
    const paths = fake.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain('POST /sf/v3/Items(home)/Upload2');
    expect(paths.some((p) => /^POST \/files\/transfer\/upload\/[^/]+\/chunk$/.test(p))).toBe(true);
    const read = await contents.read(written.right.Id, 1024)();
    if (E.isLeft(read)) throw new Error(read.left.message);
    expect(new TextDecoder().decode(read.right.bytes)).toBe('hello sharefile\n');
    const tooBig = await contents.read(written.right.Id, 4)();
    expect(E.isLeft(tooBig) && tooBig.left).toMatchObject({ _tag: 'InvalidInput', parameter: 'item_id' });
    const guarded = new ShareFileFileContents(
      items,
      new UrlFetchGuard({ maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivate: false }),
      { apiBaseUrl: fake.apiBaseUrl, timeoutMs: 5000 },
    );
    // the download address is fetched through the one URL guard: a loopback address is refused by default
    const blocked = await guarded.read(written.right.Id, 1024)();
    expect(E.isLeft(blocked)).toBe(true);
    expect(fake.violations).toEqual([]);
  });

  it('the stand-in rejects a body that departs from the published example', async () => {
    const client = new ShareFileClient({
      apiBaseUrl: fake.apiBaseUrl,
      timeoutMs: 5000,
      tokens: { accessToken: async () => E.right('sf-static-token'), invalidate: () => undefined },
    });
    const r = await client.send({ method: 'POST', path: '/Items(home)/Folder', body: { Name: 'x', Colour: 'red' } });
    expect(E.isLeft(r)).toBe(true);
    expect(fake.violations.at(-1)?.problems).toEqual(['Colour: not a member of the documented request']);
    fake.violations.length = 0;
  });

  it('uses unchanged copies of the shared ShareFile examples', () => {
    const shared = path.resolve(import.meta.dirname, '../../../../shared/vendor-specs/sharefile/examples');
    if (!existsSync(shared)) return;
    for (const name of readdirSync(shared))
      expect(readFileSync(path.join(EXAMPLES_DIR, name), 'utf8'), name).toBe(
        readFileSync(path.join(shared, name), 'utf8'),
      );
  });
});
