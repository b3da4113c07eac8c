import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomSigningKey } from '../../../../adapters/inbound/oauth/signing-keys.js';
import type { OpenDatabase } from '../../../../adapters/outbound/persistence/databases.js';
import { sqlOAuthStore, type OAuthStore } from '../../../../adapters/outbound/persistence/oauth-store.js';
import { encryptionKey, newEncryptionKey, SecretBox } from '../../../../adapters/outbound/persistence/secret-box.js';
import type { AccountStanding } from '../../../../application/identity/account-standing.js';
import { isAuthFailure } from '../../../../ports/authenticator.js';
import { oauthStoreBackends } from './store-backends.js';
import { authorize, decodeJwt, exchange, KEYS, register, startHarness, token, type Harness } from './oauth-harness.js';

// Revocation that ends access (issue 38), on the embedded SQLite store and on PostgreSQL, with two instances
// of the authorization server sharing one store (as two gateway instances share the database):
// - a grant revoked on one instance: its access tokens are refused there at once, and on the other within
//   the revocation check's bound (1 s here, 30 s by default); its refresh tokens on both at once;
// - a key removed from the configuration: its refresh gets invalid_grant (with an `account_gone` event for
//   the audit log) and its access tokens are refused;
// - a key narrowed: a refresh carries only what it still holds, and so does a token issued before.

const backends = oauthStoreBackends('gateway-revocation-');

const CHECK_SECONDS = 1;

describe.each(backends)('revocation on $name', (backend) => {
  let database: OpenDatabase;
  let store: OAuthStore;
  let a: Harness;
  let b: Harness;
  /** What the configuration says of each principal now (default: as KEYS has it). */
  const standings = new Map<string, AccountStanding>();
  const skipped = () => backend.skipped() !== undefined;

  beforeAll(async () => {
    if (skipped()) return;
    database = await backend.open();
    const box = new SecretBox(encryptionKey(newEncryptionKey())).forPurpose('oauth-store');
    store = sqlOAuthStore({ database: () => Promise.resolve(database), box });
    const shared = {
      adapter: store.adapter,
      signingKeys: [randomSigningKey()],
      cookieKeys: [randomBytes(32).toString('base64url')],
      accountStanding: (account: { principalId: string }) =>
        Promise.resolve(
          standings.get(account.principalId) ?? {
            kind: 'current' as const,
            permissions: Object.values(KEYS).find((k) => k.principalId === account.principalId)?.permissions ?? [],
          },
        ),
      grantExists: async (grantId: string) => (await store.grant(grantId)) !== undefined,
      revocationCheckSeconds: CHECK_SECONDS,
    };
    a = await startHarness(shared);
    // The second instance serves the same issuer and resource (as two gateways behind one public URL do).
    b = await startHarness({ ...shared, issuer: a.base, resource: a.resource });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.db.destroy();
  });

  /** A sign-in on instance A as `key`; the tokens and the grant id. */
  const signIn = async (scope: string, key = 'ops-key-0123456789') => {
    const client = await register(a.base);
    const t = await exchange(a, client, await authorize(a, client, { scope, key }));
    expect(t.status).toBe(200);
    const grantId = decodeJwt(t.body.access_token as string).payload.gid as string;
    expect(grantId).toEqual(expect.any(String));
    return { client, access: t.body.access_token as string, refresh: t.body.refresh_token as string, grantId };
  };

  const refresh = (h: Harness, clientId: string, refreshToken: string) =>
    token(h.base, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

  it('a grant revoked on one instance: refused there at once, on the other within the bound', async (ctx) => {
    if (skipped()) return ctx.skip(backend.skipped());
    const s = await signIn('crm:read');
    const onB = () => b.as.verifyAccessToken(s.access);
    expect(isAuthFailure(await onB())).toBe(false); // B now holds "the grant stands" for up to its bound
    await a.as.revokeGrant(s.grantId);
    expect(await a.as.verifyAccessToken(s.access)).toEqual({
      reason: 'the authorization behind the token was revoked',
    });
    expect((await refresh(a, s.client.client_id, s.refresh)).body.error).toBe('invalid_grant');
    await new Promise((ok) => setTimeout(ok, CHECK_SECONDS * 1000 + 200));
    expect(await onB()).toEqual({ reason: 'the authorization behind the token was revoked' });
  });

  it('a removed key: its refresh gets invalid_grant with an audit event, its access token is refused', async (ctx) => {
    if (skipped()) return ctx.skip(backend.skipped());
    const s = await signIn('crm:read files:read');
    standings.set('key:ops', { kind: 'gone' });
    try {
      const refused = await refresh(a, s.client.client_id, s.refresh);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_grant');
      expect(a.events).toContainEqual({
        type: 'account_gone',
        tenant: 'acme',
        principalId: 'key:ops',
        clientId: s.client.client_id,
      });
      expect(await a.as.verifyAccessToken(s.access)).toEqual({
        reason: 'the key that signed in is no longer configured here',
      });
    } finally {
      standings.delete('key:ops');
    }
  });

  it('a narrowed key: a refresh carries only what is still allowed, and so does an older token', async (ctx) => {
    if (skipped()) return ctx.skip(backend.skipped());
    const s = await signIn('crm:read files:read files:write');
    standings.set('key:ops', { kind: 'current', permissions: ['crm:read'] });
    try {
      const older = await a.as.verifyAccessToken(s.access);
      expect(!isAuthFailure(older) && [...older.permissions]).toEqual(['crm:read']);
      const r = await refresh(b, s.client.client_id, s.refresh);
      expect(r.status).toBe(200);
      expect(r.body.scope).toBe('crm:read');
      expect(decodeJwt(r.body.access_token as string).payload.scope).toBe('crm:read');
    } finally {
      standings.delete('key:ops');
    }
  });
});
