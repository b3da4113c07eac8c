import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { ShareFileItemStore } from '../../../adapters/outbound/sharefile/sharefile-item-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { E } from '../../../domain/shared/fp.js';
import { shareFileTestClient, startShareFileServer, type ShareFileStandIn } from '../../fakes/sharefile-server.js';

// Issue 31, doubtful points: requests shaped as the official .NET SDK shapes them (citrix/ShareFile-NET @
// 679b331). A POST without a body goes out as `new StringContent("")` (BaseRequestProvider.cs), that is an
// empty text/plain body, never a form; request bodies are serialised with NullValueHandling.Ignore
// (ShareFileClient.cs), so a search leaves out the members it does not use.

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

describe('ShareFile requests as the SDK sends them', () => {
  const clock = new FixedClock(new Date('2026-11-27T10:00:00.000Z'));
  let fake: ShareFileStandIn;
  let items: ShareFileItemStore;
  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
    const client = shareFileTestClient(fake, clock);
    items = new ShareFileItemStore({ client, maxUploadBytes: 1024 * 1024 });
  });
  afterAll(() => fake.close());

  it('sends a bodiless POST (Copy) with an empty text/plain body, not a form', async () => {
    const a = await items.createFolder('home', { name: 'copy source', overwrite: false })();
    const b = await items.createFolder('home', { name: 'copy target', overwrite: false })();
    if (E.isLeft(a) || E.isLeft(b)) throw new Error('folders');
    const file = fake.items.addFile(a.right.Id, 'c.txt', new TextEncoder().encode('c'), { overwrite: false });
    if (file._tag === 'Left') throw new Error('file');
    const r = await items.copy(file.right.item.Id, b.right.Id, true)();
    expect(E.isRight(r)).toBe(true);
    const copy = fake.requests.find((q) => q.method === 'POST' && q.path.endsWith('/Copy'));
    expect(copy?.headers['content-type']).not.toMatch(/x-www-form-urlencoded/);
    expect(copy?.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(copy?.headers['content-length']).toBe('0');
  });

  it('leaves the search members it does not use out of the body', async () => {
    const r = await items.search({ query: 'report', scope: 'all', namesOnly: false, top: 10 })();
    expect(E.isRight(r)).toBe(true);
    const sent = fake.requests.filter((q) => q.path.endsWith('/Items/AdvancedSimpleSearch')).at(-1);
    const query = (sent?.body as { Query: Record<string, unknown> }).Query;
    expect(query).toEqual({ SearchQuery: 'report', ItemNameOnly: false });
    expect(fake.violations).toEqual([]);
  });
});
