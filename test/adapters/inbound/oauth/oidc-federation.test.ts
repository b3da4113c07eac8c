import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizationServer } from '../../../../adapters/inbound/oauth/authorization-server.js';
import { randomSigningKey } from '../../../../adapters/inbound/oauth/signing-keys.js';
import { principalId } from '../../../../ports/authenticator.js';
import {
  decodeJwt,
  exchange,
  formAction,
  hidden,
  location,
  pkcePair,
  register,
  startHarness,
  type Harness,
  type Registered,
} from './oauth-harness.js';
import { Jar, signInAtProvider, startStandIn, STANDIN_CLIENT, type StandIn } from './oidc-standin.js';

// Signing in at the gateway's authorization server through an external OpenID provider (a local stand-in:
// oidc-provider with its development pages). The whole way: a client's /authorize, the gateway's sign-in page,
// "Sign in with Acme SSO", the provider's login, the callback, the same consent page as an API key's, the code,
// the token, whose principal is `oidc:<issuer>:<sub>` in the tenant the provider's claim names. And the hostile
// answers: a wrong state, a replayed callback, ID tokens from another issuer, for another audience or signed by
// another key, and a claim that is no tenant id: an error page each, and nothing granted.

let provider: StandIn;
let h: Harness;
let client: Registered;
/** Rewrites the provider's token response (what a hostile or broken provider, or a network attacker, would). */
let tamper: ((idToken: Record<string, unknown>) => Promise<string>) | undefined;
const fetched: string[] = [];

beforeAll(async () => {
  provider = await startStandIn();
  h = await startHarness({
    openIdProvider: {
      issuer: provider.issuer,
      clientId: STANDIN_CLIENT.id,
      clientSecret: STANDIN_CLIENT.secret,
      name: 'Acme SSO',
      // Every request to the provider comes through here (in the gateway: its URL guard).
      fetch: async (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        fetched.push(new URL(url).pathname);
        const res = await fetch(input, init);
        if (!tamper || new URL(url).pathname !== '/token' || res.status !== 200) return res;
        const body = (await res.json()) as Record<string, unknown>;
        body['id_token'] = await tamper(decodeJwt(String(body['id_token'])).payload);
        return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
      },
    },
  });
  await provider.configure(`${h.base}/oauth/oidc/callback`);
  client = await register(h.base);
});
afterAll(async () => {
  await h?.close();
  await provider?.close();
});

interface Started {
  readonly jar: Jar;
  readonly uid: string;
  readonly verifier: string;
  /** The provider's authorization URL the button sent the browser to. */
  readonly authorizationUrl: string;
}

/** A client's /authorize, the sign-in page, and the "Sign in with Acme SSO" button. */
const startAtGateway = async (): Promise<Started> => {
  const jar = new Jar();
  const { verifier, challenge } = pkcePair();
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0]!,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'client-state',
    resource: h.resource,
    scope: 'crm:read crm:write files:read',
  });
  const interaction = location(await jar.go(`${h.base}/authorize?${query}`), h.base);
  const uid = interaction.pathname.split('/').pop()!;
  const page = await jar.go(interaction.href);
  const html = await page.text();
  expect(html).toContain('name="api_key"');
  expect(html).toContain('Sign in with Acme SSO');
  const button = formAction(html, 1);
  expect(button).toBe(`/oauth/interaction/${uid}/oidc`);
  const started = await jar.post(`${h.base}${button}`, {});
  expect(started.status).toBe(303);
  const authorizationUrl = location(started, h.base).href;
  return { jar, uid, verifier, authorizationUrl };
};

/** The provider's redirect back to the gateway's callback, after `login` signed in there. */
const atProvider = (s: Started, login: string) => signInAtProvider(s.jar, s.authorizationUrl, provider.issuer, login);

/** Follows the gateway's redirects from the callback: the consent page (or an error page). */
const callback = async (s: Started, url: URL): Promise<Response> => {
  let res = await s.jar.go(url.href);
  while (res.status === 303 && location(res, h.base).origin === h.base)
    res = await s.jar.go(location(res, h.base).href);
  return res;
};

/** Consents with every scope offered and follows the redirects to the client's callback. */
const consent = async (s: Started, consentHtml: string): Promise<URL> => {
  const offered = [...consentHtml.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]!);
  const resumed = await s.jar.post(`${h.base}${formAction(consentHtml)}`, {
    sign_in: hidden(consentHtml, 'sign_in') ?? '',
    scope: offered,
  });
  let next = location(resumed, h.base);
  while (next.href.startsWith(h.base)) next = location(await s.jar.go(next.href), h.base);
  return next;
};

const grantsBefore = () => h.events.filter((e) => e.type === 'consent' || e.type === 'sign_in').length;

describe('sign-in through an OpenID provider', () => {
  it('the sign-in page has no provider button when none is configured', async () => {
    const plain = await startHarness();
    try {
      const c = await register(plain.base);
      const jar = new Jar();
      const { challenge } = pkcePair();
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: c.client_id,
        redirect_uri: c.redirect_uris[0]!,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: plain.resource,
      });
      const interaction = location(await jar.go(`${plain.base}/authorize?${query}`), plain.base);
      const html = await (await jar.go(interaction.href)).text();
      expect(html).toContain('name="api_key"');
      expect(html).not.toContain('Sign in with');
      expect((await jar.go(`${plain.base}/oauth/oidc/callback?code=x&state=y`)).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('client → /authorize → sign-in → provider → callback → the same consent → code → token of the oidc principal', async () => {
    const s = await startAtGateway();
    const auth = new URL(s.authorizationUrl);
    expect(auth.origin).toBe(provider.issuer);
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({
      client_id: STANDIN_CLIENT.id,
      redirect_uri: `${h.base}/oauth/oidc/callback`,
      response_type: 'code',
      code_challenge_method: 'S256',
      scope: 'openid profile email',
    });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(auth.searchParams.get(p)).toMatch(/^[\w-]{22,}$/);
    // The state, nonce and verifier wait sealed in this interaction's cookie, not readable by the browser.
    const sealed = s.jar.cookies.get(`oauth_oidc_${s.uid}`)!;
    expect(sealed).toBeTruthy();
    expect(sealed).not.toContain(auth.searchParams.get('state'));
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain(auth.searchParams.get('state'));

    const back = await atProvider(s, 'alice');
    expect(back.origin + back.pathname).toBe(`${h.base}/oauth/oidc/callback`);
    expect(back.searchParams.get('iss')).toBe(provider.issuer);
    const page = await callback(s, back);
    const html = await page.text();
    expect(page.status).toBe(200);
    // The consent page of an API key sign-in: who, which workspace, the scopes the claim's permissions hold.
    expect(html).toContain('Allow Test Agent?');
    expect(html).toContain('Signed in as <strong>Alice Example</strong> (workspace <code>acme</code>)');
    expect([...html.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1])).toEqual(['crm:read', 'files:read']);
    expect(html).toContain('not held by your key, so not granted: <code>crm:write</code>');
    expect(s.jar.cookies.has(`oauth_oidc_${s.uid}`)).toBe(false);

    const done = await consent(s, html);
    expect(done.origin + done.pathname).toBe(client.redirect_uris[0]);
    expect(done.searchParams.get('state')).toBe('client-state');
    expect(done.searchParams.get('iss')).toBe(h.base);
    const tokens = await exchange(h, client, {
      code: done.searchParams.get('code')!,
      iss: done.searchParams.get('iss'),
      state: done.searchParams.get('state'),
      verifier: s.verifier,
      redirectUri: client.redirect_uris[0]!,
    });
    expect(tokens.status).toBe(200);
    const alice = principalId('oidc', provider.issuer, 'alice');
    expect(alice).toBe(`oidc:${encodeURIComponent(provider.issuer)}:alice`);
    const { payload } = decodeJwt(tokens.body.access_token);
    expect(payload).toMatchObject({ sub: alice, tenant: 'acme', scope: 'crm:read files:read', aud: h.resource });
    const mcp = await fetch(h.resource, { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
    expect(await mcp.json()).toMatchObject({ id: alice, tenant: 'acme', permissions: ['crm:read', 'files:read'] });
    expect(h.events).toContainEqual({
      type: 'sign_in',
      tenant: 'acme',
      principalId: alice,
      clientId: client.client_id,
    });
    // Discovery, token and keys all came through the injected fetch.
    expect(fetched).toEqual(expect.arrayContaining(['/.well-known/openid-configuration', '/token', '/jwks']));
  });

  it('a space-separated permissions claim, another tenant', async () => {
    const s = await startAtGateway();
    const html = await (await callback(s, await atProvider(s, 'bob'))).text();
    expect(html).toContain('(workspace <code>globex</code>)');
    expect([...html.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1])).toEqual(['crm:read', 'crm:write']);
  });

  it('a provider that cannot be reached: a 502 page back to the sign-in, the failure logged', async () => {
    const errors: unknown[] = [];
    const down = await startHarness({
      openIdProvider: { issuer: 'http://127.0.0.1:9', clientId: 'x', name: 'Down SSO' },
      onError: (e) => errors.push(e),
    });
    try {
      const c = await register(down.base);
      const jar = new Jar();
      const { challenge } = pkcePair();
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: c.client_id,
        redirect_uri: c.redirect_uris[0]!,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: down.resource,
      });
      const interaction = location(await jar.go(`${down.base}/authorize?${query}`), down.base);
      const html = await (await jar.go(interaction.href)).text();
      const res = await jar.post(`${down.base}${formAction(html, 1)}`, {});
      expect(res.status).toBe(502);
      expect(await res.text()).toContain('Down SSO could not be reached');
      expect(errors).toHaveLength(1);
      expect([...jar.cookies.keys()].some((k) => k.startsWith('oauth_oidc_'))).toBe(false);
    } finally {
      await down.close();
    }
  });

  it('refuses a provider issuer that is plain http off the loopback, and a fixed tenant that is no tenant id', () => {
    const options = {
      issuer: 'http://127.0.0.1:1',
      resource: 'http://127.0.0.1:1/mcp',
      scopes: ['crm:read'],
      verifyApiKey: () => Promise.resolve(undefined),
      signingKeys: [randomSigningKey()],
      cookieKeys: ['k'.repeat(32)],
    };
    expect(() =>
      createAuthorizationServer({
        ...options,
        openIdProvider: { issuer: 'http://sso.example.com', clientId: 'x', name: 'X' },
      }),
    ).toThrow(/https/);
    expect(() =>
      createAuthorizationServer({
        ...options,
        openIdProvider: { issuer: 'https://sso.example.com', clientId: 'x', name: 'X', tenant: 'acme corp' },
      }),
    ).toThrow(/not a tenant id/);
    expect(() =>
      createAuthorizationServer({
        ...options,
        openIdProvider: { issuer: 'https://sso.example.com', clientId: 'x', name: 'X' },
      }),
    ).not.toThrow();
  });

  it('the person cancels at the provider: an error page that leads back to the sign-in, where a key still works', async () => {
    const s = await startAtGateway();
    const back = await signInAtProvider(s.jar, s.authorizationUrl, provider.issuer, { abort: true });
    expect(back.searchParams.get('error')).toBe('access_denied');
    const page = await callback(s, back);
    const html = await page.text();
    expect(page.status).toBe(400);
    expect(html).toContain('Acme SSO did not sign you in (access_denied)');
    expect(html).toContain(`href="/oauth/interaction/${s.uid}"`);
    const form = await (await s.jar.go(`${h.base}/oauth/interaction/${s.uid}`)).text();
    const signedIn = await s.jar.post(`${h.base}${formAction(form)}`, { api_key: 'ops-key-0123456789' });
    expect(await signedIn.text()).toContain('Signed in as <strong>ops</strong>');
  });
});

describe('hostile answers: an error page, and nothing granted', () => {
  const refusedPage = async (res: Response, words: string | RegExp) => {
    const html = await res.text();
    expect(res.status).toBe(400);
    expect(html).toMatch(words);
    expect(html).toContain('Nothing was granted');
    expect(html).not.toContain('name="sign_in"');
    expect(res.headers.get('location')).toBeNull();
  };

  it('a wrong state at the callback', async () => {
    const s = await startAtGateway();
    const back = await atProvider(s, 'alice');
    const before = grantsBefore();
    const forged = new URL(back);
    forged.searchParams.set('state', 'attacker-state-0123456789abcdef');
    await refusedPage(await callback(s, forged), /belongs to no sign-in open in this browser/);
    // Straight to the interaction's return step, past the callback: openid-client refuses the state.
    await refusedPage(
      await callback(s, new URL(`${h.base}/oauth/interaction/${s.uid}/oidc/return${forged.search}`)),
      /could not be verified/,
    );
    expect(grantsBefore()).toBe(before);
    // The pending sign-in was used up by that attempt: the genuine answer now finds nothing either.
    await refusedPage(await callback(s, back), /belongs to no sign-in/);
    expect(grantsBefore()).toBe(before);
  });

  it('a replayed callback: the same answer again, even with the used cookie put back', async () => {
    const s = await startAtGateway();
    const sealed = s.jar.cookies.get(`oauth_oidc_${s.uid}`)!;
    const back = await atProvider(s, 'alice');
    const first = await callback(s, back);
    expect(first.status).toBe(200);
    const signIns = grantsBefore();
    await refusedPage(await callback(s, back), /belongs to no sign-in/);
    s.jar.cookies.set(`oauth_oidc_${s.uid}`, sealed);
    await refusedPage(await callback(s, back), /already used/);
    expect(grantsBefore()).toBe(signIns);
  });

  const withTamper = async (
    change: (idToken: Record<string, unknown>) => Promise<string>,
    words: RegExp = /could not be verified/,
  ) => {
    const s = await startAtGateway();
    const back = await atProvider(s, 'alice');
    const before = grantsBefore();
    tamper = change;
    try {
      await refusedPage(await callback(s, back), words);
    } finally {
      tamper = undefined;
    }
    expect(grantsBefore()).toBe(before);
    expect(h.events.at(-1)).toMatchObject({ type: 'sign_in_refused', clientId: client.client_id });
  };

  it('(control) the same ID token re-signed with the provider key, unchanged, is accepted', async () => {
    const s = await startAtGateway();
    const back = await atProvider(s, 'alice');
    tamper = (t) => provider.sign(t);
    try {
      const res = await callback(s, back);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('Signed in as <strong>Alice Example</strong>');
    } finally {
      tamper = undefined;
    }
  });

  it('an ID token from another issuer (signed with the provider key)', () =>
    withTamper((t) => provider.sign({ ...t, iss: 'https://evil.example' })));

  it('an ID token for another audience', () => withTamper((t) => provider.sign({ ...t, aud: 'another-client' })));

  it('an ID token with another nonce', () => withTamper((t) => provider.sign({ ...t, nonce: 'replayed-nonce' })));

  it('an ID token signed by a key the provider does not publish', async () => {
    const { generateKeyPair, SignJWT } = await import('jose');
    const { privateKey } = await generateKeyPair('RS256');
    await withTamper((t) => new SignJWT(t).setProtectedHeader({ alg: 'RS256', kid: 'standin-1' }).sign(privateKey));
  });

  it('a tenant claim that is not a valid tenant id', async () => {
    const s = await startAtGateway();
    const before = grantsBefore();
    await refusedPage(
      await callback(s, await atProvider(s, 'mallory')),
      /&quot;tenant&quot; claim is not a valid workspace id/,
    );
    expect(grantsBefore()).toBe(before);
  });

  it('no tenant claim at all', async () => {
    const s = await startAtGateway();
    await refusedPage(await callback(s, await atProvider(s, 'nobody')), /has no &quot;tenant&quot; claim/);
  });

  it('the button and the return step need the interaction cookie (another browser)', async () => {
    const s = await startAtGateway();
    const stranger = new Jar();
    const post = await stranger.post(`${h.base}/oauth/interaction/${s.uid}/oidc`, {});
    expect(post.status).toBe(400);
    expect(await post.text()).toContain('This sign-in has expired');
  });
});
