// Bundles the reference page's browser script (adapters/inbound/docs/client) into the build, beside the
// module that serves it, so the built gateway serves /docs without esbuild. Run by `npm run build`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bundleDocsScript, DOCS_SCRIPT_BUNDLE } from '../adapters/inbound/docs/docs-script.js';

const dir = resolve(import.meta.dirname, '../dist/adapters/inbound/docs');
const source = await bundleDocsScript();
mkdirSync(dir, { recursive: true });
writeFileSync(resolve(dir, DOCS_SCRIPT_BUNDLE), source);
// On stderr: `npm pack --json` runs this build (prepack) and its stdout must be the JSON alone.
process.stderr.write(`dist/adapters/inbound/docs/${DOCS_SCRIPT_BUNDLE}: ${source.length} characters\n`);
