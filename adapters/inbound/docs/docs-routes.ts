import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import type { SurfaceDeps } from '../http/surface-deps.js';
import { docsPage } from './assets/docs-page.js';
import { NEEDS_EARLIER_CALL, TRY_EXAMPLES } from './try-examples.js';
import { DOCS_STYLE } from './assets/docs-style.js';
import { loadDocsScript } from './docs-script.js';

/** Only the page's own files: no inline script or style, no other origin, no framing. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

interface Asset {
  readonly path: string;
  readonly body: string;
  readonly type: string;
}

/** An asset named by its content hash, so browsers may keep it for good. */
const asset = (name: string, ext: string, body: string, type: string): Asset => ({
  path: `/docs/assets/${name}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${ext}`,
  body,
  type,
});

interface DocsFiles {
  readonly html: string;
  readonly assets: ReadonlyMap<string, Asset>;
}

/** Mounts the interactive reference page at /docs and its local assets (embedded: nothing is fetched from elsewhere). */
export const mountDocs = (app: Hono, deps: SurfaceDeps): void => {
  // The page names its assets by content hash, so it is made once the script is loaded: on the first
  // request for the page or an asset (a gateway that never serves the page never bundles its script).
  let made: { readonly source: string; readonly files: DocsFiles } | undefined;
  const files = async (): Promise<DocsFiles> => {
    const source = await loadDocsScript();
    if (made?.source !== source) {
      const script = asset('docs', 'js', source, 'text/javascript; charset=utf-8');
      const style = asset('docs', 'css', DOCS_STYLE, 'text/css; charset=utf-8');
      // Relative to /docs, so a gateway behind a path prefix still finds its assets and API.
      const html = docsPage({ script: script.path.slice(1), style: style.path.slice(1), version: deps.version });
      made = { source, files: { html, assets: new Map([script, style].map((a) => [a.path, a])) } };
    }
    return made.files;
  };

  app.get(
    '/docs',
    async () =>
      new Response((await files()).html, {
        status: 200,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': DOCS_CSP,
          'x-frame-options': 'DENY',
          'cache-control': 'no-cache',
          ...COMMON_HEADERS,
        },
      }),
  );
  app.get('/docs/', () => new Response(null, { status: 308, headers: { location: '../docs' } }));

  // The bodies "Try it" starts with: calls that succeed on the demo data (try-examples.ts).
  app.get('/docs/try-examples.json', (c) =>
    c.json({ examples: TRY_EXAMPLES, needs_earlier_call: NEEDS_EARLIER_CALL }, 200, {
      'cache-control': 'no-cache',
      ...COMMON_HEADERS,
    }),
  );

  app.get('/docs/assets/:file', async (c) => {
    const a = (await files()).assets.get(c.req.path);
    if (!a) return c.notFound();
    return new Response(a.body, {
      status: 200,
      headers: { 'content-type': a.type, 'cache-control': 'public, max-age=31536000, immutable', ...COMMON_HEADERS },
    });
  });
};
