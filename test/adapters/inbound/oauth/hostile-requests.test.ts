import { importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomSigningKey, type SigningJwk } from '../../../../adapters/inbound/oauth/signing-keys.js';
import {
  authorize,
  Browser,
  decodeJwt,
  exchange,
  formAction,
  hidden,
  location,
  pkcePair,
  register,
  startHarness,
  token,
  type Harness,
  type Registered,
} from './oauth-harness.js';

// Bad input gets a clear error, and nothing is granted (issue 29): reused codes, PKCE failures, redirect
// URIs not registered, tokens for another resource, scopes beyond the key, consent denied, forged forms.

let h: Harness;
let key: SigningJwk;
beforeAll(async () => {
  key = randomSigningKey();
  h = await startHarness({ signingKeys: [key] });
});
afterAll(() => h.close());

const authorizeUrl = (client: Registered, more: Record<string, string> = {}): string =>
  `${h.base}/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0]!,
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    scope: 'crm:read',
    ...more,
  })}`;

/** Opens /authorize and signs in; the consent page's HTML and the browser. */
const toConsent = async (client: Registered, apiKey: string, more: Record<string, string> = {}) => {
  const browser = new Browser();
  const page = await browser.go(location(await browser.go(authorizeUrl(client, more)), h.base).href);
  const consent = await browser.post(`${h.base}${formAction(await page.text())}`, { api_key: apiKey });
  return { browser, consent, html: await consent.text() };
};

describe('authorization codes and PKCE', () => {
  it('a code used twice is refused, and the tokens of its first use are revoked', async () => {
    const client = await register(h.base);
    const a = await authorize(h, client);
    const first = await exchange(h, client, a);
    expect(first.status).toBe(200);
    const again = await exchange(h, client, a);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    const refresh = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: client.client_id,
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it("a wrong code_verifier is refused (the code stays the rightful holder's for its minute)", async () => {
    const client = await register(h.base);
    const a = await authorize(h, client);
    const wrong = await exchange(h, client, a, { code_verifier: pkcePair().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    // A stolen code with a guessed verifier gets nothing, and cannot spoil the real client's exchange.
    expect((await exchange(h, client, a)).status).toBe(200);
  });

  it('a missing code_verifier is refused', async () => {
    const client = await register(h.base);
    const a = await authorize(h, client);
    const res = await token(h.base, {
      grant_type: 'authorization_code',
      code: a.code,
      redirect_uri: a.redirectUri,
      client_id: client.client_id,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('an authorization request without a code_challenge, or with the plain method, is refused', async () => {
    const client = await register(h.base);
    for (const more of [{ code_challenge: '' }, { code_challenge_method: 'plain' }]) {
      const url = new URL(authorizeUrl(client));
      for (const [k, v] of Object.entries(more)) {
        if (v) url.searchParams.set(k, v);
        else url.searchParams.delete(k);
      }
      const back = location(await fetch(url, { redirect: 'manual' }), h.base);
      expect(back.origin + back.pathname).toBe(client.redirect_uris[0]);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('iss')).toBe(h.base);
      expect(back.searchParams.get('code')).toBeNull();
    }
  });

  it('the code is bound to its redirect_uri at the token endpoint', async () => {
    const client = await register(h.base, { redirect_uris: ['http://127.0.0.1:9/cb-a', 'http://127.0.0.1:9/cb-b'] });
    const a = await authorize(h, client);
    const res = await exchange(h, client, a, { redirect_uri: 'http://127.0.0.1:9/cb-b' });
    expect(res.body.error).toBe('invalid_grant');
  });
});

describe('redirect URIs', () => {
  it.each([
    ['another host', 'https://attacker.example/callback'],
    ['another path on the same host', 'http://127.0.0.1:9/elsewhere'],
    ['an added query', 'http://127.0.0.1:9/callback?next=https://attacker.example'],
  ])('an unregistered redirect_uri (%s) gets an error page, never a redirect', async (_what, uri) => {
    const client = await register(h.base);
    const res = await fetch(authorizeUrl(client, { redirect_uri: uri }), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('redirect_uri');
  });

  it('registration refuses a redirect URI with a fragment', async () => {
    const res = await fetch(`${h.base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['https://app.example/cb#x'], token_endpoint_auth_method: 'none' }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_redirect_uri');
  });

  const registerWeb = (redirectUri: string) =>
    fetch(`${h.base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        application_type: 'web',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      }),
    });

  it('registration refuses a web client whose redirect URI is plain http on another host (issue 38)', async () => {
    const res = await registerWeb('http://app.example/callback');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_redirect_uri');
    expect(body.error_description).toContain('https');
  });

  it.each(['https://app.example/callback', 'http://localhost:3334/oauth/callback', 'http://127.0.0.1:9/cb'])(
    'a web client may register %s',
    async (uri) => {
      expect((await registerWeb(uri)).status).toBe(201);
    },
  );
});

describe('resources', () => {
  it('an authorization request for another resource is refused (invalid_target)', async () => {
    const client = await register(h.base);
    const back = location(
      await fetch(authorizeUrl(client, { resource: 'https://other.example/mcp' }), { redirect: 'manual' }),
      h.base,
    );
    expect(back.searchParams.get('error')).toBe('invalid_target');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('a token request for another resource is refused', async () => {
    const client = await register(h.base);
    const a = await authorize(h, client);
    const res = await exchange(h, client, a, { resource: 'https://other.example/mcp' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_target');
  });

  const forge = async (claims: Record<string, unknown>, typ = 'at+jwt', signer: SigningJwk = key) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      sub: 'key:ops',
      tenant: 'acme',
      acct: 'acme|key:ops',
      scope: 'crm:read',
      client_id: 'c1',
      ...claims,
    })
      .setProtectedHeader({ alg: 'ES256', typ, kid: signer.kid })
      .setIssuer(h.base)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(await importJWK(signer, 'ES256'));
  };

  it('the verifier refuses a token signed by this server for another audience', async () => {
    const result = await h.as.verifyAccessToken(await forge({ aud: 'https://other.example/mcp' }));
    expect(result).toEqual({ reason: 'the token is for another resource' });
    expect(await h.as.verifyAccessToken(await forge({ aud: h.resource }))).toMatchObject({ id: 'key:ops' });
  });

  it('the verifier refuses a JWT that is not an access token, or one signed by another key', async () => {
    expect(await h.as.verifyAccessToken(await forge({ aud: h.resource }, 'JWT'))).toHaveProperty('reason');
    const other = randomSigningKey();
    expect(await h.as.verifyAccessToken(await forge({ aud: h.resource }, 'at+jwt', other))).toHaveProperty('reason');
  });

  it('the verifier refuses a token whose tenant does not match its account', async () => {
    expect(await h.as.verifyAccessToken(await forge({ aud: h.resource, tenant: 'default' }))).toHaveProperty('reason');
  });
});

describe('scopes and consent', () => {
  it('scopes beyond the key are shown as not granted, and never granted', async () => {
    const client = await register(h.base);
    const { html } = await toConsent(client, 'reader-key-0123456789', { scope: 'crm:read crm:write files:write' });
    expect(html).toContain('value="crm:read"');
    expect(html).not.toContain('value="crm:write"');
    expect(html).toMatch(/not granted: <code>crm:write<\/code>, <code>files:write<\/code>/);
    const a = await authorize(h, client, {
      key: 'reader-key-0123456789',
      scope: 'crm:read crm:write files:write',
      tick: ['crm:read', 'crm:write', 'files:write'], // a forged form: boxes the page never offered
    });
    const t = await exchange(h, client, a);
    expect(t.body.scope).toBe('crm:read');
    expect(decodeJwt(t.body.access_token).payload.scope).toBe('crm:read');
  });

  it('a key holding none of the requested scopes can only deny; the client gets access_denied', async () => {
    const client = await register(h.base);
    const { browser, html } = await toConsent(client, 'reader-key-0123456789', { scope: 'files:write' });
    expect(html).not.toContain('name="decision"');
    const confirm = await browser.post(`${h.base}${formAction(html)}`, {
      sign_in: hidden(html, 'sign_in') ?? '',
      scope: 'files:write',
    });
    let back = location(confirm, h.base);
    while (back.href.startsWith(h.base)) back = location(await browser.go(back.href), h.base);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('consent denied: the client gets access_denied with iss and state, and no code', async () => {
    const client = await register(h.base);
    const { browser, html } = await toConsent(client, 'ops-key-0123456789');
    const deny = await browser.post(`${h.base}${formAction(html, 1)}`, {});
    let back = location(deny, h.base);
    while (back.href.startsWith(h.base)) back = location(await browser.go(back.href), h.base);
    expect(back.origin + back.pathname).toBe(client.redirect_uris[0]);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      error: 'access_denied',
      iss: h.base,
      state: 'st-1',
    });
    expect(back.searchParams.get('code')).toBeNull();
    expect(h.events.some((e) => e.type === 'consent_denied')).toBe(true);
  });

  it('an unknown key gets the form again with a message, and no way forward', async () => {
    const client = await register(h.base);
    const { consent, html } = await toConsent(client, 'not-a-key');
    expect(consent.status).toBe(401);
    expect(html).toContain('name="api_key"');
    expect(html).toContain('not known');
    expect(html).not.toContain('name="sign_in"');
    expect(h.events.some((e) => e.type === 'sign_in_refused')).toBe(true);
  });

  it('the forms answer nothing without the interaction cookie (a cross-site post)', async () => {
    const client = await register(h.base);
    const { html } = await toConsent(client, 'ops-key-0123456789');
    const stranger = new Browser();
    const res = await stranger.post(`${h.base}${formAction(html)}`, {
      sign_in: hidden(html, 'sign_in') ?? '',
      scope: 'crm:read',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    const login = await stranger.post(`${h.base}${formAction(html).replace('/confirm', '/login')}`, {
      api_key: 'ops-key-0123456789',
    });
    expect(login.status).toBe(400);
  });

  it("a consent form cannot carry another interaction's sign-in", async () => {
    const client = await register(h.base);
    const mine = await toConsent(client, 'reader-key-0123456789');
    const theirs = await toConsent(client, 'admin-key-0123456789');
    const res = await mine.browser.post(`${h.base}${formAction(mine.html)}`, {
      sign_in: hidden(theirs.html, 'sign_in') ?? '',
      scope: 'crm:read',
    });
    expect(res.status).toBe(400);
  });

  it('the pages cannot be framed and load nothing from elsewhere', async () => {
    const client = await register(h.base);
    const { consent } = await toConsent(client, 'ops-key-0123456789');
    expect(consent.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(consent.headers.get('x-frame-options')).toBe('DENY');
    expect(consent.headers.get('cache-control')).toBe('no-store');
  });
});
