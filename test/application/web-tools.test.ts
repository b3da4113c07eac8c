import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READER_TOKEN, post, request, testGateway } from '../support/gateway.js';
import { startWebSite, type WebSite } from '../fakes/web-site.js';
import { loadConfig } from '../../composition/config.js';

// The web group through the gateway: memory mode works offline (the demo site and index), loopback is
// refused by default, and with WEB_FETCH_ALLOW_PRIVATE a long page is read in parts by following the
// named calls.

let site: WebSite;
beforeAll(async () => {
  site = await startWebSite();
});
afterAll(() => site.close());

describe('web_search and web_fetch in memory mode', () => {
  it('finds a demo page and reads it, from the search answer alone', async () => {
    const g = testGateway();
    const found = await post(g, '/v1/tools/web/search', { query: 'Rosegold Realty broker' });
    expect(found.status).toBe(200);
    const next = /Read one: web_fetch (\{.*\})/.exec(found.body.data as string);
    expect(next).not.toBeNull();
    const read = await post(g, '/v1/tools/call', { name: 'web_fetch', arguments: JSON.parse(next![1]!) });
    expect(read.status).toBe(200);
    expect(read.body.data).toContain('Maria Alvarez');
    expect(read.body.data).not.toContain('Sponsored');
    expect(read.body.data).toMatch(/\*\*Type:\*\* text\/html/);
  });

  it('refuses a loopback URL by default, saying why', async () => {
    const g = testGateway();
    const r = await post(g, '/v1/tools/web/fetch', { url: `${site.base}/article` });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('url');
    expect(r.body.error.message).toContain('loopback');
    expect(r.body.error.message).toContain('WEB_FETCH_ALLOW_PRIVATE');
  });

  it('needs web:read', async () => {
    const g = testGateway();
    const r = await request(g, 'POST', '/v1/tools/web/search', { body: { query: 'x' }, token: READER_TOKEN });
    expect(r.status).toBe(403);
    expect(r.body.error.details.permission).toBe('web:read');
  });

  it('has its own, lower rate limit', async () => {
    const g = testGateway();
    const r = await post(g, '/v1/tools/web/search', { query: 'harbor' });
    expect(r.headers.get('ratelimit-limit')).toBe('60');
  });
});

describe('the web tools on every surface', () => {
  it('are listed (with dialects), described in OpenAPI and on /docs, with web:read', async () => {
    const g = testGateway();
    const listed = await request(g, 'GET', '/v1/tools?groups=web', { token: null });
    expect(listed.body.data.tools.map((t: any) => [t.name, t.permission, t.readOnlyHint])).toEqual([
      ['web_fetch', 'web:read', true],
      ['web_search', 'web:read', true],
    ]);
    const anthropic = await request(g, 'GET', '/v1/tools?dialect=anthropic', { token: null });
    expect(anthropic.body.data.tools.map((t: any) => t.name)).toEqual(
      expect.arrayContaining(['web_fetch', 'web_search']),
    );
    const openapi = await request(g, 'GET', '/openapi.json', { token: null });
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(['/v1/tools/web/fetch', '/v1/tools/web/search']),
    );
    const docs = await request(g, 'GET', '/docs', { token: null });
    expect(docs.status).toBe(200);
  });
});

describe('web configuration', () => {
  it('reads per-tenant host lists, and names the variable when they are malformed', () => {
    const good = loadConfig({
      WEB_FETCH_TENANT_HOSTS: '{"acme": {"deny": ["ads.example"], "allow": ["*.acme.example"]}}',
    });
    expect(good._tag === 'Right' && (good.right.groups['web'] as any).tenantHosts).toEqual({
      acme: { deny: ['ads.example'], allow: ['*.acme.example'] },
    });
    for (const bad of ['[1]', '{"no:colon": {}}', '{"acme": {"deny": ["bad host"]}}', 'not json']) {
      const r = loadConfig({ WEB_FETCH_TENANT_HOSTS: bad });
      expect(r._tag, bad).toBe('Left');
      expect(JSON.stringify(r)).toContain('WEB_FETCH_TENANT_HOSTS');
    }
  });
});

describe('web_fetch with WEB_FETCH_ALLOW_PRIVATE=true', () => {
  it('reads a long document in parts, each naming the next, every character once', async () => {
    const g = testGateway({}, { WEB_FETCH_ALLOW_PRIVATE: 'true' });
    const whole = await post(g, '/v1/tools/web/fetch?format=json', { url: `${site.base}/long`, max_chars: 10000 });
    const text = whole.body.data.text as string;
    expect(text.length).toBeGreaterThan(3000);
    expect(text).not.toContain('NAVIGATION-LINK-TEXT');
    let args: Record<string, unknown> | undefined = { url: `${site.base}/long`, max_chars: 1000 };
    const parts: string[] = [];
    for (let i = 0; args && i < 20; i++) {
      const r = await post(g, '/v1/tools/call?format=json', {
        name: 'web_fetch',
        arguments: { ...args, max_chars: 1000 },
      });
      parts.push(r.body.data.text);
      const offset = r.body.data.next_offset as number | null;
      args = offset === null ? undefined : { url: `${site.base}/long`, offset };
    }
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.join('')).toBe(text);
    // A response budget below the part size: the part shrinks to fit, and the call for the next part stays.
    const small = await post(g, '/v1/tools/web/fetch?max_chars=1200', { url: `${site.base}/long` });
    expect((small.body.data as string).length).toBeLessThanOrEqual(1200);
    expect(small.body.data).toMatch(/Next part: web_fetch \{"url":".*","offset":\d+\}/);
    const firstText = await post(g, '/v1/tools/web/fetch', { url: `${site.base}/long`, max_chars: 1000 });
    if (text.length > 1000)
      expect(firstText.body.data).toMatch(/Next part: web_fetch \{"url":".*","offset":\d+,"max_chars":1000\}/);
  });
});
