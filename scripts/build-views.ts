// Builds the MCP Apps views (adapters/inbound/mcp/views/client) into the build, beside the module that
// serves them, so the built gateway serves them without esbuild. Run by `npm run build`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildViewHtml, VIEW_NAMES, viewFile } from '../adapters/inbound/mcp/views/view-html.js';

const dir = resolve(import.meta.dirname, '../dist/adapters/inbound/mcp/views');
mkdirSync(dir, { recursive: true });
for (const name of VIEW_NAMES) {
  const html = await buildViewHtml(name);
  writeFileSync(resolve(dir, viewFile(name)), html);
  // On stderr: `npm pack --json` runs this build (prepack) and its stdout must be the JSON alone.
  process.stderr.write(`dist/adapters/inbound/mcp/views/${viewFile(name)}: ${Buffer.byteLength(html)} bytes\n`);
}
