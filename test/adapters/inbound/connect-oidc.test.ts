import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../../composition/gateway.js';
import { HUBSPOT_TEST_TOKEN, HubSpotServer } from '../../fakes/hubspot-server.js';
import { NOW, request } from '../../support/gateway.js';
import { principalId } from '../../../ports/authenticator.js';
import { openConnectPage } from '../../support/connect-flow.js';
import { Jar, signInAtProvider, startStandIn, STANDIN_CLIENT, type StandIn } from './oauth/oidc-standin.js';

// Issue 43: a person without a gateway API key (they call with their organisation's JWTs, or signed in to
// their client through its OpenID provider) uses the connect link through "Sign in with {provider}": the
// page starts the same federation as the authorization server's sign-in, the provider's answer comes back
// through the registered callback, and only the link's own caller goes on to the vendor. The provider is a
// local stand-in (oidc-provider); its ID tokens name `alice` of tenant acme and `bob` of tenant globex.

const BASE = 'https://gateway.example';
let hubspot: HubSpotServer;
let provider: StandIn;
let dataDir: string;
let g: Gateway;
const clock = new FixedClock(NOW);

beforeAll(async () => {
  hubspot = await HubSpotServer.start({ clock });
  provider = await startStandIn();
  await provider.configure(`${BASE}/oauth/oidc/callback`);
  dataDir = mkdtempSync(join(tmpdir(), 'gateway-connect-oidc-'));
  g = createGateway({
    env: {
      CRM_BACKEND: 'hubspot',
      HUBSPOT_BASE_URL: hubspot.baseUrl,
      HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN,
      HUBSPOT_CLIENT_ID: hubspot.oauth.clientId,
      HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret,
      HUBSPOT_APP_URL: 'https://app.hubspot.example',
      PUBLIC_BASE_URL: BASE,
      GATEWAY_DATA_DIR: dataDir,
      // The organisation's JWTs are accepted as bearer tokens...
      JWT_JWKS_URL: `${provider.issuer}/jwks`,
      JWT_ISSUER: provider.issuer,
      // ... and its OpenID provider signs people in.
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: STANDIN_CLIENT.id,
      OIDC_CLIENT_SECRET: STANDIN_CLIENT.secret,
      OIDC_NAME: 'Acme SSO',
    },
    logger: pino({ level: 'silent' }),
    overrides: { clock },
  });
});
afterAll(async () => {
  await g?.close();
  await hubspot?.close();
  await provider?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A JWT of the organisation's provider for `sub` in `tenant` (genuine: signed with its key). */
const jwtOf = (sub: string, tenant: string) => {
  const now = Math.floor(Date.now() / 1000);
  return provider.sign({ iss: provider.issuer, sub, tenant, permissions: ['*'], iat: now, exp: now + 600 });
};

const linkFor = async (token: string): Promise<string> => {
  const denied = await request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token });
  expect(denied.body.error.code, JSON.stringify(denied.body)).toBe('NOT_CONNECTED');
  return denied.body.error.details.connect_url as string;
};

const cookiesOf = (r: Response): Map<string, string> =>
  new Map(
    r.headers
      .getSetCookie()
      .map((c) => c.split(';')[0] ?? '')
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
  );
const header = (cookies: Map<string, string>) =>
  [...cookies]
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

/**
 * A browser on the connect page presses "Sign in with Acme SSO", signs in at the provider as `login`, and
 * follows the gateway's redirects from the callback: the gateway's last answer.
 */
const signInWithProvider = async (link: string, login: string): Promise<Response> => {
  const page = await openConnectPage(g, link);
  expect(page.status).toBe(200);
  expect(page.html).toContain('Sign in with Acme SSO');
  const action = /<form method="post" action="([^"]+\/oidc)">/.exec(page.html)?.[1];
  expect(action).toBe('/connect/hubspot/oidc');
  const started = await g.http.request(action!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie },
    body: new URLSearchParams({ ticket: page.ticket, form: page.form }).toString(),
  });
  expect(started.status).toBe(303);
  const cookies = cookiesOf(started);
  const back = await signInAtProvider(new Jar(), started.headers.get('location')!, provider.issuer, login);
  expect(back.origin + back.pathname).toBe(`${BASE}/oauth/oidc/callback`);
  let res = await g.http.request(back.pathname + back.search, { headers: { cookie: header(cookies) } });
  while (res.status === 303 && (res.headers.get('location') ?? '').startsWith('/')) {
    for (const [k, v] of cookiesOf(res)) cookies.set(k, v);
    res = await g.http.request(res.headers.get('location')!, { headers: { cookie: header(cookies) } });
  }
  return res;
};

const tokenExchanges = () => hubspot.requests.filter((r) => r.path.includes('/token')).length;

describe('the connect page signs in through the OpenID provider', () => {
  it("a caller with the organisation's JWT signs in as themselves and goes on to HubSpot, then connects", async () => {
    const alice = await jwtOf('alice', 'acme');
    const opened = await signInWithProvider(await linkFor(alice), 'alice');
    expect(opened.status).toBe(303);
    const authorize = new URL(opened.headers.get('location')!);
    expect(authorize.origin).toBe('https://app.hubspot.example');
    const flowCookie = opened.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => !c.startsWith('oauth_oidc_') && !c.startsWith('tg-connect-oidc-') && !c.endsWith('='));
    expect(flowCookie).toBeTruthy();
    const before = tokenExchanges();
    const code = hubspot.grantCode({
      redirectUri: `${BASE}/oauth/callback`,
      codeChallenge: authorize.searchParams.get('code_challenge')!,
    });
    const state = authorize.searchParams.get('state')!;
    const done = await g.http.request(
      `/oauth/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
      { headers: { cookie: flowCookie! } },
    );
    expect(done.status).toBe(200);
    expect(tokenExchanges()).toBe(before + 1);
    const call = await request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token: alice });
    // HubSpot itself answers now (the stand-in has no contact 101): the connection is alice's.
    expect(call.body.error?.code).toBe('NOT_FOUND');
  });

  it("a caller who is the provider's own person (oidc:<issuer>:<sub>, as after a federated sign-in) goes on too", async () => {
    // The call as a gateway token issued after signing in through the provider would make it: bob of globex.
    const tool = g.executor.registry.get('crm_getContact')!;
    const denied = await g.executor.run({
      tool,
      args: { contact_id: '101' },
      principal: {
        id: principalId('oidc', provider.issuer, 'bob'),
        name: 'Bob Example',
        permissions: new Set(['crm:*']),
        tenant: 'globex',
      },
      requestId: 'oidc-caller',
    });
    expect(denied.ok).toBe(false);
    if (denied.ok) return;
    expect(denied.error.code).toBe('NOT_CONNECTED');
    const opened = await signInWithProvider(String(denied.error.details?.['connect_url']), 'bob');
    expect(opened.status).toBe(303);
    expect(new URL(opened.headers.get('location')!).origin).toBe('https://app.hubspot.example');
  });

  it('someone else signing in at the provider (bob of globex, for a link of carol of initech) is refused and sent nowhere', async () => {
    const link = await linkFor(await jwtOf('carol', 'initech'));
    const before = tokenExchanges();
    const r = await signInWithProvider(link, 'bob');
    expect(r.status).toBe(403);
    expect(r.headers.get('location')).toBeNull();
    expect(await r.text()).toContain('belongs to another person');
    expect(tokenExchanges()).toBe(before);
  });

  it('the return step without the pending sign-in of this browser is refused', async () => {
    const r = await g.http.request('/connect/oidc/return?code=x&state=y');
    expect(r.status).toBe(400);
    expect(await r.text()).toContain('Nothing was connected');
  });

  it('the button needs the connect page of this browser (the Strict form cookie)', async () => {
    const page = await openConnectPage(g, await linkFor(await jwtOf('dave', 'umbrella')));
    const r = await g.http.request('/connect/hubspot/oidc', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ticket: page.ticket, form: page.form }).toString(),
    });
    expect(r.status).toBe(403);
    expect(r.headers.get('location')).toBeNull();
  });
});
