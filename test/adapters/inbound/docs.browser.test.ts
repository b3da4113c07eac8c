import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import pino from 'pino';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../../composition/gateway.js';
import { SKIP_REASONS, skipUnless } from '../../support/skips.js';

// The reference page in a real browser: Debian's chromium driven by playwright-core (no downloaded browsers).
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];
const available = !skipUnless(existsSync(CHROMIUM), SKIP_REASONS.chromium);
const SKIP_REASON = `SKIPPED: no Chromium at ${CHROMIUM}. Install Debian's chromium package (.ci/install-chromium) or set CHROMIUM_PATH.`;
if (!available) console.warn(`[docs.browser.test] ${SKIP_REASON}`);

const TOKEN = 'browser-demo-token-0123456789';
const SKIPTRACE_TOKEN = 'browser-skiptrace-token-0123456789';
export const SCREENSHOT = join(tmpdir(), 'tool-gateway-docs.png');

describe.skipIf(!available)(
  available ? 'GET /docs in headless Chromium' : `GET /docs in headless Chromium: ${SKIP_REASON}`,
  () => {
    let gateway: Gateway;
    let server: ServerType;
    let base: string;
    let profile: string;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];
    const requests: { method: string; url: string; authorization?: string; body?: string | null }[] = [];

    beforeAll(async () => {
      gateway = createGateway({
        env: {
          GATEWAY_DEMO_TOKEN: TOKEN,
          GATEWAY_API_KEYS: JSON.stringify([
            { name: 'skiptrace-only', token: SKIPTRACE_TOKEN, permissions: ['skiptrace:read'] },
          ]),
        },
        logger: pino({ level: 'silent' }),
      });
      base = await new Promise<string>((resolve) => {
        server = serve({ fetch: gateway.http.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
          resolve(`http://127.0.0.1:${info.port}`),
        );
      });
      profile = mkdtempSync(join(tmpdir(), 'tool-gateway-chromium-'));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        // Exactly these flags: Playwright's own defaults are switched off; the pipe is how it drives the browser.
        ignoreDefaultArgs: true,
        args: [...FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-pipe'],
        timeout: 30_000,
      });
      page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      page.setDefaultTimeout(10_000);
      page.on('console', (m) => {
        // The refused sign-in is expected to log its 401; anything else (a CSP violation, a script error) is a problem.
        if (m.type() === 'error' && !m.text().includes('status of 401')) problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('request', (r) =>
        requests.push({
          method: r.method(),
          url: r.url(),
          authorization: r.headers()['authorization'],
          body: r.postData(),
        }),
      );
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await gateway?.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
    });

    const text = async (selector: string) => (await page.locator(selector).textContent()) ?? '';

    it('lists the tools, signs in, tries crm_searchContacts and reads the answer', async () => {
      await page.goto(`${base}/docs`);

      // The tool list, grouped, from GET /v1/tools.
      const link = page.locator('#nav-crm_searchContacts');
      await link.waitFor({ state: 'visible' });
      expect(await link.textContent()).toContain('crm_searchContacts');
      expect(await page.locator('#tool-list a').count()).toBe(gateway.listTools().length);
      expect(await text('#group-crm')).toMatch(/^crm/);

      await link.click();
      expect(page.url()).toMatch(/#crm_searchContacts$/);
      expect(await text('#tool-title')).toBe('crm_searchContacts');
      expect(await text('table[aria-label="Parameters of crm_searchContacts"]')).toContain('query');

      // Nothing can be tried before signing in, and the page says why.
      const send = page.locator('#try-button');
      expect(await send.isDisabled()).toBe(true);
      expect(await text('#try-reason')).toMatch(/sign in/i);

      // A refused token leaves the caller signed out, with the gateway's reason.
      await page.fill('#token', 'not-a-valid-token');
      await page.click('#signin-button');
      await page.locator('#signin-error').waitFor({ state: 'visible' });
      expect(await text('#signin-error')).toMatch(/refused/i);
      expect(await send.isDisabled()).toBe(true);

      await page.fill('#token', TOKEN);
      await page.click('#signin-button');
      await page.locator('#signin-status').waitFor({ state: 'visible' });
      expect(await text('#signin-status')).toContain('Signed in');
      expect(await page.evaluate("sessionStorage.getItem('tool-gateway.token')")).toBe(TOKEN);
      expect(await send.isEnabled()).toBe(true);

      // Issue 37: the body starts as a call that works on the demo data, not a schema's placeholder.
      expect(JSON.parse(await page.locator('#request-body').inputValue())).toEqual({ query: 'rosegold' });

      // Try the tool: text answer, rendered as a table.
      await page.fill('#request-body', '{"query":"rosegold"}');
      await send.click();
      await page.locator('#answer-status').filter({ hasText: '200' }).waitFor();
      expect(await text('#answer-body')).toContain('Maria Alvarez');
      expect(await page.locator('#answer-body td', { hasText: 'Maria Alvarez' }).count()).toBe(1);
      const call = requests.find(
        (r) => r.method === 'POST' && new URL(r.url).pathname === '/v1/tools/crm/searchContacts',
      );
      expect(call?.authorization).toBe(`Bearer ${TOKEN}`);
      expect(JSON.parse(call?.body ?? 'null')).toEqual({ query: 'rosegold' });

      await page.locator('#answer').scrollIntoViewIfNeeded();
      await page.screenshot({ path: SCREENSHOT, fullPage: false });

      // The same call with format=json: the structured payload.
      await page.check('#format-json');
      await send.click();
      await page.locator('#answer-body pre').waitFor();
      const payload = JSON.parse(await text('#answer-body pre')) as unknown;
      expect(JSON.stringify(payload)).toMatch(/"firstname":"Maria","lastname":"Alvarez"/);
      expect(
        requests.some((r) => r.method === 'POST' && r.url.endsWith('/v1/tools/crm/searchContacts?format=json')),
      ).toBe(true);

      // The page fetched nothing from anywhere but the gateway, and broke no policy.
      expect(requests.map((r) => new URL(r.url).origin).filter((o) => o !== base)).toEqual([]);
      expect(problems).toEqual([]);
    }, 60_000);

    it('keeps the sign-in for the tab and disables tools the token may not call', async () => {
      await page.reload();
      await page.locator('#signin-status').waitFor({ state: 'visible' });
      await page.click('#signout-button');
      expect(await page.evaluate("sessionStorage.getItem('tool-gateway.token')")).toBeNull();
      await page.locator('#signin-form').waitFor({ state: 'visible' });

      await page.fill('#token', SKIPTRACE_TOKEN);
      await page.click('#signin-button');
      await page.locator('#signin-status').waitFor({ state: 'visible' });
      const skiptraceTools = gateway.listTools().filter((t) => t.permission === 'skiptrace:read').length;
      expect(await text('#signin-status')).toContain(
        `may call ${skiptraceTools} of ${gateway.listTools().length} tools`,
      );

      await page.locator('#nav-crm_searchContacts').click();
      expect(await page.locator('#try-button').isDisabled()).toBe(true);
      expect(await text('#try-reason')).toContain('"crm:read"');
      expect(problems).toEqual([]);
    }, 60_000);
  },
);
