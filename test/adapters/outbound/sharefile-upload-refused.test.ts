import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { UrlFetchGuard } from '../../../adapters/outbound/http/url-fetch-guard.js';
import { ShareFileFileContents } from '../../../adapters/outbound/sharefile/sharefile-file-contents.js';
import { ShareFileItemStore } from '../../../adapters/outbound/sharefile/sharefile-item-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { E } from '../../../domain/shared/fp.js';
import { shareFileTestClient, startShareFileServer, type ShareFileStandIn } from '../../fakes/sharefile-server.js';

// Issue 31 (WRONG): ShareFile's storage host refuses an upload with HTTP 200 and a body that says so. The
// official .NET SDK asks for `fmt=json` on the ChunkUri and reads `error`/`errorMessage` (UploaderBase.cs);
// the adapter does the same, and takes the new file's id from `value`.

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

describe('ShareFile uploads the storage host refuses', () => {
  const clock = new FixedClock(new Date('2026-11-27T10:00:00.000Z'));
  let fake: ShareFileStandIn;
  let contents: ShareFileFileContents;
  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
    const client = shareFileTestClient(fake, clock);
    const items = new ShareFileItemStore({ client, maxUploadBytes: 1024 * 1024 });
    contents = new ShareFileFileContents(
      items,
      new UrlFetchGuard({ maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivate: true }),
      { apiBaseUrl: fake.apiBaseUrl, timeoutMs: 5000 },
    );
  });
  afterAll(() => fake.close());

  it('asks for fmt=json and takes the stored file from the answer', async () => {
    const r = await contents.write('home', 'json.txt', new TextEncoder().encode('one'), false)();
    if (E.isLeft(r)) throw new Error(r.left.message);
    const chunk = fake.requests.find((q) => q.path.endsWith('/chunk'))!;
    expect(chunk.query.get('fmt')).toBe('json');
    expect(r.right.Name).toBe('json.txt');
  });

  it('overwrite false: no folder listing before the upload when the storage answer names the file (issue 42)', async () => {
    const before = fake.requests.length;
    const r = await contents.write('home', 'once.txt', new TextEncoder().encode('one'), false)();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right.Name).toBe('once.txt');
    const calls = fake.requests.slice(before).map((q) => `${q.method} ${q.path}`);
    expect(calls.filter((c) => c.endsWith('/Children'))).toEqual([]);
    expect(calls.filter((c) => c.startsWith('POST') && c.endsWith('/Upload2'))).toHaveLength(1);
  });

  it("appends fmt=json to the ChunkUri as it came, leaving the storage host's own query as it was (issue 42)", async () => {
    // a storage host's signed parameter that URL re-serialisation would re-encode (`%20`, `:`, `/`, `=`)
    fake.chunkUriSuffix = '&h=a%20b:c/d=e';
    try {
      const r = await contents.write('home', 'raw-query.txt', new TextEncoder().encode('one'), false)();
      if (E.isLeft(r)) throw new Error(r.left.message);
    } finally {
      fake.chunkUriSuffix = '';
    }
    const chunk = fake.requests.filter((q) => q.path.endsWith('/chunk')).at(-1)!;
    expect(chunk.raw).toMatch(/&h=a%20b:c\/d=e&fmt=json$/);
  });

  it('an overwrite the storage host refuses is an error, not the old file', async () => {
    const first = await contents.write('home', 'report.txt', new TextEncoder().encode('version 1'), false)();
    if (E.isLeft(first)) throw new Error(first.left.message);
    fake.refuseUploads = 'Storage quota exceeded';
    try {
      const again = await contents.write('home', 'report.txt', new TextEncoder().encode('version 2'), true)();
      expect(E.isLeft(again)).toBe(true);
      if (E.isLeft(again)) {
        expect(again.left._tag).toBe('UpstreamFailure');
        expect(again.left.message).toContain('Storage quota exceeded');
      }
      const fresh = await contents.write('home', 'new.txt', new TextEncoder().encode('x'), false)();
      expect(E.isLeft(fresh) && fresh.left.message).toContain('Storage quota exceeded');
    } finally {
      fake.refuseUploads = undefined;
    }
    expect(fake.violations).toEqual([]);
  });
});

describe('ShareFile file versions read a page at a time', () => {
  const clock = new FixedClock(new Date('2026-11-27T10:00:00.000Z'));
  let fake: ShareFileStandIn;
  let contents: ShareFileFileContents;
  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
    const client = shareFileTestClient(fake, clock);
    contents = new ShareFileFileContents(
      new ShareFileItemStore({ client, maxUploadBytes: 1024 * 1024 }),
      new UrlFetchGuard({ maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivate: true }),
      { apiBaseUrl: fake.apiBaseUrl, timeoutMs: 5000 },
    );
  });
  afterAll(() => fake.close());

  const downloads = () => fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/files/transfer/'));

  it('downloads a version once for ten reads, and again once it changes', async () => {
    const file = fake.items.addFile('home', 'long.txt', new TextEncoder().encode('page '.repeat(1000)), {
      overwrite: false,
    });
    if (E.isLeft(file)) throw new Error('seed');
    const id = file.right.item.Id;
    const before = downloads().length;
    for (let i = 0; i < 10; i++) {
      const r = await contents.read(id, 1024 * 1024)();
      if (E.isLeft(r)) throw new Error(r.left.message);
      expect(r.right.bytes.byteLength).toBe(5000);
    }
    expect(downloads().length - before).toBe(1);
    // each read still asks ShareFile for the item (its version and the caller's access): one call
    expect(fake.requests.filter((r) => r.path === `/sf/v3/Items(${id})`).length).toBe(10);
    const v2 = fake.items.addFile('home', 'long.txt', new TextEncoder().encode('new version'), { overwrite: true });
    if (E.isLeft(v2)) throw new Error('seed');
    const r = await contents.read(v2.right.item.Id, 1024 * 1024)();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(new TextDecoder().decode(r.right.bytes)).toBe('new version');
    expect(downloads().length - before).toBe(2);
  });
});
