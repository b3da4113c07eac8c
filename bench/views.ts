// npm run bench:views: the MCP Apps views' sizes (bytes and gzip of each page as resources/read serves it)
// and their render time in Chromium, hosted as the browser tests host them (ext-apps' AppBridge in a
// sandboxed iframe): from handing the view its tool result to its first heading, median and p95 of 30
// mounts per view, with the gateway's real answers in memory mode. Needs Chromium (CHROMIUM_PATH or
// /usr/bin/chromium).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { DEMO_TOKEN, testGateway } from '../test/support/gateway.js';
import { UI_CAPABILITIES, viewRpc } from '../test/adapters/inbound/views/view-rpc.js';
import { hostScript } from '../test/adapters/inbound/views/view-host.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const RUNS = 30;

const gateway = testGateway({}, { HUMAN_APPROVAL: 'off' });
// The approval card's answer: a gated call asked of a tenant whose approval is on.
const asking = testGateway();
const call = async (name: string, args: Record<string, unknown>) =>
  (await viewRpc(gateway, 'tools/call', { name, arguments: args }, UI_CAPABILITIES, DEMO_TOKEN)).body.result;

const cases = [
  { view: 'approval', tool: 'crm_deleteContact', args: { contact_id: '101' }, approval: true },
  { view: 'records', tool: 'records_listRecords', args: { app_id: 3002, limit: 25 } },
  { view: 'file', tool: 'files_readFile', args: { item_id: 'fid4a9d210ff841f' } },
  {
    view: 'skiptrace',
    tool: 'skiptrace_skipTraceProperty',
    args: { street: '10 Harbor Way', city: 'Boston', state: 'MA', zip: '02110', purpose: 'bench' },
  },
  { view: 'connect', tool: 'crm_getContact', args: { contact_id: '101' } },
];

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

const host = await hostScript();
const profile = mkdtempSync(join(tmpdir(), 'tool-gateway-bench-views-'));
const rows: string[] = [];
const browser = existsSync(CHROMIUM)
  ? await chromium.launch({
      executablePath: CHROMIUM,
      ignoreDefaultArgs: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${profile}`, '--remote-debugging-pipe'],
    })
  : undefined;
if (!browser) console.error(`No Chromium at ${CHROMIUM}: sizes only.`);
for (const c of cases) {
  const html = (await viewRpc(gateway, 'resources/read', { uri: `ui://tool-gateway/${c.view}` })).body.result
    .contents[0].text as string;
  const result = c.approval
    ? (await viewRpc(asking, 'tools/call', { name: c.tool, arguments: c.args }, UI_CAPABILITIES, DEMO_TOKEN)).body
        .result
    : await call(c.tool, c.args);
  let timing = 'n/a';
  if (browser) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      await page.exposeFunction('hostCallTool', (name: string, a: Record<string, unknown>) => call(name, a));
      await page.setContent(`<!doctype html><html><body><script>${host}</script></body></html>`);
      const started = performance.now();
      await page.evaluate(
        ([h, a, r]) => (globalThis as unknown as { mountView: (...x: unknown[]) => Promise<void> }).mountView(h, a, r),
        [html, c.args, result] as const,
      );
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      await frame.locator('h1').first().waitFor();
      times.push(performance.now() - started);
      await page.close();
    }
    times.sort((a, b) => a - b);
    timing = `${pct(times, 0.5).toFixed(0)} ms | ${pct(times, 0.95).toFixed(0)} ms`;
  }
  rows.push(
    `| ${c.view} | ${Buffer.byteLength(html).toLocaleString('en')} | ${gzipSync(html).length.toLocaleString('en')} | ${timing} |`,
  );
}
await browser?.close();
await gateway.close();
await asking.close();
rmSync(profile, { recursive: true, force: true });
console.log('| view | bytes | gzip | load, connect, first heading: median | p95 |\n|---|---|---|---|---|');
console.log(rows.join('\n'));
