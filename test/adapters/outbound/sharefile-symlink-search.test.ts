import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { UrlFetchGuard } from '../../../adapters/outbound/http/url-fetch-guard.js';
import type { ShareFileClient } from '../../../adapters/outbound/sharefile/sharefile-client.js';
import { ShareFileItemStore } from '../../../adapters/outbound/sharefile/sharefile-item-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import type { Item } from '../../../domain/files/item.js';
import { E } from '../../../domain/shared/fp.js';
import { shareFileTestClient, startShareFileServer, type ShareFileStandIn } from '../../fakes/sharefile-server.js';

// Issue 31, doubtful points. A symbolic-link folder's `Items(id)/Children` answers 302 to the remote
// connector's children (ShareFile-NET ItemsEntity.GetChildren remarks): the listing follows it once, with the
// token only on the account's API host, through the URL fetch guard elsewhere. A search scoped by an alias
// (`home`, `allshared`) sends the folder id `GET Items(alias)` answers, kept per connection.

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

const listing = { top: 50, skip: 0, includeDeleted: false, orderBy: [] };

describe('ShareFile symbolic-link folders', () => {
  const clock = new FixedClock(new Date('2026-11-27T10:00:00.000Z'));
  let fake: ShareFileStandIn;
  let port: string;
  /** The folder the link points at (the remote connector's content), and the link itself. */
  let target: Item;
  let link: Item;
  let client: ShareFileClient;
  const storeWith = (fetcher?: UrlFetchGuard) =>
    new ShareFileItemStore({
      client,
      maxUploadBytes: 1024 * 1024,
      ...(fetcher ? { fetcher } : {}),
    });
  /** The stand-in's remote connector under another host name (resolved to the stand-in's loopback address). */
  const connectorGuard = () =>
    new UrlFetchGuard({
      maxBytes: 1024 * 1024,
      timeoutMs: 5000,
      allowPrivate: true,
      maxRedirects: 0,
      resolve: async () => ['127.0.0.1'],
    });

  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
    // one client (its stored refresh token rotates), several stores on it
    client = shareFileTestClient(fake, clock);
    port = new URL(fake.url).port;
    const t = await fake.items.createFolder('home', { name: 'connector content', overwrite: false })();
    const l = await fake.items.createFolder('home', { name: 'linked share', overwrite: false })();
    if (E.isLeft(t) || E.isLeft(l)) throw new Error('folders');
    [target, link] = [t.right, l.right];
    for (const name of ['remote-a.txt', 'remote-b.txt'])
      if (E.isLeft(fake.items.addFile(target.Id, name, new TextEncoder().encode(name), { overwrite: false })))
        throw new Error('file');
  });
  afterAll(() => fake.close());

  it('follows a 302 on the API host with the token', async () => {
    fake.symlinks.set(link.Id, `${fake.apiBaseUrl}/Items(${target.Id})/Children`);
    const r = await storeWith().children(link.Id, listing)();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right.folderId).toBe(link.Id);
    expect(r.right.items.map((i) => i.Name).sort()).toEqual(['remote-a.txt', 'remote-b.txt']);
    expect(r.right.totalCount).toBe(2);
    const hop = fake.requests.filter((q) => q.path === `/sf/v3/Items(${target.Id})/Children`).at(-1)!;
    expect(hop.headers.authorization).toMatch(/^Bearer /);
    // the listing's OData options are carried to the Location
    expect(hop.query.get('$top')).toBe('50');
  });

  it('follows a 302 to a remote connector on another host through the guard, without the token', async () => {
    fake.symlinks.set(link.Id, `http://connector.example:${port}/cifs/v3/Items(${target.Id})/Children`);
    const r = await storeWith(connectorGuard()).children(link.Id, listing)();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right.items.map((i) => i.Name).sort()).toEqual(['remote-a.txt', 'remote-b.txt']);
    const hop = fake.requests.filter((q) => q.path.startsWith('/cifs/v3/')).at(-1)!;
    expect(hop.headers.host).toBe(`connector.example:${port}`);
    expect(hop.headers.authorization).toBeUndefined();
  });

  it('refuses a Location on a private or loopback host through the guard', async () => {
    const guard = new UrlFetchGuard({ maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivate: false, maxRedirects: 0 });
    for (const location of [
      'http://10.0.0.7/cifs/v3/Items(fo1)/Children',
      `http://127.0.0.1:${Number(port) === 1 ? 2 : 1}/cifs/v3/Items(fo1)/Children`,
    ]) {
      fake.symlinks.set(link.Id, location);
      const before = fake.requests.length;
      const r = await storeWith(guard).children(link.Id, listing)();
      expect(E.isLeft(r)).toBe(true);
      if (E.isLeft(r)) {
        expect(r.left._tag).toBe('UpstreamFailure');
        expect(r.left.message).toContain(`Folder ${link.Id} is a symbolic link`);
        expect(r.left.message).toMatch(/loopback, private, link-local or reserved address/);
      }
      // only the listing itself reached the stand-in
      expect(fake.requests.slice(before).map((q) => q.path)).toEqual([`/sf/v3/Items(${link.Id})/Children`]);
    }
  });

  it('without a guard, a Location off the API host is not followed', async () => {
    fake.symlinks.set(link.Id, `http://connector.example:${port}/cifs/v3/Items(${target.Id})/Children`);
    const before = fake.requests.length;
    const r = await storeWith().children(link.Id, listing)();
    expect(E.isLeft(r) && r.left.message).toContain('on another host');
    expect(fake.requests.slice(before).map((q) => q.path)).toEqual([`/sf/v3/Items(${link.Id})/Children`]);
  });

  it('follows one redirect, not a second', async () => {
    const second = await fake.items.createFolder('home', { name: 'link to link', overwrite: false })();
    if (E.isLeft(second)) throw new Error('folder');
    fake.symlinks.set(second.right.Id, `${fake.apiBaseUrl}/Items(${link.Id})/Children`);
    fake.symlinks.set(link.Id, `${fake.apiBaseUrl}/Items(${target.Id})/Children`);
    const r = await storeWith().children(second.right.Id, listing)();
    expect(E.isLeft(r) && r.left.message).toContain('redirected again; the gateway follows one redirect');
  });

  it('never sends the token off the API host, even when asked for an absolute URL', async () => {
    const before = fake.requests.length;
    const r = await client.send({ method: 'GET', path: `http://connector.example:${port}/sf/v3/Items(home)` });
    expect(E.isLeft(r) && r.left.message).toContain("to the account's API host only");
    expect(fake.requests.length).toBe(before);
  });
});

describe('ShareFile search scoped by an alias', () => {
  const clock = new FixedClock(new Date('2026-11-27T10:00:00.000Z'));
  let fake: ShareFileStandIn;
  let items: ShareFileItemStore;
  let client: ShareFileClient;
  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
    client = shareFileTestClient(fake, clock);
    items = new ShareFileItemStore({ client, maxUploadBytes: 1024 * 1024 });
  });
  afterAll(() => fake.close());

  const apiCalls = () => fake.requests.filter((q) => q.path.startsWith('/sf/v3/'));
  const lastSearch = () =>
    (
      apiCalls()
        .filter((q) => q.path.endsWith('/Items/AdvancedSimpleSearch'))
        .at(-1)?.body as {
        Query: Record<string, unknown>;
      }
    ).Query;

  it('resolves home to its folder id once, then searches in one call', async () => {
    const before = apiCalls().length;
    const cold = await items.search({ query: 'report', scope: 'personal', namesOnly: false, top: 10 })();
    if (E.isLeft(cold)) throw new Error(cold.left.message);
    expect(
      apiCalls()
        .slice(before)
        .map((q) => `${q.method} ${q.path}`),
    ).toEqual(['GET /sf/v3/Items(home)', 'POST /sf/v3/Items/AdvancedSimpleSearch']);
    expect(lastSearch()['ParentID']).toBe(fake.items.homeId);
    const warm = apiCalls().length;
    const again = await items.search({ query: 'other', scope: 'personal', namesOnly: false, top: 10 })();
    expect(E.isRight(again)).toBe(true);
    expect(
      apiCalls()
        .slice(warm)
        .map((q) => `${q.method} ${q.path}`),
    ).toEqual(['POST /sf/v3/Items/AdvancedSimpleSearch']);
    expect(lastSearch()['ParentID']).toBe(fake.items.homeId);
    expect(fake.violations).toEqual([]);
  });

  it('resolves a folder given as an alias, and sends a folder id as it is', async () => {
    const before = apiCalls().length;
    await items.search({ query: 'x', scope: 'all', folderId: 'allshared', namesOnly: false, top: 10 })();
    expect(apiCalls().slice(before)[0]!.path).toBe('/sf/v3/Items(allshared)');
    // the stand-in's shared folders are a virtual folder whose id is the alias itself
    expect(lastSearch()['ParentID']).toBe('allshared');
    const mid = apiCalls().length;
    await items.search({ query: 'x', scope: 'all', folderId: 'fo-given', namesOnly: false, top: 10 })();
    expect(
      apiCalls()
        .slice(mid)
        .map((q) => q.path),
    ).toEqual(['/sf/v3/Items/AdvancedSimpleSearch']);
    expect(lastSearch()['ParentID']).toBe('fo-given');
  });

  it('keeps the resolved id per connection', async () => {
    const fresh = new ShareFileItemStore({ client, maxUploadBytes: 1024 * 1024 });
    const before = apiCalls().length;
    await fresh.search({ query: 'y', scope: 'personal', namesOnly: false, top: 10 })();
    expect(
      apiCalls()
        .slice(before)
        .map((q) => q.path),
    ).toContain('/sf/v3/Items(home)');
  });
});
