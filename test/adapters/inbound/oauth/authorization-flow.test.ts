import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorize,
  Browser,
  location,
  pkcePair,
  decodeJwt,
  exchange,
  register,
  SCOPES,
  startHarness,
  token,
  type Harness,
} from './oauth-harness.js';

// The gateway's authorization server driven as an MCP client and a person in a browser do: discovery,
// registration, authorization with PKCE through the sign-in and consent forms, the code exchange, refresh
// with rotation, and revocation. The protected `/mcp` accepts the access token through verifyAccessToken.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('discovery', () => {
  it('publishes RFC 8414 metadata naming every endpoint, S256 only, iss in responses', async () => {
    const res = await fetch(`${h.base}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const m = (await res.json()) as Record<string, unknown>;
    expect(m).toMatchObject({
      issuer: h.base,
      authorization_endpoint: `${h.base}/authorize`,
      token_endpoint: `${h.base}/token`,
      registration_endpoint: `${h.base}/register`,
      revocation_endpoint: `${h.base}/revoke`,
      jwks_uri: `${h.base}/oauth/jwks`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(m['grant_types_supported']).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(m['token_endpoint_auth_methods_supported']).toContain('none');
    expect(m['client_id_metadata_document_supported']).toBeUndefined();
  });

  it('names the issuer in its metadata whatever Host header the request carried', async () => {
    const { request } = await import('node:http');
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${h.base}/.well-known/oauth-authorization-server`,
        { headers: { host: 'evil.example' } },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(JSON.parse(body).token_endpoint).toBe(`${h.base}/token`);
  });

  it('serves the public signing keys, without their private parts', async () => {
    const jwks = (await (await fetch(`${h.base}/oauth/jwks`)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0]!['d']).toBeUndefined();
  });

  it('the protected resource answers 401 with the resource metadata, which names this server', async () => {
    const res = await fetch(`${h.base}/mcp`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata=');
    const prm = (await (await fetch(`${h.base}/.well-known/oauth-protected-resource/mcp`)).json()) as {
      authorization_servers: string[];
    };
    expect(prm.authorization_servers).toEqual([h.base]);
  });
});

describe('registration, authorization with PKCE, tokens', () => {
  it('registers a public client (RFC 7591)', async () => {
    const client = await register(h.base);
    expect(client.client_id).toMatch(/\S{10,}/);
    expect(client).toMatchObject({ token_endpoint_auth_method: 'none', application_type: 'native' });
    expect(client).not.toHaveProperty('registration_access_token');
  });

  it('signs in with a key, consents, and gets a short-lived JWT for the MCP resource', async () => {
    const client = await register(h.base);
    const a = await authorize(h, client, { scope: 'crm:read files:write' });
    expect(a.iss).toBe(h.base);
    expect(a.state).toBe('st-123');
    const t = await exchange(h, client, a);
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ token_type: 'Bearer', scope: 'crm:read files:write' });
    expect(t.body.expires_in).toBeLessThanOrEqual(600);
    expect(t.body.refresh_token).toEqual(expect.any(String));
    const { header, payload } = decodeJwt(t.body.access_token);
    expect(header).toMatchObject({ typ: 'at+jwt', alg: 'ES256' });
    expect(payload).toMatchObject({
      iss: h.base,
      aud: h.resource,
      sub: 'key:ops',
      tenant: 'acme',
      client_id: client.client_id,
      scope: 'crm:read files:write',
    });
    const me = await fetch(`${h.base}/mcp`, { headers: { authorization: `Bearer ${t.body.access_token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      id: 'key:ops',
      name: 'ops',
      tenant: 'acme',
      permissions: ['crm:read', 'files:write'],
      clientId: client.client_id,
    });
    expect(h.events.map((e) => e.type)).toEqual(expect.arrayContaining(['sign_in', 'consent']));
  });

  it('a request without scope asks for every permission, narrowed to the key and the consent', async () => {
    const client = await register(h.base);
    const a = await authorize(h, client, { key: 'reader-key-0123456789' });
    const t = await exchange(h, client, a);
    expect(t.body.scope).toBe('crm:read');
  });

  it('the person may untick scopes: the token carries only what was left ticked', async () => {
    const client = await register(h.base);
    const a = await authorize(h, client, { scope: 'crm:read files:read files:write', tick: ['files:read'] });
    const t = await exchange(h, client, a);
    expect(t.body.scope).toBe('files:read');
  });

  it('a wildcard key grants the concrete scopes asked for', async () => {
    const client = await register(h.base);
    const a = await authorize(h, client, { key: 'admin-key-0123456789', scope: SCOPES.join(' ') });
    const t = await exchange(h, client, a);
    expect(t.body.scope.split(' ').sort()).toEqual([...SCOPES].sort());
    expect(decodeJwt(t.body.access_token).payload).toMatchObject({ sub: 'key:admin', tenant: 'default' });
  });
});

describe('the browser session', () => {
  const authorizeUrl = (client: { client_id: string; redirect_uris: string[] }, scope: string) =>
    `${h.base}/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0]!,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      resource: h.resource,
      scope,
    })}`;

  it('a web client is not asked again for what it allowed; asking for more (step-up) brings the forms back', async () => {
    const client = await register(h.base, { application_type: 'web', redirect_uris: ['https://app.example/callback'] });
    const browser = new Browser();
    await authorize(h, client, { scope: 'crm:read', browser });
    let next = location(await browser.go(authorizeUrl(client, 'crm:read')), h.base);
    while (next.href.startsWith(`${h.base}/authorize`)) next = location(await browser.go(next.href), h.base);
    expect(next.origin + next.pathname).toBe('https://app.example/callback');
    expect(next.searchParams.get('code')).toEqual(expect.any(String));

    const more = location(await browser.go(authorizeUrl(client, 'crm:read files:write')), h.base);
    expect(more.pathname).toMatch(/^\/oauth\/interaction\//);
    expect(await (await browser.go(more.href)).text()).toContain('name="api_key"');
  });

  it('a native client (a localhost callback any app could claim) is asked every time', async () => {
    const client = await register(h.base);
    const browser = new Browser();
    await authorize(h, client, { scope: 'crm:read', browser });
    const again = location(await browser.go(authorizeUrl(client, 'crm:read')), h.base);
    expect(again.pathname).toMatch(/^\/oauth\/interaction\//);
  });
});

describe('refresh tokens', () => {
  it('rotate on every use; the old one replayed revokes the whole family', async () => {
    const client = await register(h.base);
    const t0 = await exchange(h, client, await authorize(h, client, { scope: 'crm:read' }));
    const first = t0.body.refresh_token as string;
    const r1 = await token(h.base, { grant_type: 'refresh_token', refresh_token: first, client_id: client.client_id });
    expect(r1.status).toBe(200);
    const second = r1.body.refresh_token as string;
    expect(second).not.toBe(first);
    expect(decodeJwt(r1.body.access_token).payload).toMatchObject({ aud: h.resource, scope: 'crm:read' });

    const replay = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: first,
      client_id: client.client_id,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    // The family is gone: the newest token no longer works either.
    const after = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: second,
      client_id: client.client_id,
    });
    expect(after.status).toBe(400);
    expect(after.body.error).toBe('invalid_grant');
    expect(h.events.some((e) => e.type === 'grant_revoked')).toBe(true);
  });

  it('revocation (RFC 7009) ends a refresh token and its grant', async () => {
    const client = await register(h.base);
    const t0 = await exchange(h, client, await authorize(h, client, { scope: 'crm:read' }));
    const res = await fetch(`${h.base}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: t0.body.refresh_token, client_id: client.client_id }),
    });
    expect(res.status).toBe(200);
    const after = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: t0.body.refresh_token,
      client_id: client.client_id,
    });
    expect(after.body.error).toBe('invalid_grant');
  });

  it('a refresh token is refused when the account is no longer active', async () => {
    const gone = new Set<string>();
    const h2 = await startHarness({
      accountStanding: (a) =>
        Promise.resolve(gone.has(a.principalId) ? { kind: 'gone' } : { kind: 'current', permissions: ['*'] }),
    });
    try {
      const client = await register(h2.base);
      const t0 = await exchange(h2, client, await authorize(h2, client, { scope: 'crm:read' }));
      gone.add('key:ops');
      const after = await token(h2.base, {
        grant_type: 'refresh_token',
        refresh_token: t0.body.refresh_token,
        client_id: client.client_id,
      });
      expect(after.body.error).toBe('invalid_grant');
    } finally {
      await h2.close();
    }
  });
});
