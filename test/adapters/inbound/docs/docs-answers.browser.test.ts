import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, testGateway } from '../../../support/gateway.js';

// Issue 27 item 2: the reference page renders real answers of every group (bold, italics, code, tables,
// links) without hanging, and is usable on a 375 px wide screen. Debian's chromium driven by
// playwright-core; the page is the one an in-process gateway serves (its script bundled as the build does).
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const available = existsSync(CHROMIUM);
const SKIP_REASON = `SKIPPED: no Chromium at ${CHROMIUM}. Install Debian's chromium package (.ci/install-chromium) or set CHROMIUM_PATH.`;
if (!available) console.warn(`[docs-answers.browser.test] ${SKIP_REASON}`);

/** Screenshots for a person to look at; written to the temporary directory, never committed. */
export const PHONE_SCREENSHOT = join(tmpdir(), 'tool-gateway-docs-375.png');
export const DESKTOP_SCREENSHOT = join(tmpdir(), 'tool-gateway-docs-1280.png');

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 860 };
/** How long a render may take before the test calls the page hung: a hang detector, far above any real render. */
const HANG_MS = 20_000;

/** A markdown file whose read-back answer holds every construct the renderer knows, and some hostile text. */
const RENDER_CHECK = [
  '# Render check',
  '',
  'Some **bold text**, some *italic text*, some _underscored italics_ and `inline code`.',
  'A [labelled link](https://example.com/docs?a=1) and a bare one: https://example.org/path.',
  'Not links: [script](javascript:alert(1)) and <img src=x onerror="document.title=\'pwned\'">.',
  'Unclosed **bold and [bracket and `tick, then a snake_case_name and 2 * 3 * 4.',
  'A long line: ' + 'word-'.repeat(30) + 'x'.repeat(400),
  '',
  '| col a | col b | a very wide column |',
  '|---|:---:|---:|',
  // one word wider than the screen: the table scrolls in its box (a cell breaks words only at spaces)
  '| 1 | **two** | ' + 'wide'.repeat(60) + ' |',
  '',
  '```ts',
  'const wide = "' + 'y'.repeat(300) + '"; // **not bold** in code',
  '```',
].join('\n');

interface Rendered {
  readonly status: string;
  readonly strong: string[];
  readonly em: string[];
  readonly code: string[];
  readonly pre: string[];
  readonly headers: string[];
  readonly cells: number;
  readonly links: string[];
  readonly items: number;
  readonly rules: number;
  readonly injected: number;
  readonly text: string;
}

// The functions handed to page.evaluate run in the page; these name the browser globals they use (this file
// is type-checked with Node's types, not the DOM's).
declare const document: any;
declare const window: any;
declare const getComputedStyle: (node: unknown) => { overflowX: string };

/** Rejects when `work` has not settled within `ms`: the page's main thread is stuck. */
const within = async <T>(what: string, ms: number, work: Promise<T>): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s: the page hangs`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
};

describe.skipIf(!available)(
  available ? 'answers on /docs in headless Chromium' : `answers on /docs in headless Chromium: ${SKIP_REASON}`,
  () => {
    const gateway = testGateway({}, { RATE_LIMIT_PER_MINUTE: '100000' });
    let server: ServerType | undefined;
    let base = '';
    let profile = '';
    let browser: Browser | undefined;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      base = await new Promise<string>((resolve) => {
        server = serve({ fetch: gateway.http.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
          resolve(`http://127.0.0.1:${info.port}`),
        );
      });
      profile = mkdtempSync(join(tmpdir(), 'tool-gateway-chromium-'));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        ignoreDefaultArgs: true,
        args: [...FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-pipe'],
        timeout: 30_000,
      });
      page = await browser.newPage({ viewport: PHONE });
      page.setDefaultTimeout(HANG_MS);
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));

      // Sign in the way a person does: the token in the sign-in form.
      await page.goto(`${base}/docs`);
      await page.locator('#nav-crm_getContact').waitFor({ state: 'attached' });
      await page.fill('#token', DEMO_TOKEN);
      await page.click('#signin-button');
      await page.locator('#signin-status').waitFor({ state: 'visible' });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await gateway.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
    });

    /** Opens the tool's page, sends `body` with "Try it", and reads what the answer rendered. */
    const tryIt = async (tool: string, body: unknown): Promise<Rendered> => {
      await within(`opening ${tool}`, HANG_MS, page.locator(`#nav-${tool}`).click());
      await within(`showing ${tool}`, HANG_MS, page.locator('#tool-title', { hasText: tool }).waitFor());
      await page.fill('#request-body', JSON.stringify(body));
      await within(`sending ${tool}`, HANG_MS, page.click('#try-button'));
      await within(
        `rendering the answer of ${tool}`,
        HANG_MS + 5_000,
        page.waitForFunction(
          () => {
            const status = document.getElementById('answer-status')?.textContent ?? '';
            return status !== '' && document.querySelector('#answer-body > *') !== null;
          },
          null,
          { timeout: HANG_MS },
        ),
      );
      // The page still answers after the render.
      expect(
        await within(
          `the page after ${tool}`,
          5_000,
          page.evaluate(() => 6 * 7),
        ),
      ).toBe(42);
      return within(
        `reading the answer of ${tool}`,
        5_000,
        page.evaluate((): Rendered => {
          const body = document.getElementById('answer-body')!;
          const texts = (selector: string) => [...body.querySelectorAll(selector)].map((n) => n.textContent ?? '');
          return {
            status: document.getElementById('answer-status')?.textContent ?? '',
            strong: texts('strong'),
            em: texts('em'),
            code: texts(':not(pre) > code'),
            pre: texts('pre'),
            headers: texts('th'),
            cells: body.querySelectorAll('td').length,
            links: [...body.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? ''),
            items: body.querySelectorAll('li').length,
            rules: body.querySelectorAll('hr').length,
            injected: body.querySelectorAll('img, script, iframe, [onerror]').length,
            text: body.textContent ?? '',
          };
        }),
      );
    };

    /** The layout fits the 375 px viewport: nothing wider than the screen, wide content scrolls in its own box. */
    const fitsThePhone = async (what: string): Promise<void> => {
      const widths = await within(
        `measuring ${what}`,
        5_000,
        page.evaluate(() => ({
          viewport: window.innerWidth,
          document: document.documentElement.scrollWidth,
          body: document.body.scrollWidth,
        })),
      );
      expect(widths.viewport, what).toBe(PHONE.width);
      expect(widths.document, `${what}: the page is wider than the screen`).toBeLessThanOrEqual(PHONE.width + 2);
      expect(widths.body, `${what}: the body is wider than the screen`).toBeLessThanOrEqual(PHONE.width + 2);
    };

    it('files: writes a markdown file and reads it back; every construct renders as elements, hostile text as text', async () => {
      await fitsThePhone('the page before any call');
      const written = await tryIt('files_writeFile', {
        folder_id: 'home',
        file_name: 'render-check.md',
        content: RENDER_CHECK,
      });
      expect(written.status).toMatch(/^200/);
      const id = /\(id (fi[0-9a-f]+)\)/.exec(written.text)?.[1] ?? /"item_id":"(fi[0-9a-f]+)"/.exec(written.text)?.[1];
      expect(id, written.text).toBeDefined();

      const read = await tryIt('files_readFile', { item_id: id });
      expect(read.status).toMatch(/^200/);
      expect(read.strong).toEqual(expect.arrayContaining(['bold text', 'two']));
      expect(read.em).toEqual(['italic text', 'underscored italics']);
      expect(read.code).toEqual(expect.arrayContaining(['inline code']));
      expect(read.links).toEqual(['https://example.com/docs?a=1', 'https://example.org/path']);
      expect(read.headers).toEqual(['col a', 'col b', 'a very wide column']);
      expect(read.pre.join('\n')).toContain('**not bold** in code');
      // Only http(s) links are clickable; markup in the answer is shown, never run.
      expect(read.text).toContain('[script](javascript:alert(1))');
      expect(read.text).toContain('<img src=x onerror=');
      expect(read.injected).toBe(0);
      expect(await page.title()).not.toBe('pwned');
      // The unclosed delimiters stay as they were written; snake_case is not italics.
      expect(read.text).toContain('Unclosed **bold and [bracket and `tick, then a snake_case_name and 2 * 3 * 4.');
      await fitsThePhone('a file with a wide table, a long line and wide code');
      // The wide table and the wide code scroll inside their own boxes.
      const boxes = await page.evaluate(() =>
        ['#answer-body .table-wrap', '#answer-body pre'].map((selector) => {
          const box = document.querySelector(selector)!;
          return {
            selector,
            scrolls: box.scrollWidth > box.clientWidth,
            overflowX: getComputedStyle(box).overflowX,
            right: box.getBoundingClientRect().right,
          };
        }),
      );
      for (const box of boxes) {
        expect(box.scrolls, `${box.selector} holds its wide content`).toBe(true);
        expect(['auto', 'scroll'], box.selector).toContain(box.overflowX);
        expect(box.right, `${box.selector} ends inside the screen`).toBeLessThanOrEqual(PHONE.width);
      }
      await page.locator('#answer-body .table-wrap').scrollIntoViewIfNeeded();
      await page.screenshot({ path: PHONE_SCREENSHOT, fullPage: false });
    }, 90_000);

    it('records: a record with bold labels, a table and [x] task marks', async () => {
      const r = await tryIt('records_getRecord', { record_id: 70025 });
      expect(r.status).toMatch(/^200/);
      expect(r.strong).toEqual(expect.arrayContaining(['App:', 'Created:']));
      expect(r.headers).toEqual(['field', 'key', 'value']);
      expect(r.text).toContain('[x] Call back; [ ] Send offer letter');
      expect(r.code.length + r.items).toBeGreaterThan(0);
      await fitsThePhone('records_getRecord');
    }, 60_000);

    it('records: a wide list stays inside the screen', async () => {
      const r = await tryIt('records_listRecords', { app_id: 3001, limit: 5 });
      expect(r.status).toMatch(/^200/);
      expect(r.headers).toContain('record_id');
      await fitsThePhone('records_listRecords');
    }, 60_000);

    it('workspaces: organizations with headings, bold, tables and https links', async () => {
      const r = await tryIt('workspaces_getOrganizations', {});
      expect(r.status).toMatch(/^200/);
      expect(r.strong).toEqual(expect.arrayContaining(['URL:']));
      expect(r.headers).toContain('space_id');
      expect(r.links).toContain('https://podio.com/acme-realty-group');
      await fitsThePhone('workspaces_getOrganizations');
    }, 60_000);

    it('crm: crm_getContact 101, the answer that froze the page', async () => {
      const r = await tryIt('crm_getContact', { contact_id: '101' });
      expect(r.status).toMatch(/^200/);
      expect(r.strong).toEqual(['Created:', 'Updated:', 'URL:']);
      expect(r.headers).toEqual(['Property', 'Value']);
      expect(r.text).toContain('Maria Alvarez');
      // memory:// is not a web link
      expect(r.links).toEqual([]);
      await fitsThePhone('crm_getContact');
    }, 60_000);

    it('skiptrace: an owner with flags, phones in a table', async () => {
      const r = await tryIt('skiptrace_skipTraceProperty', { street: '1011 Rosegold St', zip: '11010' });
      expect(r.status).toMatch(/^200/);
      expect(r.strong).toEqual(expect.arrayContaining(['Flags:', 'Mailing address:']));
      expect(r.headers).toEqual(expect.arrayContaining(['phone', 'OK to call']));
      await fitsThePhone('skiptrace_skipTraceProperty');
    }, 60_000);

    it('web: a search (numbered list, bold titles, bare links) and a fetched page (rule, bold labels)', async () => {
      const found = await tryIt('web_search', { query: 'rosegold' });
      expect(found.status).toMatch(/^200/);
      expect(found.items).toBeGreaterThan(0);
      expect(found.strong).toEqual(['Rosegold Realty: about the brokerage']);
      // the hit's URL, and the same URL in the web_fetch call the answer names (ending at its quote)
      const hit = 'https://demo-web.tool-gateway.example/companies/rosegold-realty';
      expect(found.links).toEqual([hit, hit]);
      await fitsThePhone('web_search');

      const page_ = await tryIt('web_fetch', {
        url: 'https://demo-web.tool-gateway.example/companies/rosegold-realty',
      });
      expect(page_.status).toMatch(/^200/);
      expect(page_.strong).toEqual(expect.arrayContaining(['URL:', 'Type:']));
      expect(page_.rules).toBe(1);
      expect(page_.links).toEqual(['https://demo-web.tool-gateway.example/companies/rosegold-realty']);
      await fitsThePhone('web_fetch');
    }, 60_000);

    it('looks right at desktop width too, and nothing went wrong on the page', async () => {
      await page.setViewportSize(DESKTOP);
      const r = await tryIt('crm_getContact', { contact_id: '101' });
      expect(r.strong).toEqual(['Created:', 'Updated:', 'URL:']);
      await page.locator('#answer').scrollIntoViewIfNeeded();
      await page.screenshot({ path: DESKTOP_SCREENSHOT, fullPage: false });
      expect(problems).toEqual([]);
    }, 60_000);
  },
);
