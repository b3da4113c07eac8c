import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAuthFailure } from '../../../../ports/authenticator.js';
import { Browser, formAction, hidden, location, startHarness, type Harness } from './oauth-harness.js';

// The official MCP TypeScript SDK client's own OAuth support against the authorization server, with a
// tiny MCP server on `/mcp` that accepts only this server's access tokens (verifyAccessToken): it starts
// with no token, discovers the protected resource and the authorization server, registers (DCR), sends
// the person through sign-in and consent with PKCE, exchanges the code, lists and calls tools, and
// refreshes when its access token stops working.

const REDIRECT = 'http://127.0.0.1:9/callback';

/** What an agent host keeps for one server: its registration, tokens and the PKCE verifier. */
class MemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK test agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    routes: (app, as) => {
      const challenge = (base: string, error?: string) =>
        `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"${error ? `, error="${error}"` : ''}`;
      app.all('/mcp', async (c) => {
        const base = new URL(c.req.url).origin;
        const bearer = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
        if (!bearer) return c.json({ error: 'unauthorized' }, 401, { 'www-authenticate': challenge(base) });
        const who = await as.verifyAccessToken(bearer);
        if (isAuthFailure(who))
          return c.json({ error: who.reason }, 401, { 'www-authenticate': challenge(base, 'invalid_token') });
        const server = new Server({ name: 'oauth-test', version: '1.0.0' }, { capabilities: { tools: {} } });
        server.setRequestHandler('tools/list', () => ({
          tools: [{ name: 'whoami', description: 'Who the token speaks for', inputSchema: { type: 'object' } }],
        }));
        server.setRequestHandler('tools/call', () => ({
          content: [
            { type: 'text', text: JSON.stringify({ id: who.id, tenant: who.tenant, scope: [...who.permissions] }) },
          ],
        }));
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        await server.connect(transport);
        try {
          return await transport.handleRequest(c.req.raw);
        } finally {
          await server.close();
        }
      });
    },
  });
});
afterAll(() => h.close());

/** The person's part: open the URL the client produced, sign in with the key, allow; the callback URL. */
const personAllows = async (authorizationUrl: URL, key = 'ops-key-0123456789'): Promise<URL> => {
  const browser = new Browser();
  const page = await browser.go(location(await browser.go(authorizationUrl.href), h.base).href);
  const consent = await browser.post(`${h.base}${formAction(await page.text())}`, { api_key: key });
  const html = await consent.text();
  const offered = [...html.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]!);
  let next = location(
    await browser.post(`${h.base}${formAction(html)}`, { sign_in: hidden(html, 'sign_in') ?? '', scope: offered }),
    h.base,
  );
  while (next.href.startsWith(h.base)) next = location(await browser.go(next.href), h.base);
  return next;
};

const newClient = () => new Client({ name: 'oauth-e2e', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });

describe('the official MCP SDK client, with no token', () => {
  const provider = new MemoryOAuthProvider();
  const mcpUrl = () => new URL(`${h.base}/mcp`);

  it('discovers, registers, sends the person to sign in, and connects with the token it gets', async () => {
    const first = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await expect(newClient().connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toEqual(expect.any(String));
    const url = provider.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${h.base}/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(h.resource);

    const callback = await personAllows(url);
    expect(callback.searchParams.get('iss')).toBe(h.base);
    await first.finishAuth(callback.searchParams);
    expect(provider.saved?.refresh_token).toEqual(expect.any(String));

    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['whoami']);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(JSON.parse(text)).toMatchObject({ id: 'key:ops', tenant: 'acme' });
    expect(JSON.parse(text).scope).toEqual(expect.arrayContaining(['crm:read', 'files:write']));
    await client.close();
  });

  it('refreshes by itself when its access token is refused, and the refresh token rotates', async () => {
    const before = provider.saved!;
    provider.saved = { ...before, access_token: 'no-longer-valid' };
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    expect((await client.listTools()).tools).toHaveLength(1);
    expect(provider.saved.access_token).not.toBe('no-longer-valid');
    expect(provider.saved.refresh_token).toEqual(expect.any(String));
    expect(provider.saved.refresh_token).not.toBe(before.refresh_token);
    await client.close();
  });

  it('refuses a callback whose iss is not the authorization server it used (mix-up, RFC 9207)', async () => {
    const other = new MemoryOAuthProvider();
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: other });
    await expect(newClient().connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const callback = await personAllows(other.authorizationUrl!);
    callback.searchParams.set('iss', 'https://attacker.example');
    await expect(transport.finishAuth(callback.searchParams)).rejects.toThrow();
    expect(other.saved).toBeUndefined();
  });
});
