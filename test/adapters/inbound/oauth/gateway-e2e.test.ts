import { serve, type ServerType } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../../composition/gateway.js';
import { Authenticator } from '../../../../ports/authenticator.js';
import { DEMO_TOKEN, READER_TOKEN, testGateway } from '../../../support/gateway.js';
import { Browser, formAction, hidden, location } from './oauth-harness.js';

// The gateway as createGateway composes it, in memory mode, with nothing configured for OAuth: its own
// authorization server is on, the protected resource metadata names it with the resource `{base}/mcp`, and
// the official MCP SDK client connects with no token, signing in with the demo token or an API key, and
// calls real tools with the scopes consented.

const REDIRECT = 'http://127.0.0.1:9/callback';

class Provider {
  client?: any;
  saved?: any;
  verifier = '';
  authorizationUrl?: URL;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata = {
    client_name: 'E2E agent',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  clientInformation = () => this.client;
  saveClientInformation = (c: any) => void (this.client = c);
  tokens = () => this.saved;
  saveTokens = (t: any) => void (this.saved = t);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  forgetRedirect = () => void (this.authorizationUrl = undefined);
  saveCodeVerifier = (v: string) => void (this.verifier = v);
  codeVerifier = () => this.verifier;
}

let server: ServerType;
let base = '';
let gateway: Gateway;

beforeAll(async () => {
  // The address is known before the gateway is made (it is the issuer and the resource): serve first, then
  // hand the requests to the gateway once it exists.
  const mounted: { app?: Hono } = {};
  const outer = new Hono();
  outer.all('*', (c) => (mounted.app ? mounted.app.fetch(c.req.raw, c.env) : c.text('starting', 503)));
  server = await new Promise((resolve) => {
    const s = serve({ fetch: outer.fetch, port: 0, hostname: '127.0.0.1', autoCleanupIncoming: false }, () =>
      resolve(s),
    );
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gateway = testGateway({}, { PUBLIC_BASE_URL: base });
  mounted.app = gateway.http;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await gateway.close();
});

const personAllows = async (url: URL, key: string, tick?: (offered: string[]) => string[]): Promise<URL> => {
  const browser = new Browser();
  const page = await browser.go(location(await browser.go(url.href), base).href);
  const signIn = await page.text();
  expect(signIn).toContain('name="api_key"');
  const consent = await browser.post(`${base}${formAction(signIn)}`, { api_key: key });
  const html = await consent.text();
  const offered = [...html.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]!);
  const form = { sign_in: hidden(html, 'sign_in') ?? '', scope: tick ? tick(offered) : offered };
  let next = location(await browser.post(`${base}${formAction(html)}`, form), base);
  while (next.href.startsWith(base)) next = location(await browser.go(next.href), base);
  return next;
};

const connected = async (key: string, tick?: (offered: string[]) => string[]) => {
  const provider = new Provider();
  const url = new URL(`${base}/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider as never });
  await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  await first.finishAuth((await personAllows(provider.authorizationUrl!, key, tick)).searchParams);
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider as never }));
  return { client, provider };
};

const textOf = (result: any): string => (result.content as { text: string }[]).map((b) => b.text).join('\n');

describe('the gateway in memory mode, reached by OAuth only', () => {
  it('signs in with the demo token, and the consented scopes call real tools', async () => {
    // The SDK asks for the scopes of the gateway's 401 challenge (every `:read`); the person leaves one.
    const { client, provider } = await connected(DEMO_TOKEN, (offered) => {
      expect(offered).toEqual(expect.arrayContaining(['crm:read', 'files:read', 'records:read']));
      return ['crm:read'];
    });
    expect(provider.saved.scope).toBe('crm:read');
    const found = await client.callTool({ name: 'crm_searchContacts', arguments: { query: 'rosegold' } });
    expect(found.isError).toBeFalsy();
    expect(textOf(found)).toContain('Maria Alvarez');
    // A permission left unticked is not held by the token, whatever the demo token itself may do: the call is
    // answered 403 insufficient_scope (step-up), and the client is sent back to this server for crm:write.
    provider.forgetRedirect();
    await expect(
      client.callTool({ name: 'crm_createContact', arguments: { email: 'new.person@example.com', firstname: 'New' } }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.searchParams.get('scope')?.split(' ')).toContain('crm:write');
    await client.close();
  });

  it("an API key's sign-in acts as that key's principal, within the key's permissions", async () => {
    const { client, provider } = await connected(READER_TOKEN);
    // Asked for every `:read`; the key holds crm:read (and skiptrace:read, not among those asked).
    expect(provider.saved.scope).toBe('crm:read');
    const authenticator = gateway.container.get(Authenticator);
    expect(await authenticator.authenticate(provider.saved.access_token)).toMatchObject({
      id: 'key:reader',
      tenant: 'default',
    });
    const found = await client.callTool({ name: 'crm_getContact', arguments: { contact_id: 101 } });
    expect(textOf(found)).toContain('Maria');
    await client.close();
  });

  it('the REST surface takes the same access token', async () => {
    const { provider } = await connected(READER_TOKEN);
    const res = await fetch(`${base}/v1/tools/crm/getContact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${provider.saved.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ contact_id: 101 }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
  });

  it('lists the client among the grants of the person who signed in, and a revoked grant refreshes no more', async () => {
    const { provider } = await connected(READER_TOKEN);
    const bearer = { authorization: `Bearer ${provider.saved.access_token}` };
    const listed = (await (await fetch(`${base}/v1/grants`, { headers: bearer })).json()) as any;
    const grant = listed.data.grants.find((g: any) => g.client_id === provider.client.client_id);
    expect(grant).toMatchObject({ principal: 'key:reader', client_name: 'E2E agent' });
    const revoked = await fetch(`${base}/v1/grants/${grant.grant_id}`, { method: 'DELETE', headers: bearer });
    expect(revoked.status).toBe(200);
    const refresh = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: provider.saved.refresh_token,
        client_id: provider.client.client_id,
      }),
    });
    expect(((await refresh.json()) as { error?: string }).error).toBe('invalid_grant');
  });
});
