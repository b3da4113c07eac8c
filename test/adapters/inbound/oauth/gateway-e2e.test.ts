import { serve, type ServerType } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuthorizationServer,
  type AuthorizationServer,
} from '../../../../adapters/inbound/oauth/authorization-server.js';
import { serverKeys } from '../../../../adapters/inbound/oauth/signing-keys.js';
import { ApiKeyAuthenticator } from '../../../../adapters/outbound/auth/api-key-authenticator.js';
import { CompositeAuthenticator } from '../../../../adapters/outbound/auth/composite-authenticator.js';
import { withOwnAccessTokens } from '../../../../application/identity/oauth-bearer.js';
import { verifyApiKeyWith } from '../../../../application/identity/sign-in.js';
import type { Gateway } from '../../../../composition/gateway.js';
import { DEMO_TOKEN, READER_TOKEN, testGateway } from '../../../support/gateway.js';
import { Browser, formAction, hidden, location } from './oauth-harness.js';

// The wiring docs/identity.md proposes, done from outside the composition: the real gateway in memory mode
// (its /mcp, its tools, its executor), the authorization server's routes mounted in front of it, its
// authenticator wrapped with withOwnAccessTokens, and the protected resource metadata naming this server
// with the resource `{base}/mcp`. The official MCP SDK client connects with no token, signing in with the
// demo token or an API key, and calls real tools with the scopes consented.

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
  saveCodeVerifier = (v: string) => void (this.verifier = v);
  codeVerifier = () => this.verifier;
}

let server: ServerType;
let base = '';
let gateway: Gateway;
let as: AuthorizationServer;

beforeAll(async () => {
  const outer = new Hono();
  const mounted: { app?: Hono } = {};
  outer.all('*', (c) => (mounted.app ? mounted.app.fetch(c.req.raw, c.env) : c.text('starting', 503)));
  server = await new Promise((resolve) => {
    const s = serve({ fetch: outer.fetch, port: 0, hostname: '127.0.0.1', autoCleanupIncoming: false }, () =>
      resolve(s),
    );
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // What composition would do: the keys in force (the demo token among them) sign in; the authenticator
  // takes this server's tokens beside them.
  const keys = new ApiKeyAuthenticator([
    { name: 'demo', token: DEMO_TOKEN, permissions: ['*'], kind: 'demo' },
    { name: 'reader', token: READER_TOKEN, permissions: ['crm:read', 'skiptrace:read'] },
  ]);
  // Every permission of the gateway's groups (composition would take them from the registry).
  const scopes = ['files', 'records', 'workspaces', 'crm', 'skiptrace', 'web'].flatMap((g) =>
    ['read', 'write', 'destructive'].map((level) => `${g}:${level}`),
  );
  as = createAuthorizationServer({
    issuer: base,
    resource: `${base}/mcp`,
    scopes,
    verifyApiKey: verifyApiKeyWith(keys),
    ...serverKeys(),
    demoHint: true,
  });
  gateway = testGateway(
    {
      authenticator: withOwnAccessTokens(new CompositeAuthenticator(keys, undefined), as.issuer, as.verifyAccessToken),
    },
    { PUBLIC_BASE_URL: base },
  );
  const app = new Hono();
  app.route('/', as.routes);
  const prm = {
    resource: `${base}/mcp`,
    authorization_servers: [as.issuer],
    scopes_supported: scopes,
    bearer_methods_supported: ['header'],
  };
  app.get('/.well-known/oauth-protected-resource', (c) => c.json(prm));
  app.get('/.well-known/oauth-protected-resource/mcp', (c) => c.json(prm));
  app.all('*', (c) => gateway.http.fetch(c.req.raw, c.env));
  mounted.app = app;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await gateway.close();
});

const personAllows = async (url: URL, key: string, tick?: (offered: string[]) => string[]): Promise<URL> => {
  const browser = new Browser();
  const page = await browser.go(location(await browser.go(url.href), base).href);
  const signIn = await page.text();
  expect(signIn).toContain('demo token');
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
    // A permission left unticked is not held by the token, whatever the demo token itself may do.
    const write = await client.callTool({
      name: 'crm_createContact',
      arguments: { email: 'new.person@example.com', firstname: 'New' },
    });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toContain('crm:write');
    await client.close();
  });

  it("an API key's sign-in acts as that key's principal, within the key's permissions", async () => {
    const { client, provider } = await connected(READER_TOKEN);
    // Asked for every `:read`; the key holds crm:read (and skiptrace:read, not among those asked).
    expect(provider.saved.scope).toBe('crm:read');
    expect(await as.verifyAccessToken(provider.saved.access_token)).toMatchObject({
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
});
