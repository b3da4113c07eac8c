import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { UrlFetchGuard } from '../../../adapters/outbound/http/url-fetch-guard.js';
import { GuardedWebReader } from '../../../adapters/outbound/web/guarded-web-reader.js';
import { InMemorySharedCache } from '../../../adapters/outbound/memory/in-memory-shared-cache.js';
import { ParserPool } from '../../../adapters/outbound/documents/parser-pool.js';
import { startWebSite, type WebSite } from '../../fakes/web-site.js';

// web_fetch's reader against a loopback site (allowed here with allowPrivate, as WEB_FETCH_ALLOW_PRIVATE
// does): the article without its furniture, redirects, limits, PDF, charsets, robots.txt and the cache.

let site: WebSite;
const parser = new ParserPool({ threads: 1 });
const clock = new FixedClock(new Date('2026-11-21T10:00:00Z'));
const guard = (o: { allowPrivate?: boolean; maxBytes?: number; timeoutMs?: number } = {}) =>
  new UrlFetchGuard({
    maxBytes: o.maxBytes ?? 5_242_880,
    timeoutMs: o.timeoutMs ?? 5000,
    allowPrivate: o.allowPrivate ?? true,
    maxRedirects: 5,
    userAgent: 'ToolGateway/test',
  });
const reader = (
  o: Parameters<typeof guard>[0] & {
    allowHosts?: string[];
    denyHosts?: string[];
    robots?: boolean;
    tenantHosts?: Record<string, { allow?: string[]; deny?: string[] }>;
    cache?: InMemorySharedCache;
  } = {},
) =>
  new GuardedWebReader({
    fetcher: guard(o),
    clock,
    allowHosts: o.allowHosts ?? [],
    denyHosts: o.denyHosts ?? [],
    tenantHosts: o.tenantHosts,
    cache: o.cache ?? new InMemorySharedCache(),
    respectRobots: o.robots ?? true,
    robotsAgent: 'ToolGateway',
    parser,
  });
const read = async (r: GuardedWebReader, path: string, principal = 'caller', tenant = 'default') => {
  const out = await r.read(`${site.base}${path}`, { tenant, principal })();
  return out;
};
const ok = async (r: GuardedWebReader, path: string) => {
  const out = await read(r, path);
  if (out._tag === 'Left') throw new Error(out.left.message);
  return out.right;
};
const refusal = async (r: GuardedWebReader, path: string) => {
  const out = await read(r, path);
  if (out._tag === 'Right') throw new Error(`expected a refusal for ${path}`);
  return out.left.message;
};

beforeAll(async () => {
  site = await startWebSite();
});
afterAll(async () => {
  await site.close();
  await parser.close();
});

describe('reading pages', () => {
  it('keeps the article and drops navigation, ads, scripts and footer', async () => {
    const page = await ok(reader(), '/article');
    expect(page.kind).toBe('html');
    expect(page.title).toContain('County assessor');
    expect(page.text).toContain('two-family residence built in 1928');
    expect(page.text).toContain('last recorded sale was in 2011');
    for (const clutter of ['TRACKING-SCRIPT-TEXT', 'NAVIGATION-LINK-TEXT', 'ADVERTISEMENT-TEXT', 'FOOTER-TEXT', '.x{'])
      expect(page.text).not.toContain(clutter);
  });

  it('follows a redirect chain and names the final URL; stops a loop', async () => {
    const page = await ok(reader(), '/hop1');
    expect(page.finalUrl).toBe(`${site.base}/article`);
    expect(page.text).toContain('two-family residence');
    expect(await refusal(reader(), '/loop')).toContain('redirects more than 5 times');
  });

  it('reads a PDF as text, JSON as it is, and a windows-1252 page in its charset', async () => {
    const pdf = await ok(reader(), '/contract.pdf');
    expect(pdf.kind).toBe('pdf');
    expect(pdf.text).toContain('Purchase agreement for 10 Harbor Way');
    const json = await ok(reader(), '/data.json');
    expect(JSON.parse(json.text)).toEqual({ parcel: '025-0100-007', value: 612000 });
    const cafe = await ok(reader(), '/cafe');
    expect(cafe.text).toContain('Le café coûte 3 €');
    expect(cafe.text).toContain('crème brûlée');
  });

  it('says what an image is instead of reading it', async () => {
    const png = await ok(reader(), '/photo.png');
    expect(png).toMatchObject({ kind: 'binary', contentType: 'image/png', bytes: 2048, text: '' });
  });
});

describe('limits', () => {
  it('refuses a body over the size limit, a slow answer past the time limit, and a 404', async () => {
    expect(await refusal(reader({ maxBytes: 1_000_000 }), '/big')).toContain('larger than');
    expect(await refusal(reader({ timeoutMs: 500 }), '/slow')).toMatch(/within 500 ms/);
    expect(await refusal(reader(), '/missing')).toContain('HTTP 404');
  });

  it('refuses loopback addresses unless allowed', async () => {
    expect(await refusal(reader({ allowPrivate: false }), '/article')).toMatch(
      /loopback.*WEB_FETCH_ALLOW_PRIVATE|loopback/,
    );
  });

  it('honours the deny and allow lists, and robots.txt', async () => {
    expect(await refusal(reader({ denyHosts: ['127.0.0.1'] }), '/article')).toContain('deny list');
    expect(await refusal(reader({ allowHosts: ['example.com'] }), '/article')).toContain('allow list');
    expect(await refusal(reader(), '/private/notes')).toContain('robots.txt');
    const perTenant = reader({ tenantHosts: { acme: { deny: ['127.0.0.1'] } } });
    expect((await read(perTenant, '/article', 'p', 'acme'))._tag).toBe('Left');
    expect((await read(perTenant, '/article', 'p', 'globex'))._tag).toBe('Right');
    expect((await ok(reader({ robots: false }), '/private/notes')).text).toBe('robots say no');
  });

  it('runs at most three fetches at once per caller', async () => {
    const r = reader({ timeoutMs: 5000 });
    const running = [1, 2, 3].map(() => read(r, '/slow', 'busy'));
    const fourth = await read(r, '/article', 'busy');
    expect(fourth._tag).toBe('Left');
    expect(fourth._tag === 'Left' && fourth.left.message).toContain('At most 3 web fetches');
    expect((await read(r, '/article', 'other'))._tag).toBe('Right');
    await Promise.all(running);
    expect((await read(r, '/article', 'busy'))._tag).toBe('Right');
  });
});

describe('the page cache', () => {
  it('answers a re-read from the cache, then revalidates with If-None-Match', async () => {
    const cache = new InMemorySharedCache();
    const r = reader({ cache });
    const before = site.hits.get('/etag') ?? 0;
    expect((await ok(r, '/etag')).cached).toBe(false);
    expect((await ok(r, '/etag')).cached).toBe(true);
    expect(site.hits.get('/etag')).toBe(before + 1);
    clock.advance(120_000);
    const again = await ok(r, '/etag');
    expect(again.cached).toBe(true);
    expect(again.text).toBe('Versioned text that rarely changes.');
    expect(site.hits.get('/etag')).toBe(before + 2);
    // Another instance sharing the cache (Redis in production) revalidates instead of downloading.
    clock.advance(120_000);
    const other = reader({ cache });
    expect((await ok(other, '/etag')).cached).toBe(true);
    expect(site.hits.get('/etag')).toBe(before + 3);
  });
});
