import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * The reference page's browser script: TypeScript in ./client (type-checked with the DOM library by
 * `npm run typecheck`), bundled by esbuild into one classic script that the gateway serves itself, so the
 * page works offline. `npm run build` writes the bundle into the build beside this module
 * (scripts/build-docs-script.ts); running from sources (tsx, vitest), the gateway bundles it on first use.
 */
export const DOCS_SCRIPT_BUNDLE = 'docs-script.bundle.js';

const CLIENT_DIR = new URL('./client/', import.meta.url);

/** Bundles ./client with esbuild (a development dependency: only the build and runs from sources use it). */
export const bundleDocsScript = async (): Promise<string> => {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(new URL('main.ts', CLIENT_DIR))],
    tsconfig: fileURLToPath(new URL('tsconfig.json', CLIENT_DIR)),
    // Paths in the bundle's comments are relative to this, so the bundle (and its hash) is the same wherever it is built.
    absWorkingDir: fileURLToPath(CLIENT_DIR),
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    charset: 'utf8',
    // The Markdown parser (micromark, issue 39) is most of the script: minified it is 40 % of its size.
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild produced no bundle for the reference page script');
  return output.text;
};

/** The bundle written by `npm run build`, read when the gateway runs from the build. */
const readBuiltBundle = async (): Promise<string> => {
  const file = new URL(DOCS_SCRIPT_BUNDLE, import.meta.url);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(
      `The reference page script is missing from the build (${fileURLToPath(file)}); \`npm run build\` writes it.`,
      {
        cause: error,
      },
    );
  }
};

const fromSources = import.meta.url.endsWith('.ts');
let loading: Promise<string> | undefined;

/** The script's text, loaded once per process; a failed attempt is retried on the next call. */
export const loadDocsScript = (): Promise<string> => {
  loading ??= (fromSources ? bundleDocsScript() : readBuiltBundle()).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
};
