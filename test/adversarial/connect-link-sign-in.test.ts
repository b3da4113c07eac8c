import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import { HUBSPOT_TEST_TOKEN, HubSpotServer } from '../fakes/hubspot-server.js';
import { NOW, request } from '../support/gateway.js';
import { finishInBrowser, openConnectLink, openConnectPage, signInOnConnectPage } from '../support/connect-flow.js';

// Issue 43: a NOT_CONNECTED link used to be a bearer ticket: whoever saw it (in a transcript, a log, a
// screenshot) could open it and connect their own HubSpot account into the caller's workspace, or be sent it
// and connect theirs into a stranger's. Now the link's page asks for a gateway sign-in, and only the caller
// the link was made for goes on to the vendor.

const ADMIN = 'token-acme-admin-0123456789';
const AGENT = 'token-acme-agent-0123456789';
const GLOBEX = 'token-globex-admin-0123456789';

let hubspot: HubSpotServer;
let dataDir: string;
const clock = new FixedClock(NOW);
const open: Gateway[] = [];

const gateway = (): Gateway => {
  const g = createGateway({
    env: {
      CRM_BACKEND: 'hubspot',
      HUBSPOT_BASE_URL: hubspot.baseUrl,
      HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN,
      HUBSPOT_CLIENT_ID: hubspot.oauth.clientId,
      HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret,
      HUBSPOT_APP_URL: 'https://app.hubspot.example',
      PUBLIC_BASE_URL: 'https://gateway.example',
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_API_KEYS: JSON.stringify([
        { name: 'acme-admin', token: ADMIN, permissions: ['*'], tenant: 'acme' },
        { name: 'acme-agent', token: AGENT, permissions: ['crm:*'], tenant: 'acme' },
        { name: 'globex-admin', token: GLOBEX, permissions: ['*'], tenant: 'globex' },
      ]),
    },
    logger: pino({ level: 'silent' }),
    overrides: { clock },
  });
  open.push(g);
  return g;
};

beforeAll(async () => {
  hubspot = await HubSpotServer.start({ clock });
  dataDir = mkdtempSync(join(tmpdir(), 'gateway-connect-sign-in-'));
});
afterAll(async () => {
  for (const g of open) await g.close();
  await hubspot.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const linkFor = async (g: Gateway, token: string): Promise<string> => {
  const denied = await request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token });
  expect(denied.body.error.code).toBe('NOT_CONNECTED');
  return denied.body.error.details.connect_url as string;
};

const tokenExchanges = () => hubspot.requests.filter((r) => r.path.includes('/token')).length;

describe('a connect link needs the sign-in of the caller it was made for', () => {
  it('opened alone, it shows a sign-in form and sends nobody to the vendor', async () => {
    const g = gateway();
    const page = await openConnectPage(g, await linkFor(g, AGENT));
    expect(page.status).toBe(200);
    expect(page.html).toContain('Sign in to the gateway to connect your HubSpot account');
    expect(page.html).not.toContain('hubspot.example');
    expect(page.cookie).toMatch(/^tg-connect-form=[\w-]{20,}$/);
  });

  it("refuses another tenant's key and another person of the same tenant: nothing starts at the vendor", async () => {
    const g = gateway();
    const link = await linkFor(g, AGENT);
    for (const stranger of [GLOBEX, ADMIN]) {
      const r = await signInOnConnectPage(g, link, stranger);
      expect(r.status).toBe(403);
      expect(r.headers.get('location')).toBeNull();
      expect(await r.text()).toContain('belongs to another person');
    }
  });

  it('refuses a post without the form cookie (another site posting the form), even with the right key', async () => {
    const g = gateway();
    const link = await linkFor(g, AGENT);
    const r = await signInOnConnectPage(g, link, AGENT, { cookie: '' });
    expect(r.status).toBe(403);
    expect(r.headers.get('location')).toBeNull();
    const forged = await signInOnConnectPage(g, link, AGENT, { form: 'x'.repeat(24) });
    expect(forged.status).toBe(403);
  });

  it('asks again after a wrong key, and stops counting past ten wrong keys for the link', async () => {
    const g = gateway();
    const link = await linkFor(g, AGENT);
    const wrong = await signInOnConnectPage(g, link, 'token-not-a-key-0123456789');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('name="api_key"');
    for (let i = 0; i < 9; i++) await signInOnConnectPage(g, link, 'token-not-a-key-0123456789');
    const limited = await signInOnConnectPage(g, link, AGENT);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('location')).toBeNull();
  });

  it('refuses a JWT typed into the form: only API keys sign in on the page', async () => {
    const g = gateway();
    const link = await linkFor(g, AGENT);
    const r = await signInOnConnectPage(g, link, 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl');
    expect(r.status).toBe(401);
  });

  it('signed in as the caller, the person connects and the call works', async () => {
    const g = gateway();
    const flow = await openConnectLink(g, await linkFor(g, AGENT), AGENT);
    expect(flow.authorize.origin).toBe('https://app.hubspot.example');
    const before = tokenExchanges();
    const code = hubspot.grantCode({
      redirectUri: 'https://gateway.example/oauth/callback',
      codeChallenge: flow.authorize.searchParams.get('code_challenge')!,
    });
    const done = await finishInBrowser(
      g,
      flow,
      `code=${encodeURIComponent(code)}&state=${encodeURIComponent(flow.state)}`,
    );
    expect(done.status).toBe(200);
    expect(tokenExchanges()).toBe(before + 1);
    const after = await request(g, 'GET', '/v1/connections', { token: AGENT });
    expect(JSON.stringify(after.body)).toContain('"owner":"key:acme-agent"');
  });
});
