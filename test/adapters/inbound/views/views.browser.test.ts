import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, testGateway } from '../../../support/gateway.js';
import { SKIP_REASONS, skipUnless } from '../../../support/skips.js';
import type { Gateway } from '../../../../composition/gateway.js';
import { UI_CAPABILITIES, viewRpc } from './view-rpc.js';
import { hostScript } from './view-host.js';
import { pdfWithLines } from '../../../support/documents.js';

// Issue 43: each view hosted as MCP Apps hosts do (view-host.ts: a sandboxed iframe and ext-apps' AppBridge),
// fed a real answer of the gateway in memory mode, at desktop and phone width: what it shows, what a person
// can do (approve, decline, sort, next page, open, connect, preview a text, a PDF and an image, download),
// an axe-core accessibility check, and a screenshot of each in test-artifacts/views/ (gitignored).

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];
const available = !skipUnless(existsSync(CHROMIUM), SKIP_REASONS.chromium);
const ARTEFACTS = resolve(import.meta.dirname, '../../../../test-artifacts/views');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ACME = 'token-acme-views-0123456789';
/** A 1×1 PNG, for the image preview. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 860 },
  { name: 'phone', width: 390, height: 844 },
] as const;

describe.skipIf(!available)('MCP Apps views in Chromium, hosted through ext-apps’ AppBridge', () => {
  let gateway: Gateway;
  let hub: Gateway;
  let profile: string;
  let browser: Browser;
  let host: string;
  // The gateway and key the host's tool calls go to (the connection card's test uses a tenant without HubSpot).
  let target: { gateway: Gateway; token: string };
  const problems: string[] = [];

  beforeAll(async () => {
    gateway = testGateway();
    hub = testGateway(
      {},
      {
        CRM_BACKEND: 'hubspot',
        HUBSPOT_ACCESS_TOKEN: 'pat-na1-environment-token',
        HUBSPOT_BASE_URL: 'http://127.0.0.1:9',
        PUBLIC_BASE_URL: 'https://gateway.example',
        GATEWAY_API_KEYS: JSON.stringify([{ name: 'acme', token: ACME, permissions: ['*'], tenant: 'acme' }]),
      },
    );
    target = { gateway, token: DEMO_TOKEN };
    host = await hostScript();
    mkdirSync(ARTEFACTS, { recursive: true });
    profile = mkdtempSync(join(tmpdir(), 'tool-gateway-views-chromium-'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      ignoreDefaultArgs: true,
      args: [...FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-pipe'],
      timeout: 30_000,
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await hub?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const { body } = await viewRpc(
      target.gateway,
      'tools/call',
      { name, arguments: args },
      UI_CAPABILITIES,
      target.token,
    );
    if (body.error) throw new Error(body.error.message);
    return body.result;
  };

  const viewHtml = async (name: string): Promise<string> => {
    const { body } = await viewRpc(gateway, 'resources/read', { uri: `ui://tool-gateway/${name}` });
    return body.result.contents[0].text;
  };

  /** A fresh page at this width, hosting `view` with the tool's arguments and its real answer. */
  const mount = async (
    size: (typeof WIDTHS)[number],
    view: string,
    args: Record<string, unknown>,
    result: unknown,
  ): Promise<{ page: Page; frame: Frame }> => {
    const page = await browser.newPage({ viewport: { width: size.width, height: size.height } });
    page.setDefaultTimeout(10_000);
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${view}: console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`${view}: page error: ${e.message}`));
    await page.exposeFunction('hostCallTool', (name: string, a: Record<string, unknown>) => call(name, a));
    await page.setContent(
      `<!doctype html><html><head><title>Host</title></head><body><script>${host}</script></body></html>`,
    );
    const html = await viewHtml(view);
    await page.evaluate(([h, a, r]) => (globalThis as any).mountView(h, a, r), [html, args, result] as const);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (!frame) throw new Error('no view frame');
    await frame.locator('h1').first().waitFor();
    return { page, frame };
  };

  const events = (page: Page) => page.evaluate(() => (globalThis as any).hostEvents as any[]);

  /** axe-core's WCAG 2 A/AA rules on the view's document: the ids of the rules it breaks. */
  const axeViolations = async (frame: Frame): Promise<string[]> => {
    await frame.evaluate(AXE);
    const result = await frame.evaluate(() =>
      (globalThis as any).axe.run((globalThis as any).document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] },
      }),
    );
    return (result.violations as { id: string; nodes: unknown[] }[]).map((v) => `${v.id} (${v.nodes.length})`);
  };

  const finish = async (page: Page, frame: Frame, shot: string) => {
    expect(await axeViolations(frame)).toEqual([]);
    await page.screenshot({ path: join(ARTEFACTS, `${shot}.png`), fullPage: true });
    await page.close();
  };

  for (const size of WIDTHS) {
    describe(`${size.name} (${size.width} px)`, () => {
      it('approval card: Approve runs the call once, Decline changes nothing', async () => {
        target = { gateway, token: DEMO_TOKEN };
        const args = { contact_id: size.name === 'desktop' ? '102' : '103' };
        const ask = await call('crm_deleteContact', args);
        const { page, frame } = await mount(size, 'approval', args, ask);
        await expect.poll(() => frame.locator('h1').textContent()).toBe('Approve crm_deleteContact?');
        await page.screenshot({ path: join(ARTEFACTS, `approval-ask-${size.name}.png`), fullPage: true });
        expect(await axeViolations(frame)).toEqual([]);
        await frame.getByRole('button', { name: 'Approve' }).click();
        await frame.getByText('Approved: it ran.').waitFor();
        expect(await frame.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
        const told = (await events(page)).find((e) => e.modelContext);
        expect(told.modelContext.content[0].text).toContain('The person approved crm_deleteContact');
        await finish(page, frame, `approval-approved-${size.name}`);

        const other = { contact_id: size.name === 'desktop' ? '104' : '105' };
        const second = await mount(size, 'approval', other, await call('crm_deleteContact', other));
        await second.frame.getByRole('button', { name: 'Decline' }).click();
        await second.frame.getByText('Declined: nothing was changed.').waitFor();
        expect((await call('crm_getContact', other)).isError).toBeUndefined();
        await finish(second.page, second.frame, `approval-declined-${size.name}`);
      });

      it('record table: sort by a column both ways, next page, open a record', async () => {
        target = { gateway, token: DEMO_TOKEN };
        const args = { app_id: 3002, limit: 5 };
        const { page, frame } = await mount(size, 'records', args, await call('records_listRecords', args));
        const rows = frame.locator('tbody tr');
        await expect.poll(() => rows.count()).toBe(5);
        await expect.poll(() => frame.locator('caption').textContent()).toBe('5 of 24 records');
        const firstTitle = () => rows.first().locator('td').first().textContent();
        expect(await firstTitle()).toBe('10 Harbor Way');
        await frame.getByRole('button', { name: 'Sort by Asking price' }).click();
        await expect.poll(() => frame.locator('th[aria-sort="ascending"]').count()).toBe(1);
        const ascending = await firstTitle();
        await frame.getByRole('button', { name: 'Sort by Asking price' }).click();
        await expect.poll(() => frame.locator('th[aria-sort="descending"]').count()).toBe(1);
        expect(await firstTitle()).toBe('171 Hill St');
        expect(ascending).not.toBe('171 Hill St');
        await frame.getByRole('button', { name: 'Next page' }).click();
        await expect.poll(() => firstTitle()).not.toBe('171 Hill St');
        expect(await frame.locator('th[aria-sort="descending"]').count()).toBe(1);
        await rows.first().getByRole('button').click();
        await frame.locator('h2').filter({ hasText: '(record ' }).waitFor();
        // The record's fields by label, as a person reads them (not the payload's JSON).
        expect(await frame.locator('section dl dt').first().textContent()).toBe('Address');
        const detail = await frame.locator('section dl').textContent();
        expect(detail).not.toMatch(/field_id|currency|"start"/);
        expect(detail).toContain('Asking priceUSD 640,000');
        await finish(page, frame, `records-${size.name}`);
      });

      it('skip-trace card: approve the billed lookup, then phones ranked with badges and reasons', async () => {
        target = { gateway, token: DEMO_TOKEN };
        const args = { street: '10 Harbor Way', city: 'Boston', state: 'MA', zip: '02110', purpose: 'seller outreach' };
        const { page, frame } = await mount(size, 'skiptrace', args, await call('skiptrace_skipTraceProperty', args));
        await expect.poll(() => frame.locator('h1').textContent()).toBe('Approve skiptrace_skipTraceProperty?');
        expect(await frame.locator('dl').textContent()).toContain('per match');
        await frame.getByRole('button', { name: 'Approve' }).click();
        await frame.getByRole('heading', { name: 'Ana Rivera' }).waitFor();
        const phones = frame.locator('li.phone');
        expect(await phones.count()).toBe(2);
        expect(await phones.first().textContent()).toContain('(617) 555-2000');
        expect(await phones.first().locator('.badge').allTextContents()).toEqual(['OK to call', 'Not DNC', 'No TCPA']);
        expect(await phones.first().locator('p').textContent()).toMatch(/^OK to call: .*score 90/);
        await finish(page, frame, `skiptrace-${size.name}`);
      });

      it('connection card: NOT_CONNECTED names the vendor and Connect opens the answer’s link', async () => {
        target = { gateway: hub, token: ACME };
        const args = { contact_id: '101' };
        const answer = await call('crm_deleteContact', args);
        const link = answer._meta['tool-gateway/error'].details.connect_url as string;
        const { page, frame } = await mount(size, 'approval', args, answer);
        await expect.poll(() => frame.locator('h1').textContent()).toBe('Connect HubSpot');
        await frame.getByRole('button', { name: 'Connect HubSpot' }).click();
        await expect.poll(async () => (await events(page)).find((e) => e.openLink)?.openLink).toBe(link);
        await finish(page, frame, `connect-${size.name}`);
      });

      it('connection view: a tool without a view of its own shows NOT_CONNECTED’s card, else a summary', async () => {
        target = { gateway: hub, token: ACME };
        const args = { contact_id: '101' };
        const answer = await call('crm_getContact', args);
        const link = answer._meta['tool-gateway/error'].details.connect_url as string;
        const { page, frame } = await mount(size, 'connect', args, answer);
        await expect.poll(() => frame.locator('h1').textContent()).toBe('Connect HubSpot');
        await frame.getByRole('button', { name: 'Connect HubSpot' }).click();
        await expect.poll(async () => (await events(page)).find((e) => e.openLink)?.openLink).toBe(link);
        await finish(page, frame, `connect-view-${size.name}`);

        // Connected (memory mode): "Done" and a few of the answer's values, not the model's text.
        target = { gateway, token: DEMO_TOKEN };
        const done = await mount(size, 'connect', args, await call('crm_getContact', args));
        await expect.poll(() => done.frame.locator('h1').textContent()).toBe('Done');
        expect(await done.frame.locator('dl').textContent()).toContain('101');
        expect(await done.frame.getByRole('button').count()).toBe(0);
        await finish(done.page, done.frame, `connect-view-done-${size.name}`);
      });

      it('file preview: an item, its text, and the download link', async () => {
        target = { gateway, token: DEMO_TOKEN };
        const args = { item_id: 'fid4a9d210ff841f' };
        const { page, frame } = await mount(size, 'file', args, await call('files_getItem', args));
        await expect.poll(() => frame.locator('h1').textContent()).toBe('welcome.txt');
        expect(await frame.locator('dl').textContent()).toContain('/root/My Files/welcome.txt');
        await frame.getByRole('button', { name: 'Preview' }).click();
        await expect.poll(() => frame.locator('pre').textContent()).toContain('Welcome to the demo account.');
        expect(await frame.locator('p.muted').first().textContent()).toBe('text: characters 1–112 of 112');
        await frame.getByRole('button', { name: 'Download' }).click();
        await expect.poll(async () => (await events(page)).find((e) => e.openLink)?.openLink).toMatch(/^https?:\/\//);
        await finish(page, frame, `file-${size.name}`);
      });

      it('file preview: a PDF’s text a page at a time (Next page), with the download link', async () => {
        target = { gateway, token: DEMO_TOKEN };
        // 16 lines of 10 words: about 1,170 characters.
        const lines = Array.from({ length: 16 }, (_, l) =>
          Array.from({ length: 10 }, (_, w) => `word${l * 10 + w + 1}`).join(' '),
        );
        const written = await call('files_writeFile', {
          folder_id: 'home',
          file_name: `notes-${size.name}.pdf`,
          content: Buffer.from(pdfWithLines(lines)).toString('base64'),
          encoding: 'base64',
        });
        const args = { item_id: written.structuredContent.Id as string, max_chars: 500 };
        const { page, frame } = await mount(size, 'file', args, await call('files_readFile', args));
        await expect.poll(() => frame.locator('h1').textContent()).toBe(`notes-${size.name}.pdf`);
        const range = () => frame.locator('p.muted').first().textContent();
        // A page ends at a line's end, at most 500 characters in; the next one goes on from there.
        const first = /^pdf: characters 1–(\d+) of (\d+)$/.exec((await range()) ?? '');
        expect(first).not.toBeNull();
        const [end, total] = [Number(first![1]), Number(first![2])];
        expect(end).toBeLessThanOrEqual(500);
        expect(total).toBeGreaterThan(1000);
        expect(await frame.locator('pre').textContent()).toContain('word1 word2 word3');
        await frame.getByRole('button', { name: 'Next page' }).click();
        await expect.poll(range).toBe(`pdf: characters ${end + 1}–${total} of ${total}`);
        expect(await frame.locator('pre').textContent()).toContain('word160');
        expect(await frame.locator('pre').textContent()).not.toContain('word1 word2 word3');
        await frame.getByRole('button', { name: 'Download' }).click();
        await expect.poll(async () => (await events(page)).find((e) => e.openLink)?.openLink).toMatch(/^https?:\/\//);
        await finish(page, frame, `file-pdf-${size.name}`);
      });

      it('file preview: an image shown from its bytes (views_fileImage), with its download link', async () => {
        target = { gateway, token: DEMO_TOKEN };
        const written = await call('files_writeFile', {
          folder_id: 'home',
          file_name: `dot-${size.name}.png`,
          content: PNG_1X1,
          encoding: 'base64',
        });
        const args = { item_id: written.structuredContent.Id as string };
        const { page, frame } = await mount(size, 'file', args, await call('files_readFile', args));
        await expect.poll(() => frame.locator('h1').textContent()).toBe(`dot-${size.name}.png`);
        const img = frame.getByRole('img', { name: `dot-${size.name}.png` });
        await img.waitFor();
        expect(await img.getAttribute('src')).toBe(`data:image/png;base64,${PNG_1X1}`);
        // Decoded by the browser under the view's CSP (img-src data: blob:).
        await expect.poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
        await frame.getByRole('button', { name: 'Download' }).click();
        await expect.poll(async () => (await events(page)).find((e) => e.openLink)?.openLink).toMatch(/^https?:\/\//);
        await finish(page, frame, `file-image-${size.name}`);
      });
    });
  }

  it('logged no script error and no CSP violation in any view', () => {
    expect(problems).toEqual([]);
  });
});
