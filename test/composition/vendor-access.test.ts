import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import { HubSpotServer } from '../fakes/hubspot-server.js';
import { NOW, request } from '../support/gateway.js';

// Every credential is a connection: the environment's credentials are the default tenant's tenant-wide
// connection, a stored connection serves every tenant (the default one too, in place of the
// environment's), and a vendor backend with only the gateway's app starts and answers NOT_CONNECTED.

const OPERATOR_TOKEN = 'pat-na1-operator-environment';
const STORED_TOKEN = 'pat-na1-stored-through-the-api';
const ADMIN = 'token-default-admin-0123456789';
const ACME = 'token-acme-admin-0123456789';
const CONNECT = /^https:\/\/gateway\.example\/connect\/hubspot\?ticket=/;

let hubspot: HubSpotServer;
let dataDir: string;
const clock = new FixedClock(NOW);
const open: Gateway[] = [];

const gateway = (env: Record<string, string>): Gateway => {
  const g = createGateway({
    env: {
      CRM_BACKEND: 'hubspot',
      HUBSPOT_BASE_URL: hubspot.baseUrl,
      HUBSPOT_APP_URL: 'https://app.hubspot.example',
      PUBLIC_BASE_URL: 'https://gateway.example',
      GATEWAY_DATA_DIR: mkdtempSync(join(dataDir, 'g-')),
      GATEWAY_API_KEYS: JSON.stringify([
        { name: 'default-admin', token: ADMIN, permissions: ['*'] },
        { name: 'acme-admin', token: ACME, permissions: ['*'], tenant: 'acme' },
      ]),
      ...env,
    },
    logger: pino({ level: 'silent' }),
    overrides: { clock },
  });
  open.push(g);
  return g;
};

/** A read that reaches HubSpot (the stand-in holds no contact 101: its 404 is HubSpot's answer). */
const getContact = (g: Gateway, token: string) =>
  request(g, 'POST', '/v1/tools/crm/getContact?format=json', { body: { contact_id: '101' }, token });
const REACHED = 404;

/** The bearer tokens HubSpot's CRM routes saw, in order. */
const crmTokens = () =>
  hubspot.requests
    .filter((r) => r.path.startsWith('/crm/'))
    .map((r) => (r.headers['authorization'] ?? '').replace(/^Bearer /, ''));

beforeAll(async () => {
  hubspot = await HubSpotServer.start({ clock, accessTokens: [OPERATOR_TOKEN, STORED_TOKEN] });
  dataDir = mkdtempSync(join(tmpdir(), 'gateway-vendor-access-'));
});
afterAll(async () => {
  for (const g of open) await g.close();
  await hubspot.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a vendor backend with only the app (every tenant connects its own)', () => {
  it('starts, and answers NOT_CONNECTED with a connect link to every tenant, the default one included', async () => {
    const g = gateway({ HUBSPOT_CLIENT_ID: hubspot.oauth.clientId, HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret });
    expect(g.backends['crm']).toBe('hubspot');
    for (const token of [ADMIN, ACME]) {
      const answer = await getContact(g, token);
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('NOT_CONNECTED');
      expect(answer.body.error.details.connect_url).toMatch(CONNECT);
    }
    const listed = await request(g, 'GET', '/v1/connections', { token: ADMIN });
    expect(listed.body.data.connections).toEqual([
      expect.objectContaining({ vendor: 'hubspot', scope: 'tenant', status: 'not_connected' }),
    ]);
  });
});

describe("the default tenant's connections", () => {
  it('uses a connection stored for the default tenant, in place of the environment one, and the environment one again once it is removed', async () => {
    const g = gateway({ HUBSPOT_ACCESS_TOKEN: OPERATOR_TOKEN });
    hubspot.requests.length = 0;
    expect((await getContact(g, ADMIN)).status).toBe(REACHED);
    expect(new Set(crmTokens())).toEqual(new Set([OPERATOR_TOKEN]));

    let listed = await request(g, 'GET', '/v1/connections', { token: ADMIN });
    expect(listed.body.data.connections).toEqual([
      expect.objectContaining({ vendor: 'hubspot', kind: 'environment', source: 'environment', in_use: true }),
    ]);
    // The environment's connection is listed, never deleted through the API.
    const refused = await request(g, 'DELETE', '/v1/connections/hubspot', { token: ADMIN });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('environment variables');

    const saved = await request(g, 'POST', '/v1/connections/hubspot', { body: { key: STORED_TOKEN }, token: ADMIN });
    expect(saved.status).toBe(201);
    hubspot.requests.length = 0;
    expect((await getContact(g, ADMIN)).status).toBe(REACHED);
    expect(new Set(crmTokens())).toEqual(new Set([STORED_TOKEN]));
    listed = await request(g, 'GET', '/v1/connections', { token: ADMIN });
    const rows = listed.body.data.connections as { kind: string; in_use?: boolean }[];
    expect(rows.map((r) => [r.kind, r.in_use])).toEqual([
      ['key', undefined],
      ['environment', false],
    ]);

    // Another tenant never acts through the default tenant's connections.
    expect((await getContact(g, ACME)).body.error.code).toBe('NOT_CONNECTED');

    const removed = await request(g, 'DELETE', '/v1/connections/hubspot', { token: ADMIN });
    expect(removed.body.data).toEqual({ removed: true });
    hubspot.requests.length = 0;
    expect((await getContact(g, ADMIN)).status).toBe(REACHED);
    expect(new Set(crmTokens())).toEqual(new Set([OPERATOR_TOKEN]));
    expect(hubspot.specViolations).toEqual([]);
  });
});
