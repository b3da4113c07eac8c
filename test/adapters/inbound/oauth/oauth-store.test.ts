import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomSigningKey, type SigningJwk } from '../../../../adapters/inbound/oauth/signing-keys.js';
import type { OpenDatabase } from '../../../../adapters/outbound/persistence/databases.js';
import { sqlOAuthStore, type OAuthStore } from '../../../../adapters/outbound/persistence/oauth-store.js';
import { encryptionKey, newEncryptionKey, SecretBox } from '../../../../adapters/outbound/persistence/secret-box.js';
import {
  authorize,
  Browser,
  exchange,
  formAction,
  location,
  pkcePair,
  register,
  startHarness,
  token,
  type Harness,
} from './oauth-harness.js';
import { oauthStoreBackends } from './store-backends.js';

// The authorization server's storage in the gateway's database (embedded SQLite and PostgreSQL): the whole
// flow on it, a second instance on the same database honouring the first's tokens, the atomic use of a
// refresh token, nothing usable stored in clear, and the clean-up of expired rows.

const backends = oauthStoreBackends('gateway-oauth-');

describe.each(backends)('the OAuth store on $name', (backend) => {
  let database: OpenDatabase;
  let store: OAuthStore;
  let h: Harness;
  let second: Harness | undefined;
  const box = new SecretBox(encryptionKey(newEncryptionKey())).forPurpose('oauth-store');
  let keys: SigningJwk[];
  const cookieKeys = [randomBytes(32).toString('base64url')];
  const skipped = () => backend.skipped() !== undefined;

  beforeAll(async () => {
    if (skipped()) return;
    database = await backend.open();
    store = sqlOAuthStore({ database: () => Promise.resolve(database), box });
    keys = [randomSigningKey()];
    h = await startHarness({
      adapter: store.adapter,
      signingKeys: keys,
      cookieKeys,
      rememberedGrants: async (account, client) => (await store.grants(account, client)).map((g) => g.grantId),
    });
  });
  afterAll(async () => {
    await h?.close();
    await second?.close();
    await database?.db.destroy();
  });

  const rows = async () =>
    JSON.stringify(
      await database.db
        .selectFrom('gateway_oauth' as never)
        .selectAll()
        .execute(),
    );

  it('carries the whole flow: registration, code, tokens, rotation, reuse detection', async (ctx) => {
    if (skipped()) return ctx.skip(backend.skipped());
    const client = await register(h.base);
    const a = await authorize(h, client, { scope: 'crm:read files:read' });
    const t0 = await exchange(h, client, a);
    expect(t0.status).toBe(200);
    expect(t0.body.scope).toBe('crm:read files:read');

    const r1 = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: t0.body.refresh_token,
      client_id: client.client_id,
    });
    expect(r1.status).toBe(200);
    const replay = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: t0.body.refresh_token,
      client_id: client.client_id,
    });
    expect(replay.body.error).toBe('invalid_grant');
    const after = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: r1.body.refresh_token,
      client_id: client.client_id,
    });
    expect(after.body.error).toBe('invalid_grant');
    expect((await exchange(h, client, a)).body.error).toBe('invalid_grant'); // the code, once
  });

  it('stores no code, refresh token or payload in clear', async (ctx) => {
    if (skipped()) return ctx.skip(backend.skipped());
    const client = await register(h.base);
    const a = await authorize(h, client, { scope: 'crm:read' });
    const t = await exchange(h, client, a);
    const raw = await rows();
    expect(raw).toContain('RefreshToken');
    expect(raw).not.toContain(t.body.refresh_token);
    expect(raw).not.toContain(a.code);
    expect(raw).not.toContain('crm:read');
    expect(raw).not.toContain(client.redirect_uris[0]);
  });

  it('a second instance on the same database honours the first one\u2019s clients and refresh tokens', async (ctx) => {
    if (skipped()) return ctx.skip(backend.skipped());
    const client = await register(h.base);
    const t0 = await exchange(h, client, await authorize(h, client, { scope: 'crm:read' }));
    // Another process: a store of its own over the same database, the same keys (derived from one secret).
    const otherStore = sqlOAuthStore({ database: () => Promise.resolve(database), box });
    second = await startHarness({
      adapter: otherStore.adapter,
      signingKeys: keys,
      cookieKeys,
      issuer: h.base,
      resource: h.resource,
    });
    // The issuer is the first instance's address; call the second one's token endpoint directly.
    const res = await fetch(`${second.base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: t0.body.refresh_token,
        client_id: client.client_id,
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string };
    expect(await h.as.verifyAccessToken(body.access_token)).toMatchObject({ id: 'key:ops', tenant: 'acme' });
  });

  it('of two refreshes with the same token at once, at most one gets tokens', async (ctx) => {
    if (skipped()) return ctx.skip(backend.skipped());
    const client = await register(h.base);
    const t0 = await exchange(h, client, await authorize(h, client, { scope: 'crm:read' }));
    const form = { grant_type: 'refresh_token', refresh_token: t0.body.refresh_token, client_id: client.client_id };
    const answers = await Promise.all([token(h.base, form), token(h.base, form), token(h.base, form)]);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 400).map((r) => r.body.error)).toEqual([
      'invalid_grant',
      'invalid_grant',
    ]);
    expect(answers.filter((r) => r.status === 500)).toEqual([]);
  });

  it('remembers consent per person and client: signed in again, no consent page unless more is asked', async (ctx) => {
    if (skipped()) return ctx.skip(backend.skipped());
    const client = await register(h.base);
    await authorize(h, client, { scope: 'crm:read files:read' });
    expect(await store.grants('acme|key:ops', client.client_id)).toHaveLength(1);
    expect((await store.grants('acme|key:ops'))[0]).toMatchObject({ clientId: expect.any(String) });

    /** A fresh browser: open /authorize, sign in with `key`; the answer to the sign-in. */
    const signIn = async (scope: string, key = 'ops-key-0123456789') => {
      const browser = new Browser();
      const { challenge } = pkcePair();
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: client.redirect_uris[0]!,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: h.resource,
        scope,
      });
      const page = await browser.go(location(await browser.go(`${h.base}/authorize?${query}`), h.base).href);
      return { browser, res: await browser.post(`${h.base}${formAction(await page.text())}`, { api_key: key }) };
    };

    const again = await signIn('crm:read');
    expect(again.res.status).toBe(303);
    let next = location(again.res, h.base);
    while (next.href.startsWith(h.base)) next = location(await again.browser.go(next.href), h.base);
    expect(next.searchParams.get('code')).toEqual(expect.any(String));
    expect(h.events.some((e) => e.type === 'consent' && e.remembered)).toBe(true);

    expect((await signIn('crm:read files:write')).res.status).toBe(200); // more than was allowed: the page
    expect((await signIn('crm:read', 'reader-key-0123456789')).res.status).toBe(200); // another person
  });

  it('purges expired rows', async (ctx) => {
    if (skipped()) return ctx.skip(backend.skipped());
    let now = new Date();
    const timed = sqlOAuthStore({ database: () => Promise.resolve(database), box, now: () => now });
    const adapter = timed.adapter('Interaction');
    await adapter.upsert('short-lived', { kind: 'Interaction' }, 60);
    expect(await adapter.find('short-lived')).toMatchObject({ kind: 'Interaction' });
    now = new Date(now.getTime() + 61_000);
    expect(await adapter.find('short-lived')).toBeUndefined();
    expect(await timed.purgeExpired()).toBeGreaterThanOrEqual(1);
  });
});
