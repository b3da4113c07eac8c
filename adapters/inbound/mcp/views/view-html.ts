import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * The views' HTML (MCP Apps, issue 43): each view is TypeScript in ./client (checked with the DOM library
 * by `npm run typecheck`) bundled by esbuild, with ext-apps' App bridge, into one inline script, and the
 * shared stylesheet inline, in a page whose own CSP allows exactly that script and that style (by hash) and
 * nothing from anywhere else. `npm run build` writes the pages beside this module
 * (scripts/build-views.ts); running from sources (tsx, vitest), the gateway builds them on first use. A page
 * holds no tool data: the host's bridge passes the tool's input and result to it.
 */
export const VIEW_NAMES = ['approval', 'records', 'file', 'skiptrace', 'connect'] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

/** A built view's file name, beside this module in the build. */
export const viewFile = (name: ViewName): string => `view-${name}.html`;

const CLIENT_DIR = new URL('./client/', import.meta.url);

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const TITLES: Record<ViewName, string> = {
  approval: 'Approve a call',
  records: 'Records',
  file: 'File',
  skiptrace: 'Skip trace',
  connect: 'Result',
};

/** The page around a bundled script and the stylesheet; `</` cannot close the script early (escaped). */
export const viewPage = (name: ViewName, script: string, style: string): string => {
  const safeScript = script.replace(/<\/(script)/gi, '<\\/$1');
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(safeScript)}`,
    `style-src ${sha256(style)}`,
    'img-src data: blob:',
    "connect-src 'none'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${TITLES[name]}</title>`,
    `<style>${style}</style>`,
    '</head>',
    `<body data-view="${name}">`,
    '<main id="view" aria-live="polite"><p class="muted">Waiting for the answer…</p></main>',
    `<script>${safeScript}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
};

/** Bundles one view with esbuild (a development dependency: only the build and runs from sources use it). */
export const buildViewHtml = async (name: ViewName): Promise<string> => {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`${name}.ts`, CLIENT_DIR))],
    tsconfig: fileURLToPath(new URL('tsconfig.json', CLIENT_DIR)),
    absWorkingDir: fileURLToPath(CLIENT_DIR),
    bundle: true,
    minify: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild produced no bundle for the ${name} view`);
  const style = await readFile(new URL('views.css', CLIENT_DIR), 'utf8');
  return viewPage(name, output.text, style.trim());
};

const readBuilt = async (name: ViewName): Promise<string> => {
  const file = new URL(viewFile(name), import.meta.url);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(
      `The ${name} view is missing from the build (${fileURLToPath(file)}); \`npm run build\` writes it.`,
      {
        cause: error,
      },
    );
  }
};

const fromSources = import.meta.url.endsWith('.ts');
const loading = new Map<ViewName, Promise<string>>();

/** A view's HTML, loaded once per process (one per view name); a failed attempt is retried on the next call. */
export const loadViewHtml = (name: ViewName): Promise<string> => {
  let html = loading.get(name);
  if (!html) {
    html = (fromSources ? buildViewHtml(name) : readBuilt(name)).catch((error: unknown) => {
      loading.delete(name);
      throw error;
    });
    loading.set(name, html);
  }
  return html;
};
