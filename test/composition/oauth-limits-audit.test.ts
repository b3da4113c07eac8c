import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../composition/gateway.js';
import {
  Browser,
  formAction,
  location,
  pkcePair,
  register,
  type Harness,
} from '../adapters/inbound/oauth/oauth-harness.js';
import { testGateway } from '../support/gateway.js';

// Issue 38 through the gateway as configured: OAUTH_REGISTRATIONS_PER_HOUR and OAUTH_SIGN_IN_FAILURES_PER_MINUTE
// are in force, the refusals answer 429 with Retry-After, and each is an audit row (GET /v1/audit) beside the
// wrong keys' own `oauth.sign_in_refused` rows.

const AUDITOR = 'auditor-key-0123456789abcdef';
let server: ServerType;
let base = '';
let dir = '';
let gateway: Gateway | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-oauth-limits-'));
  const outer = new Hono();
  outer.all('*', (c) => (gateway ? gateway.http.fetch(c.req.raw, c.env) : c.text('starting', 503)));
  server = await new Promise((resolve) => {
    const s = serve({ fetch: outer.fetch, port: 0, hostname: '127.0.0.1', autoCleanupIncoming: false }, () =>
      resolve(s),
    );
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gateway = testGateway(
    {},
    {
      GATEWAY_DATA_DIR: dir,
      PUBLIC_BASE_URL: base,
      GATEWAY_API_KEYS: JSON.stringify([{ name: 'auditor', token: AUDITOR, permissions: ['*'], tenant: 'default' }]),
      OAUTH_REGISTRATIONS_PER_HOUR: '2',
      OAUTH_SIGN_IN_FAILURES_PER_MINUTE: '2',
    },
  );
});
afterAll(async () => {
  await gateway?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const audit = async (): Promise<{ tool: string; status: number; targets: string[] }[]> => {
  const r = await fetch(`${base}/v1/audit`, { headers: { authorization: `Bearer ${AUDITOR}` } });
  expect(r.status).toBe(200);
  return ((await r.json()) as { data: { entries: { tool: string; status: number; targets: string[] }[] } }).data
    .entries;
};

describe('the authorization server limits of the configuration', () => {
  it('a registration past the limit: 429 with Retry-After, and an audit row', async () => {
    const client = await register(base);
    await register(base);
    const refused = await fetch(`${base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    await expect.poll(audit).toContainEqual(expect.objectContaining({ tool: 'oauth.register_limited', status: 429 }));

    // Wrong keys in the form: each audited as refused; past the limit the refusal is audited too.
    const browser = new Browser();
    const h = { base, resource: `${base}/mcp` } as Harness;
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0]!,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      resource: h.resource,
    });
    const page = await browser.go(location(await browser.go(`${base}/authorize?${query}`), base).href);
    const action = `${base}${formAction(await page.text())}`;
    expect((await browser.post(action, { api_key: 'wrong-1' })).status).toBe(401);
    expect((await browser.post(action, { api_key: 'wrong-2' })).status).toBe(401);
    const stopped = await browser.post(action, { api_key: AUDITOR });
    expect(stopped.status).toBe(429);
    expect(Number(stopped.headers.get('retry-after'))).toBeGreaterThan(0);
    await expect.poll(audit).toContainEqual(expect.objectContaining({ tool: 'oauth.sign_in_limited', status: 429 }));
    const rows = await audit();
    expect(rows.filter((r) => r.tool === 'oauth.sign_in_refused')).toHaveLength(2);
    expect(rows.find((r) => r.tool === 'oauth.sign_in_limited')!.targets).toContain('address:127.0.0.1');
  });
});
