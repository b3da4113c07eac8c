import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { AdapterFactory } from 'oidc-provider';
import {
  createAuthorizationServer,
  type AuthorizationServer,
  type AuthorizationServerOptions,
} from '../../../../adapters/inbound/oauth/authorization-server.js';
import type { AuthorizationEvent } from '../../../../adapters/inbound/oauth/interaction-routes.js';
import { randomSigningKey } from '../../../../adapters/inbound/oauth/signing-keys.js';
import { isAuthFailure } from '../../../../ports/authenticator.js';
import type { SignedIn } from '../../../../application/identity/sign-in.js';

// An authorization server mounted on a Hono app served by @hono/node-server on 127.0.0.1, with a protected
// `/mcp` that accepts only its access tokens, and a browser (a cookie jar over fetch) to drive the pages.

export const SCOPES = [
  'crm:read',
  'crm:write',
  'crm:destructive',
  'files:read',
  'files:write',
  'files:destructive',
  'records:read',
];

/** The operator's keys: what each typed key signs in as. */
export const KEYS: Record<string, SignedIn> = {
  'ops-key-0123456789': { tenant: 'acme', principalId: 'key:ops', name: 'ops', permissions: ['crm:read', 'files:*'] },
  'admin-key-0123456789': { tenant: 'default', principalId: 'key:admin', name: 'admin', permissions: ['*'] },
  'reader-key-0123456789': { tenant: 'acme', principalId: 'key:reader', name: 'reader', permissions: ['crm:read'] },
};

export interface Harness {
  readonly base: string;
  readonly resource: string;
  readonly as: AuthorizationServer;
  readonly events: AuthorizationEvent[];
  close(): Promise<void>;
}

export const startHarness = async (
  more: Partial<AuthorizationServerOptions> & {
    adapter?: AdapterFactory;
    /** Routes of the test's own, registered before the harness's `/mcp` (so they take precedence). */
    routes?: (app: Hono, as: AuthorizationServer) => void;
  } = {},
): Promise<Harness> => {
  const { routes: extraRoutes, ...options } = more;
  const app = new Hono();
  // The server listens first (the issuer needs its port); the gateway's routes are put in place after.
  const mounted: { gateway?: Hono } = {};
  app.all('*', (c) => (mounted.gateway ? mounted.gateway.fetch(c.req.raw, c.env) : c.text('starting', 503)));
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', autoCleanupIncoming: false }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const resource = `${base}/mcp`;
  const events: AuthorizationEvent[] = [];
  const as = createAuthorizationServer({
    issuer: base,
    resource,
    scopes: SCOPES,
    verifyApiKey: (key) => Promise.resolve(KEYS[key]),
    signingKeys: [randomSigningKey()],
    cookieKeys: [randomBytes(32).toString('base64url')],
    onEvent: (e) => events.push(e),
    ...options,
  });
  const gateway = new Hono();
  gateway.route('/', as.routes);
  extraRoutes?.(gateway, as);
  // The protected resource: what the gateway's authenticator will do with these tokens.
  gateway.get('/.well-known/oauth-protected-resource/mcp', (c) =>
    c.json({ resource, authorization_servers: [as.issuer], scopes_supported: SCOPES }),
  );
  gateway.all('/mcp', async (c) => {
    const bearer = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    const challenge = `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
    if (!bearer) return c.json({ error: 'no token' }, 401, { 'www-authenticate': challenge });
    const who = await as.verifyAccessToken(bearer);
    if (isAuthFailure(who))
      return c.json({ error: who.reason }, 401, { 'www-authenticate': `${challenge}, error="invalid_token"` });
    return c.json({ ...who, permissions: [...who.permissions] });
  });
  mounted.gateway = gateway;
  return {
    base,
    resource,
    as,
    events,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** A browser: follows nothing by itself, keeps cookies per name (paths ignored: one test, one site). */
export class Browser {
  private readonly cookies = new Map<string, string>();

  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  post(url: string, form: Record<string, string | string[]>): Promise<Response> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    return this.go(url, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }
}

export const pkcePair = (): { verifier: string; challenge: string } => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export const location = (res: Response, base: string): URL => {
  const to = res.headers.get('location');
  if (!to) throw new Error(`expected a redirect, got ${res.status}: ${res.statusText}`);
  return new URL(to, base);
};

/** The value of a hidden input in a page. */
export const hidden = (html: string, name: string): string | undefined =>
  new RegExp(`name="${name}" value="([^"]*)"`)
    .exec(html)?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

export const formAction = (html: string, index = 0): string => {
  const all = [...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]!);
  const action = all[index];
  if (!action) throw new Error(`no form ${index} in the page`);
  return action;
};

export interface Registered {
  readonly client_id: string;
  readonly redirect_uris: string[];
}

export const register = async (base: string, metadata: Record<string, unknown> = {}): Promise<Registered> => {
  const res = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test Agent',
      redirect_uris: ['http://127.0.0.1:9/callback'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      application_type: 'native',
      ...metadata,
    }),
  });
  if (res.status !== 201) throw new Error(`registration: ${res.status} ${await res.text()}`);
  return (await res.json()) as Registered;
};

export interface Authorized {
  readonly code: string;
  readonly iss: string | null;
  readonly state: string | null;
  readonly verifier: string;
  readonly redirectUri: string;
}

/**
 * The browser part of the flow: open /authorize, sign in with `key`, consent (the ticked scopes: all offered
 * unless `tick` says which), and read the code off the redirect.
 */
export const authorize = async (
  h: Harness,
  client: Registered,
  options: { key?: string; scope?: string; tick?: string[]; resource?: string; browser?: Browser } = {},
): Promise<Authorized> => {
  const browser = options.browser ?? new Browser();
  const { verifier, challenge } = pkcePair();
  const redirectUri = client.redirect_uris[0]!;
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-123',
    resource: options.resource ?? h.resource,
    ...(options.scope !== undefined ? { scope: options.scope } : {}),
  });
  const first = await browser.go(`${h.base}/authorize?${query}`);
  const interaction = location(first, h.base);
  const signIn = await browser.go(interaction.href);
  if (signIn.status !== 200) throw new Error(`sign-in page: ${signIn.status} ${await signIn.text()}`);
  const signInHtml = await signIn.text();
  const consent = await browser.post(`${h.base}${formAction(signInHtml)}`, {
    api_key: options.key ?? 'ops-key-0123456789',
  });
  const consentHtml = await consent.text();
  if (consent.status !== 200) throw new Error(`consent page: ${consent.status} ${consentHtml}`);
  const offered = [...consentHtml.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]!);
  const resumed = await browser.post(`${h.base}${formAction(consentHtml)}`, {
    sign_in: hidden(consentHtml, 'sign_in') ?? '',
    scope: options.tick ?? offered,
  });
  let next = location(resumed, h.base);
  while (next.href.startsWith(h.base)) next = location(await browser.go(next.href), h.base);
  const code = next.searchParams.get('code');
  if (!code) throw new Error(`no code: ${next.href}`);
  return { code, iss: next.searchParams.get('iss'), state: next.searchParams.get('state'), verifier, redirectUri };
};

export const token = async (base: string, form: Record<string, string>): Promise<{ status: number; body: any }> => {
  const res = await fetch(`${base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: await res.json() };
};

export const exchange = (h: Harness, client: Registered, a: Authorized, more: Record<string, string> = {}) =>
  token(h.base, {
    grant_type: 'authorization_code',
    code: a.code,
    redirect_uri: a.redirectUri,
    client_id: client.client_id,
    code_verifier: a.verifier,
    resource: h.resource,
    ...more,
  });

export const decodeJwt = (jwt: string): { header: any; payload: any } => {
  const [h, p] = jwt.split('.');
  return {
    header: JSON.parse(Buffer.from(h!, 'base64url').toString('utf8')),
    payload: JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')),
  };
};
