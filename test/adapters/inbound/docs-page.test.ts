import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { request, testGateway } from '../../support/gateway.js';

// The reference page as served (no browser needed): headers, the asset links, and the assets themselves.
describe('GET /docs', () => {
  const gateway = testGateway();

  const page = () => request(gateway, 'GET', '/docs', { token: null });
  const assetPaths = (html: string) =>
    [...html.matchAll(/(?:src|href)="(docs\/assets\/[^"]+)"/g)].map((m) => `/${m[1]!}`);

  it('serves an HTML page without a token, with a policy that allows only its own assets', async () => {
    const r = await page();
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.raw).toContain('<label for="token">Bearer token</label>');
  });

  it('says how to connect over MCP: the /mcp URL, a bearer header or OAuth sign-in, and docs/clients.md', async () => {
    const { raw } = await page();
    const section = /<details[^>]*id="mcp"[^>]*>([\s\S]*?)<\/details>/.exec(raw)?.[1] ?? '';
    expect(section).toContain('<summary>Connect over MCP</summary>');
    expect(section).toContain('<code>/mcp</code>');
    expect(section).toContain('Authorization: Bearer');
    expect(section).toMatch(/OAuth/);
    expect(section).toContain('docs/clients.md');
  });

  it('loads nothing from another origin and has no inline script or style', async () => {
    const { raw } = await page();
    expect(raw).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    expect(raw).not.toMatch(/<script>|<script [^>]*>[^<]+<\/script>|<style|style="/);
    expect(assetPaths(raw)).toHaveLength(2);
  });

  it('serves the script and the stylesheet it links, under content-hashed names', async () => {
    const { raw } = await page();
    const [script, style] = [
      assetPaths(raw).find((p) => p.endsWith('.js'))!,
      assetPaths(raw).find((p) => p.endsWith('.css'))!,
    ];
    expect(script).toMatch(/^\/docs\/assets\/docs\.[0-9a-f]{12}\.js$/);
    const js = await request(gateway, 'GET', script, { token: null });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(() => new Script(js.raw)).not.toThrow();
    expect(js.raw).toMatch(/(["'])v1\/tools\?callable=true\1/); // bundled by esbuild, which prints double quotes
    const css = await request(gateway, 'GET', style, { token: null });
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(css.raw).toContain('#tool-list');
  });

  it('redirects /docs/ to /docs and answers 404 for an unknown asset', async () => {
    const slash = await request(gateway, 'GET', '/docs/', { token: null });
    expect(slash.status).toBe(308);
    expect(new URL(slash.headers.get('location')!, 'http://gw.test/docs/').pathname).toBe('/docs');
    const missing = await request(gateway, 'GET', '/docs/assets/docs.000000000000.js', { token: null });
    expect(missing.status).toBe(404);
  });
});
