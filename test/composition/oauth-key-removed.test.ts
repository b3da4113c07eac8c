import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEncryptionKey } from '../../adapters/outbound/persistence/secret-box.js';
import type { Gateway } from '../../composition/gateway.js';
import {
  authorize,
  decodeJwt,
  exchange,
  register,
  token,
  type Harness,
} from '../adapters/inbound/oauth/oauth-harness.js';
import { DEMO_TOKEN, testGateway } from '../support/gateway.js';

// Issue 38, as an operator meets it: a person signs in to the gateway's own authorization server with an
// API key and consents; the operator then removes that key from GATEWAY_API_KEYS (or narrows it) and
// restarts on the same data directory. The old refresh token must not mint access tokens any more (it gets
// invalid_grant, and the refusal is in the audit log), and an access token issued before is refused; a
// narrowed key's next token carries only what it still holds.

const WRITER = 'writer-key-0123456789abcdef';
const keys = (permissions: string[] | undefined) =>
  JSON.stringify(permissions ? [{ name: 'writer', token: WRITER, permissions, tenant: 'default' }] : []);

let server: ServerType;
let base = '';
let dir = '';
const mounted: { gateway?: Gateway } = {};
const secret = newEncryptionKey();

/** The gateway on the same data directory and secret, with the writer key as given (or none). */
const restart = async (permissions: string[] | undefined) => {
  await mounted.gateway?.close();
  mounted.gateway = testGateway(
    {},
    {
      GATEWAY_DATA_DIR: dir,
      GATEWAY_ENCRYPTION_KEY: secret,
      PUBLIC_BASE_URL: base,
      GATEWAY_API_KEYS: keys(permissions),
    },
  );
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-key-removed-'));
  const outer = new Hono();
  outer.all('*', (c) => (mounted.gateway ? mounted.gateway.http.fetch(c.req.raw, c.env) : c.text('starting', 503)));
  server = await new Promise((resolve) => {
    const s = serve({ fetch: outer.fetch, port: 0, hostname: '127.0.0.1', autoCleanupIncoming: false }, () =>
      resolve(s),
    );
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await mounted.gateway?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** The harness view of the running gateway, for the OAuth helpers. */
const harness = (): Harness => ({ base, resource: `${base}/mcp` }) as Harness;

const mcpCall = (accessToken: string, name: string, args: Record<string, unknown>) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${accessToken}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });

const signIn = async (scope: string) => {
  const client = await register(base);
  const t = await exchange(harness(), client, await authorize(harness(), client, { scope, key: WRITER }));
  expect(t.status).toBe(200);
  return { clientId: client.client_id, access: t.body.access_token as string, refresh: t.body.refresh_token as string };
};

describe('a key removed or narrowed, then a restart on the same data', () => {
  it('a removed key: the refresh token is refused and audited, the access token refused', async () => {
    await restart(['crm:*']);
    const s = await signIn('crm:read crm:write');
    expect((await mcpCall(s.access, 'crm_createContact', { values: { email: 'before@example.com' } })).status).toBe(
      200,
    );

    await restart(undefined);
    const refused = await token(base, { grant_type: 'refresh_token', refresh_token: s.refresh, client_id: s.clientId });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    const call = await mcpCall(s.access, 'crm_createContact', { values: { email: 'after@example.com' } });
    expect(call.status).toBe(401);
    expect(await call.text()).toContain('no longer configured');

    // The refusal is in the audit log (read with the demo token, which may read the default tenant's).
    await new Promise((ok) => setTimeout(ok, 100)); // the audit write is not awaited by the token endpoint
    const audit = await fetch(`${base}/v1/audit?tool=oauth.account_gone`, {
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    const entries = ((await audit.json()) as { data: { entries: { principal: string; status: number }[] } }).data
      .entries;
    expect(entries).toContainEqual(expect.objectContaining({ principal: 'key:writer', status: 401 }));
  });

  it('a narrowed key: the next token carries only what the key still holds', async () => {
    await restart(['crm:*']);
    const s = await signIn('crm:read crm:write');
    await restart(['crm:read']);
    const r = await token(base, { grant_type: 'refresh_token', refresh_token: s.refresh, client_id: s.clientId });
    expect(r.status).toBe(200);
    expect(decodeJwt(r.body.access_token as string).payload.scope).toBe('crm:read');
    // The token issued before the change is narrowed too: the write is refused with a step-up challenge.
    const write = await mcpCall(s.access, 'crm_createContact', { values: { email: 'narrowed@example.com' } });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toContain('insufficient_scope');
  });
});
