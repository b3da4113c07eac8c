import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../../composition/gateway.js';
import { BatchDataServer } from '../../fakes/batchdata-server.js';
import { HUBSPOT_TEST_TOKEN, HubSpotServer } from '../../fakes/hubspot-server.js';
import { NOW, request } from '../../support/gateway.js';
import { finishInBrowser, openConnectLink } from '../../support/connect-flow.js';

// Tenants connect their own vendor accounts: a key checked once against the vendor, or HubSpot's OAuth
// flow (authorize, callback, code exchange with PKCE, refresh, revoke) against the local stand-in, which
// checks every token request against HubSpot's OpenAPI document. Connections live in the embedded store
// and survive a restart.

const ADMIN = 'token-acme-admin-0123456789';
const AGENT = 'token-acme-agent-0123456789';
const GLOBEX = 'token-globex-admin-0123456789';

let hubspot: HubSpotServer;
let batchdata: BatchDataServer;
let dataDir: string;
const clock = new FixedClock(NOW);
const open: Gateway[] = [];

const gateway = (): Gateway => {
  const g = createGateway({
    env: {
      CRM_BACKEND: 'hubspot',
      HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN,
      HUBSPOT_BASE_URL: hubspot.baseUrl,
      HUBSPOT_CLIENT_ID: hubspot.oauth.clientId,
      HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret,
      HUBSPOT_APP_URL: 'https://app.hubspot.example',
      SKIPTRACE_BACKEND: 'batchdata',
      BATCHDATA_API_TOKEN: 'environment-batchdata-token',
      BATCHDATA_BASE_URL: batchdata.baseUrl,
      PUBLIC_BASE_URL: 'https://gateway.example',
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_API_KEYS: JSON.stringify([
        { name: 'acme-admin', token: ADMIN, permissions: ['*'], tenant: 'acme' },
        { name: 'acme-agent', token: AGENT, permissions: ['crm:*', 'skiptrace:*'], tenant: 'acme' },
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
  batchdata = await BatchDataServer.start();
  dataDir = mkdtempSync(join(tmpdir(), 'gateway-connections-'));
});
afterAll(async () => {
  for (const g of open) await g.close();
  await hubspot.close();
  await batchdata.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const createContact = (g: Gateway, token: string, email: string) =>
  request(g, 'POST', '/v1/tools/crm/createContact?format=json', { body: { values: { email } }, token });

describe('key-based connections', () => {
  it('checks a key once against the vendor, stores it, and the tenant works through it until it is removed', async () => {
    const g = gateway();
    const before = await createContact(g, ADMIN, 'first@acme.example');
    expect(before.status).toBe(409);
    expect(before.body.error.code).toBe('NOT_CONNECTED');

    const refused = await request(g, 'POST', '/v1/connections/hubspot', {
      body: { key: 'pat-na1-not-a-real-token' },
      token: ADMIN,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.parameter).toBe('key');

    const saved = await request(g, 'POST', '/v1/connections/hubspot', {
      body: { key: HUBSPOT_TEST_TOKEN },
      token: ADMIN,
    });
    expect(saved.status).toBe(201);
    expect(saved.body.data).toMatchObject({ vendor: 'hubspot', scope: 'tenant', status: 'connected', kind: 'key' });
    expect(JSON.stringify(saved.body)).not.toContain(HUBSPOT_TEST_TOKEN);

    const made = await createContact(g, AGENT, 'first@acme.example');
    expect(made.status).toBe(200);
    expect(hubspot.specViolations).toEqual([]);

    const listed = await request(g, 'GET', '/v1/connections', { token: AGENT });
    expect(listed.status).toBe(200);
    const rows = listed.body.data.connections as { vendor: string; status: string }[];
    expect(rows.find((r) => r.vendor === 'hubspot')?.status).toBe('connected');
    expect(rows.find((r) => r.vendor === 'batchdata')?.status).toBe('not_connected');
    expect(JSON.stringify(listed.body)).not.toContain(HUBSPOT_TEST_TOKEN);

    // The embedded database holds the audit log too: the connection and the write, with their vendor.
    const log = await request(g, 'GET', '/v1/audit', { token: ADMIN });
    const rows2 = (log.body.data.entries as { tool: string; vendor?: string; status: number }[]).map((e) => [
      e.tool,
      e.vendor,
      e.status,
    ]);
    expect(rows2.slice(0, 3)).toEqual([
      ['crm_createContact', 'hubspot', 200],
      ['connections.connect', 'hubspot', 200],
      ['crm_createContact', 'hubspot', 409],
    ]);

    // Another tenant sees none of it, and still is not connected.
    expect((await createContact(g, GLOBEX, 'x@globex.example')).body.error.code).toBe('NOT_CONNECTED');

    const removed = await request(g, 'DELETE', '/v1/connections/hubspot', { token: ADMIN });
    expect(removed.body.data).toEqual({ removed: true });
    expect((await createContact(g, AGENT, 'second@acme.example')).body.error.code).toBe('NOT_CONNECTED');
  });

  it('needs connections:manage for a tenant-wide connection; a user may connect for themselves', async () => {
    const g = gateway();
    const tenantWide = await request(g, 'POST', '/v1/connections/batchdata', {
      body: { key: batchdata.token },
      token: AGENT,
    });
    expect(tenantWide.status).toBe(403);
    expect(tenantWide.body.error.details.permission).toBe('connections:manage');
    const own = await request(g, 'POST', '/v1/connections/batchdata?scope=user', {
      body: { key: batchdata.token },
      token: AGENT,
    });
    expect(own.status).toBe(201);
    expect(own.body.data.scope).toBe('user');
    const traced = await request(g, 'POST', '/v1/tools/skiptrace/skipTraceProperty', {
      body: { street: '1011 Rosegold St', zip: '11010' },
      token: AGENT,
    });
    expect(traced.status).toBe(200);
    // The admin has no connection of their own, and there is no tenant-wide one.
    const admin = await request(g, 'POST', '/v1/tools/skiptrace/skipTraceProperty', {
      body: { street: '1011 Rosegold St', zip: '11010' },
      token: ADMIN,
    });
    expect(admin.body.error.code).toBe('NOT_CONNECTED');
    expect(
      batchdata.requests.every(
        (r) =>
          r.headers.authorization === `Bearer ${batchdata.token}` ||
          r.headers.authorization === 'Bearer environment-batchdata-token',
      ),
    ).toBe(true);
  });

  it('keeps connections across a restart (embedded store)', async () => {
    const first = gateway();
    const saved = await request(first, 'POST', '/v1/connections/hubspot', {
      body: { key: HUBSPOT_TEST_TOKEN },
      token: GLOBEX,
    });
    expect(saved.status).toBe(201);
    await first.close();
    open.splice(open.indexOf(first), 1);
    const second = gateway();
    expect((await createContact(second, GLOBEX, 'after-restart@globex.example')).status).toBe(200);
    await request(second, 'DELETE', '/v1/connections/hubspot', { token: GLOBEX });
  });
});

describe('HubSpot OAuth connect flow', () => {
  it('authorizes with PKCE, exchanges the code, refreshes when the token expires, and revokes on disconnect', async () => {
    const g = gateway();
    const denied = await createContact(g, AGENT, 'oauth@acme.example');
    expect(denied.status).toBe(409);
    const link: string = denied.body.error.details.connect_url;
    expect(link).toMatch(/^https:\/\/gateway\.example\/connect\/hubspot\?ticket=/);
    expect(denied.body.error.message).toContain(`Ask the user to open ${link}`);

    // The person opens the link and signs in as the caller: off to HubSpot's authorize page (the browser keeps the flow's cookie).
    const flow = await openConnectLink(g, link, AGENT);
    const authorize = flow.authorize;
    expect(`${authorize.origin}${authorize.pathname}`).toBe('https://app.hubspot.example/oauth/authorize');
    expect(authorize.searchParams.get('client_id')).toBe(hubspot.oauth.clientId);
    expect(authorize.searchParams.get('redirect_uri')).toBe('https://gateway.example/oauth/callback');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const state = authorize.searchParams.get('state')!;

    // HubSpot redirects back with a code; a tampered state is refused.
    const code = hubspot.grantCode({
      redirectUri: 'https://gateway.example/oauth/callback',
      codeChallenge: authorize.searchParams.get('code_challenge')!,
    });
    const forged = await finishInBrowser(g, flow, `code=${code}&state=${state.slice(0, -2)}xx`);
    expect(forged.status).toBe(400);
    const callback = await finishInBrowser(
      g,
      flow,
      `code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
    );
    expect(callback.status).toBe(200);
    expect(await callback.text()).toContain(
      `HubSpot account ${hubspot.hubId} is now connected to the workspace &#34;acme&#34;`,
    );

    // The agent's own connection (it may not manage the tenant's): its calls now work.
    expect((await createContact(g, AGENT, 'oauth@acme.example')).status).toBe(200);
    const issued = hubspot.issuedTokens.length;

    // An hour later the access token has expired: one refresh, and the call goes through.
    clock.advance(3_600_000);
    expect((await createContact(g, AGENT, 'later@acme.example')).status).toBe(200);
    expect(hubspot.issuedTokens.length).toBe(issued + 1);
    const refreshToken = hubspot.issuedTokens.at(-1)!.refreshToken;
    expect(hubspot.specViolations).toEqual([]);

    const listed = await request(g, 'GET', '/v1/connections', { token: AGENT });
    const mine = (listed.body.data.connections as { vendor: string; scope: string; last_refreshed_at?: string }[]).find(
      (c) => c.vendor === 'hubspot' && c.scope === 'user',
    );
    expect(mine?.last_refreshed_at).toBe(clock.now().toISOString());

    const removed = await request(g, 'DELETE', '/v1/connections/hubspot?scope=user', { token: AGENT });
    expect(removed.body.data).toEqual({ removed: true });
    expect(hubspot.isLiveRefreshToken(refreshToken)).toBe(false);
    expect(hubspot.requests.some((r) => r.path === '/oauth/2026-03/token/revoke')).toBe(true);
    expect((await createContact(g, AGENT, 'gone@acme.example')).body.error.code).toBe('NOT_CONNECTED');
  });

  it('answers NOT_CONNECTED with needs_reauthorization when HubSpot refuses the refresh', async () => {
    const g = gateway();
    const ask = await request(g, 'GET', '/v1/connections/hubspot/authorize', { token: ADMIN });
    expect(ask.status).toBe(200);
    const flow = await openConnectLink(g, ask.body.data.authorize_url, ADMIN);
    const authorize = flow.authorize;
    const code = hubspot.grantCode({
      redirectUri: 'https://gateway.example/oauth/callback',
      codeChallenge: authorize.searchParams.get('code_challenge')!,
    });
    const state = authorize.searchParams.get('state')!;
    expect(
      (await finishInBrowser(g, flow, `code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`)).status,
    ).toBe(200);
    expect((await createContact(g, ADMIN, 'ok@acme.example')).status).toBe(200);
    hubspot.revokeRefreshToken(hubspot.issuedTokens.at(-1)!.refreshToken);
    clock.advance(3_600_000);
    const refused = await createContact(g, ADMIN, 'refused@acme.example');
    expect(refused.status).toBe(409);
    expect(refused.body.error.details.connection_status).toBe('needs_reauthorization');
    const listed = await request(g, 'GET', '/v1/connections', { token: ADMIN });
    expect(
      (listed.body.data.connections as { vendor: string; scope: string; status: string }[]).find(
        (c) => c.vendor === 'hubspot' && c.scope === 'tenant',
      )?.status,
    ).toBe('needs_reauthorization');
    await request(g, 'DELETE', '/v1/connections/hubspot', { token: ADMIN });
  });
});
