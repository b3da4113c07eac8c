import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountGrantRoutes } from '../../../../adapters/inbound/http/grant-routes.js';
import { oauthGrantRegistry } from '../../../../adapters/inbound/oauth/grants-registry.js';
import { openEmbedded, openPostgres, type OpenDatabase } from '../../../../adapters/outbound/persistence/databases.js';
import { sqlOAuthStore, type OAuthStore } from '../../../../adapters/outbound/persistence/oauth-store.js';
import { encryptionKey, newEncryptionKey, SecretBox } from '../../../../adapters/outbound/persistence/secret-box.js';
import { GrantsService, type GrantRegistry } from '../../../../application/identity/grants.js';
import type { SignedIn } from '../../../../application/identity/sign-in.js';
import type { AuditEntry } from '../../../../ports/audit-log.js';
import type { Authenticator, Principal } from '../../../../ports/authenticator.js';
import { postgresForTests } from '../../../support/postgres.js';
import { authorize, exchange, KEYS, register, startHarness, token, type Harness } from './oauth-harness.js';

// The grants API (GET /v1/grants, DELETE /v1/grants/{id}) over a real authorization server and its store on
// the embedded database: people sign in and consent through the forms, then list and revoke what they
// granted; a revoked grant's refresh token no longer works; the permission rules (own, the tenant's with
// connections:manage, another tenant's not found, no token 401) and the audit rows.

const PEOPLE: Record<string, SignedIn> = {
  ...KEYS,
  'manager-key-0123456789': {
    tenant: 'acme',
    principalId: 'key:manager',
    name: 'manager',
    permissions: ['connections:manage', 'crm:read'],
  },
};

const principalOf = (who: SignedIn): Principal => ({
  id: who.principalId,
  name: who.name,
  tenant: who.tenant,
  permissions: new Set(who.permissions),
});

const dirs: string[] = [];
let database: OpenDatabase;
let store: OAuthStore;
let h: Harness;
const audit: AuditEntry[] = [];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-grants-'));
  dirs.push(dir);
  database = await openEmbedded(dir);
  store = sqlOAuthStore({
    database: () => Promise.resolve(database),
    box: new SecretBox(encryptionKey(newEncryptionKey())).forPurpose('oauth-store'),
  });
  h = await startHarness({
    adapter: store.adapter,
    verifyApiKey: (key) => Promise.resolve(PEOPLE[key]),
    routes: (app, as) => {
      // The gateway's one authenticator: API keys as bearer tokens, and this server's access tokens.
      const authenticator: Authenticator = {
        authenticate: (bearer) => {
          const key = PEOPLE[bearer];
          return key ? principalOf(key) : as.verifyAccessToken(bearer);
        },
      };
      mountGrantRoutes(app, {
        authenticator,
        grants: new GrantsService({
          registry: oauthGrantRegistry({ index: store, server: as }),
          audit: { record: (entry) => Promise.resolve(void audit.push(entry)) },
        }),
      });
    },
  });
});
afterAll(async () => {
  await h?.close();
  await database?.db.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const api = (path: string, bearer?: string, method = 'GET') =>
  fetch(`${h.base}${path}`, { method, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} }).then(
    async (res) => ({ status: res.status, headers: res.headers, body: (await res.json()) as any }),
  );

const OPS = 'ops-key-0123456789';
const READER = 'reader-key-0123456789';
const ADMIN = 'admin-key-0123456789'; // tenant "default"
const MANAGER = 'manager-key-0123456789';

/** A client registered, authorised by the person with `key`, its code exchanged: the tokens. */
const granted = async (key: string, scope: string, name = 'Test Agent') => {
  const client = await register(h.base, { client_name: name, redirect_uris: ['http://127.0.0.1:9/callback'] });
  const tokens = await exchange(h, client, await authorize(h, client, { key, scope }));
  expect(tokens.status).toBe(200);
  return { client, tokens: tokens.body as { access_token: string; refresh_token: string } };
};

describe('GET /v1/grants', () => {
  it('answers 401 in the envelope without a token, or with one it refuses', async () => {
    const none = await api('/v1/grants');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    const wrong = await api('/v1/grants', 'not-a-key');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('UNAUTHORIZED');
    expect(wrong.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it("lists the caller's own authorised clients: name, redirect host, scopes, times", async () => {
    const before = Date.now();
    const { client } = await granted(OPS, 'crm:read files:read', 'Listing Agent');
    const listed = await api('/v1/grants', OPS);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(listed.body.data).toMatchObject({ tenant: 'acme', scope: 'user' });
    const mine = listed.body.data.grants.find((g: any) => g.client_id === client.client_id);
    expect(mine).toMatchObject({
      client_name: 'Listing Agent',
      redirect_hosts: ['127.0.0.1:9'],
      principal: 'key:ops',
      scopes: ['crm:read', 'files:read'],
    });
    expect(mine.grant_id).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(Date.parse(mine.granted_at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(mine.updated_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(mine.expires_at)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    // Nothing secret in the listing.
    expect(JSON.stringify(listed.body)).not.toMatch(/refresh|access_token/);
    // Only the caller's: nobody else's grant appears.
    expect(listed.body.data.grants.every((g: any) => g.principal === 'key:ops')).toBe(true);
  });

  it("lists the same with the client's own OAuth access token (the token's person is the caller)", async () => {
    const { client, tokens } = await granted(OPS, 'crm:read');
    const listed = await api('/v1/grants', tokens.access_token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.grants.map((g: any) => g.client_id)).toContain(client.client_id);
    expect(listed.body.data.grants.every((g: any) => g.principal === 'key:ops')).toBe(true);
  });

  it("lists the whole tenant's with connections:manage, never another tenant's; refused without it", async () => {
    const ops = await granted(OPS, 'crm:read');
    const reader = await granted(READER, 'crm:read');
    const admin = await granted(ADMIN, 'crm:read');
    const tenant = await api('/v1/grants?scope=tenant', MANAGER);
    expect(tenant.status).toBe(200);
    expect(tenant.body.data.scope).toBe('tenant');
    const clients = tenant.body.data.grants.map((g: any) => g.client_id);
    expect(clients).toEqual(expect.arrayContaining([ops.client.client_id, reader.client.client_id]));
    expect(clients).not.toContain(admin.client.client_id);
    expect(new Set(tenant.body.data.grants.map((g: any) => g.principal))).toEqual(new Set(['key:ops', 'key:reader']));

    const refused = await api('/v1/grants?scope=tenant', OPS);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      success: false,
      error: { code: 'FORBIDDEN', details: { permission: 'connections:manage' } },
    });
    // The wildcard `*` holds it: the admin sees the default tenant's, not acme's.
    const adminView = await api('/v1/grants?scope=tenant', ADMIN);
    expect(adminView.status).toBe(200);
    const adminClients = adminView.body.data.grants.map((g: any) => g.client_id);
    expect(adminClients).toContain(admin.client.client_id);
    expect(adminClients).not.toContain(ops.client.client_id);
  });

  it('refuses an unknown scope with 400 INVALID_PARAMETER', async () => {
    const bad = await api('/v1/grants?scope=everyone', MANAGER);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'scope' } });
  });
});

describe('DELETE /v1/grants/{grant_id}', () => {
  const grantIdOf = async (key: string, clientId: string): Promise<string> => {
    const listed = await api('/v1/grants', key);
    const found = listed.body.data.grants.find((g: any) => g.client_id === clientId);
    expect(found).toBeDefined();
    return found.grant_id as string;
  };

  it('revokes the caller’s own grant: its refresh token stops working, the listing drops it, the audit says so', async () => {
    const { client, tokens } = await granted(OPS, 'crm:read files:read');
    // The refresh token works before (and is rotated).
    const refreshed = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.client_id,
    });
    expect(refreshed.status).toBe(200);
    const grantId = await grantIdOf(OPS, client.client_id);

    const revoked = await api(`/v1/grants/${grantId}`, OPS, 'DELETE');
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({
      success: true,
      data: { revoked: true, grant_id: grantId, client_id: client.client_id },
    });

    const after = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: refreshed.body.refresh_token,
      client_id: client.client_id,
    });
    expect(after.status).toBe(400);
    expect(after.body.error).toBe('invalid_grant');
    const listed = await api('/v1/grants', OPS);
    expect(listed.body.data.grants.map((g: any) => g.grant_id)).not.toContain(grantId);
    expect(audit).toContainEqual(
      expect.objectContaining({
        tenant: 'acme',
        principal: 'key:ops',
        tool: 'oauth.grant_revoked',
        targets: [client.client_id, `grant:${grantId}`],
        status: 200,
      }),
    );
    // Again: it is gone.
    const again = await api(`/v1/grants/${grantId}`, OPS, 'DELETE');
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'grant', id: grantId } });
  });

  it("refuses another person's grant without connections:manage (403); the manager may revoke it", async () => {
    const { client, tokens } = await granted(READER, 'crm:read');
    const grantId = await grantIdOf(READER, client.client_id);

    const refused = await api(`/v1/grants/${grantId}`, OPS, 'DELETE');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'connections:manage' } });
    // Still there, still refreshing.
    const still = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.client_id,
    });
    expect(still.status).toBe(200);

    const revoked = await api(`/v1/grants/${grantId}`, MANAGER, 'DELETE');
    expect(revoked.status).toBe(200);
    expect(audit).toContainEqual(
      expect.objectContaining({
        tenant: 'acme',
        principal: 'key:manager',
        tool: 'oauth.grant_revoked',
        targets: [client.client_id, `grant:${grantId}`, 'key:reader'],
      }),
    );
    const after = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: still.body.refresh_token,
      client_id: client.client_id,
    });
    expect(after.body.error).toBe('invalid_grant');
  });

  it("answers 404 for another tenant's grant, even with connections:manage (and leaves it alone)", async () => {
    const { client, tokens } = await granted(ADMIN, 'crm:read');
    const grantId = await grantIdOf(ADMIN, client.client_id);
    for (const key of [MANAGER, OPS]) {
      const other = await api(`/v1/grants/${grantId}`, key, 'DELETE');
      expect(other.status).toBe(404);
      expect(other.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
    const still = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.client_id,
    });
    expect(still.status).toBe(200);
  });

  it('answers 404 for an unknown or malformed grant id, and 401 without a token', async () => {
    expect((await api('/v1/grants/no-such-grant-0123456789', OPS, 'DELETE')).status).toBe(404);
    expect((await api(`/v1/grants/${'x'.repeat(300)}`, OPS, 'DELETE')).status).toBe(404);
    const none = await api('/v1/grants/anything', undefined, 'DELETE');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('the store and the service on their own', () => {
  it('answers 503 UNAVAILABLE with Retry-After when the store fails, and tells onStoreError', async () => {
    const down: GrantRegistry = {
      ofAccount: () => Promise.reject(new Error('database down')),
      ofTenant: () => Promise.reject(new Error('database down')),
      find: () => Promise.reject(new Error('database down')),
      revoke: () => Promise.reject(new Error('database down')),
    };
    const errors: Error[] = [];
    const app = new Hono();
    mountGrantRoutes(app, {
      authenticator: { authenticate: () => principalOf(PEOPLE[OPS]!) },
      grants: new GrantsService({ registry: down }),
      onStoreError: (e) => errors.push(e),
    });
    for (const [path, method] of [
      ['/v1/grants', 'GET'],
      ['/v1/grants/abc', 'DELETE'],
    ] as const) {
      const res = await app.request(path, { method, headers: { authorization: 'Bearer x' } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toMatchObject({ success: false, error: { code: 'UNAVAILABLE' } });
    }
    expect(errors.map((e) => e.message)).toEqual(['database down', 'database down']);
  });
});

describe.each([
  { name: 'embedded SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
])('the store lists a tenant by its exact prefix on $name', ({ postgres }) => {
  let db: OpenDatabase | undefined;
  let own: OAuthStore;
  let skip: string | undefined;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (postgres) {
      const found = await postgresForTests();
      if ('skip' in found) {
        skip = found.skip;
        return;
      }
      stop = found.stop;
      db = await openPostgres(found.url, 2);
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'gateway-grants-'));
      dirs.push(dir);
      db = await openEmbedded(dir);
    }
    const opened = db;
    own = sqlOAuthStore({
      database: () => Promise.resolve(opened),
      box: new SecretBox(encryptionKey(newEncryptionKey())).forPurpose('oauth-store'),
    });
  });
  afterAll(async () => {
    await db?.db.destroy();
    await stop?.();
  });

  it('`_` in a tenant id is not a wildcard, and a longer tenant id is another tenant', async (ctx) => {
    if (skip) return ctx.skip(skip);
    // Tenants of this run only (the PostgreSQL database is shared with other runs).
    const run = randomBytes(4).toString('hex');
    const [under, other, longer] = [`t${run}_b`, `t${run}xb`, `t${run}_bc`];
    const grants = own.adapter('Grant');
    const now = Math.floor(Date.now() / 1000);
    const put = (id: string, accountId: string, clientId: string) =>
      grants.upsert(id, { accountId, clientId, kind: 'Grant', jti: id, iat: now, exp: now + 3600 }, 3600);
    await put(`${run}-under`, `${under}|key:x`, 'c1');
    await put(`${run}-other`, `${other}|key:y`, 'c2');
    await put(`${run}-longer`, `${longer}|key:z`, 'c3');
    expect((await own.grantsOfTenant(under)).map((g) => g.grantId)).toEqual([`${run}-under`]);
    expect((await own.grantsOfTenant(other)).map((g) => g.grantId)).toEqual([`${run}-other`]);
    expect(await own.grant(`${run}-longer`)).toMatchObject({ accountId: `${longer}|key:z`, clientId: 'c3' });
    expect(await own.grant(`${run}-none`)).toBeUndefined();
  });
});
