import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbedded, openPostgres, type OpenDatabase } from '../../adapters/outbound/persistence/databases.js';
import { encryptionKey, newEncryptionKey, SecretBox } from '../../adapters/outbound/persistence/secret-box.js';
import { SqlConnectionStore } from '../../adapters/outbound/persistence/sql-connection-store.js';
import type { Connection } from '../../ports/connection-store.js';
import { postgresForTests } from '../support/postgres.js';

// One contract, two stores: the embedded SQLite file and PostgreSQL (skipped with a message when none
// answers). Each run uses tenants of its own, so runs on a shared database do not meet.

const KEY = encryptionKey(newEncryptionKey());
const box = () => new SecretBox(KEY);

const connection = (tenant: string, over: Partial<Connection> = {}): Connection => ({
  tenant,
  vendor: 'hubspot',
  owner: '',
  kind: 'oauth',
  status: 'connected',
  label: 'Portal 12345 (app.hubspot.com)',
  details: { portalId: '12345', uiDomain: 'app.hubspot.com' },
  secret: { accessToken: `at-${randomUUID()}`, refreshToken: `rt-${randomUUID()}`, expiresAt: 1_800_000_000_000 },
  connectedAt: new Date('2026-11-25T10:00:00.000Z'),
  ...over,
});

interface Backend {
  readonly name: string;
  open(): Promise<OpenDatabase>;
  /** Every stored byte an attacker with the database files or a dump would see. */
  raw(db: OpenDatabase): Promise<string>;
  skip?: string;
}

const dirs: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-store-'));
dirs.push(dataDir);
let pgUrl: string | undefined;
let pgSkip: string | undefined;
let stopPg: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const found = await postgresForTests();
  if ('skip' in found) pgSkip = found.skip;
  else {
    pgUrl = found.url;
    stopPg = found.stop;
  }
});
afterAll(async () => {
  await stopPg?.();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const backends: Backend[] = [
  {
    name: 'embedded SQLite',
    open: () => openEmbedded(dataDir),
    raw: async () =>
      readdirSync(dataDir)
        .filter((f) => f.startsWith('gateway.sqlite'))
        .map((f) => {
          try {
            return readFileSync(join(dataDir, f)).toString('latin1');
          } catch {
            return '';
          }
        })
        .join(''),
  },
  {
    name: 'PostgreSQL',
    open: () => openPostgres(pgUrl!, 4),
    raw: async ({ db }) => JSON.stringify(await db.selectFrom('gateway_connections').selectAll().execute()),
  },
];

describe.each(backends)('ConnectionStore on $name', (backend) => {
  const skipped = () => backend.name === 'PostgreSQL' && pgSkip !== undefined;
  const withStore = async <T>(use: (store: SqlConnectionStore, db: OpenDatabase) => Promise<T>, b = box()) => {
    const db = await backend.open();
    const store = new SqlConnectionStore(db.db, b);
    try {
      return await use(store, db);
    } finally {
      await store.close();
    }
  };

  it('finds the connections of one vendor account in every tenant by a detail (withDetail)', async (ctx) => {
    if (skipped()) return ctx.skip(pgSkip);
    const [a, b] = [`t-${randomUUID()}`, `t-${randomUUID()}`];
    // LIKE's wildcards and JSON's escapes in the value match only themselves
    const user = `u_%"\\${randomUUID()}`;
    const sf = (tenant: string, owner: string, details: Record<string, string>) =>
      connection(tenant, { vendor: 'sharefile', owner, details, label: 'acme.sharefile.com' });
    await withStore(async (store) => {
      await store.save(sf(a, '', { subdomain: 'acme', user_id: user }));
      await store.save(sf(b, 'p-1', { user_id: user, subdomain: 'other' }));
      await store.save(sf(b, 'p-2', { user_id: `${user}x` }));
      await store.save(sf(b, 'p-3', { user_id: user.replace('_%', 'ab') }));
      await store.save(connection(a, { details: { user_id: user } }));
      const found = await store.withDetail('sharefile', 'user_id', user, 10);
      expect(found.map((c) => `${c.tenant === a ? 'a' : 'b'}/${c.owner}`).sort()).toEqual(['a/', 'b/p-1']);
      expect(found[0]).not.toHaveProperty('secret');
      expect(await store.withDetail('sharefile', 'user_id', user, 1)).toHaveLength(1);
      expect(await store.withDetail('sharefile', 'subdomain', user, 10)).toEqual([]);
    });
  });

  it('stores, finds, lists without secrets, replaces and forgets a connection', async (ctx) => {
    if (skipped()) return ctx.skip(pgSkip);
    const tenant = `t-${randomUUID()}`;
    await withStore(async (store) => {
      const c = connection(tenant);
      await store.save(c);
      expect(await store.find(tenant, 'hubspot', '')).toEqual(c);
      const listed = await store.list(tenant);
      expect(listed).toHaveLength(1);
      expect(listed[0]).not.toHaveProperty('secret');
      expect(JSON.stringify(listed)).not.toContain(c.secret.accessToken);

      const replaced = connection(tenant, { label: 'Portal 999', secret: { apiKey: 'pat-na1-replaced' }, kind: 'key' });
      await store.save(replaced);
      expect(await store.find(tenant, 'hubspot', '')).toEqual(replaced);
      expect(await store.list(tenant)).toHaveLength(1);

      expect(await store.remove(tenant, 'hubspot', '')).toBe(true);
      expect(await store.remove(tenant, 'hubspot', '')).toBe(false);
      expect(await store.find(tenant, 'hubspot', '')).toBeUndefined();
    });
  });

  it('keeps tenants and owners apart', async (ctx) => {
    if (skipped()) return ctx.skip(pgSkip);
    const a = `a-${randomUUID()}`;
    const b = `b-${randomUUID()}`;
    await withStore(async (store) => {
      await store.save(connection(a));
      await store.save(connection(a, { vendor: 'sharefile', owner: 'key:alice', details: { subdomain: 'acme' } }));
      await store.save(connection(a, { vendor: 'sharefile', owner: 'key:bob', details: { subdomain: 'acme' } }));
      expect(await store.list(b)).toEqual([]);
      expect(await store.find(b, 'hubspot', '')).toBeUndefined();
      expect((await store.list(a)).map((c) => `${c.vendor}/${c.owner}`)).toEqual([
        'hubspot/',
        'sharefile/key:alice',
        'sharefile/key:bob',
      ]);
      expect(await store.find(a, 'sharefile', 'key:carol')).toBeUndefined();
    });
  });

  it('saves a refreshed secret and the status a refused refresh leaves', async (ctx) => {
    if (skipped()) return ctx.skip(pgSkip);
    const tenant = `t-${randomUUID()}`;
    await withStore(async (store) => {
      await store.save(connection(tenant));
      await store.setStatus(tenant, 'hubspot', '', 'needs_reauthorization');
      expect((await store.list(tenant))[0]!.status).toBe('needs_reauthorization');
      const at = new Date('2026-11-25T11:00:00.000Z');
      await store.saveSecret(tenant, 'hubspot', '', { accessToken: 'at-new', refreshToken: 'rt-rotated' }, at);
      const found = await store.find(tenant, 'hubspot', '');
      expect(found?.secret).toEqual({ accessToken: 'at-new', refreshToken: 'rt-rotated' });
      expect(found?.refreshedAt).toEqual(at);
      expect(found?.status).toBe('connected');
    });
  });

  it('keeps connections across a restart', async (ctx) => {
    if (skipped()) return ctx.skip(pgSkip);
    const tenant = `t-${randomUUID()}`;
    const c = connection(tenant);
    await withStore((store) => store.save(c));
    expect(await withStore((store) => store.find(tenant, 'hubspot', ''))).toEqual(c);
  });

  it('stores no secret in plaintext', async (ctx) => {
    if (skipped()) return ctx.skip(pgSkip);
    const tenant = `t-${randomUUID()}`;
    const c = connection(tenant);
    await withStore(async (store, db) => {
      await store.save(c);
      const raw = await backend.raw(db);
      expect(raw).toContain(tenant); // the row is there...
      expect(raw).not.toContain(c.secret.accessToken!); // ...its secret is not readable
      expect(raw).not.toContain(c.secret.refreshToken!);
    });
  });

  it('reads rows sealed with an older key, writes with the current one, and refuses a moved secret', async (ctx) => {
    if (skipped()) return ctx.skip(pgSkip);
    const tenant = `t-${randomUUID()}`;
    const c = connection(tenant);
    await withStore((store) => store.save(c));
    const next = encryptionKey(newEncryptionKey());
    const rotated = new SecretBox(next, [KEY]);
    await withStore(async (store, { db }) => {
      expect(await store.find(tenant, 'hubspot', '')).toEqual(c);
      await store.save(connection(tenant, { vendor: 'batchdata', kind: 'key', secret: { apiKey: 'bd-key' } }));
      const keyIds = await db
        .selectFrom('gateway_connections')
        .select(['vendor', 'key_id'])
        .where('tenant', '=', tenant)
        .execute();
      expect(Object.fromEntries(keyIds.map((r) => [r.vendor, r.key_id]))).toEqual({
        hubspot: KEY.id,
        batchdata: next.id,
      });

      // A sealed secret copied into another tenant's row does not open there.
      const row = await db
        .selectFrom('gateway_connections')
        .selectAll()
        .where('tenant', '=', tenant)
        .where('vendor', '=', 'hubspot')
        .executeTakeFirstOrThrow();
      const other = `o-${randomUUID()}`;
      await db
        .insertInto('gateway_connections')
        .values({ ...row, tenant: other })
        .execute();
      await expect(store.find(other, 'hubspot', '')).rejects.toThrow();
    }, rotated);
    // Without the old key, an old row cannot be read: the error names the variable to set.
    await withStore(
      (store) => expect(store.find(tenant, 'hubspot', '')).rejects.toThrow(/GATEWAY_ENCRYPTION_KEYS/),
      new SecretBox(next),
    );
  });
});

describe('PostgreSQL migrations', () => {
  it('run once when several instances start together', async (ctx) => {
    if (pgSkip) return ctx.skip(pgSkip);
    const opened = await Promise.all([openPostgres(pgUrl!, 2), openPostgres(pgUrl!, 2), openPostgres(pgUrl!, 2)]);
    try {
      const { db } = opened[0]!;
      const rows = await db
        .selectFrom('gateway_migrations' as never)
        .select('name' as never)
        .execute();
      const names = rows.map((r) => (r as { name: string }).name);
      expect(names).toEqual([...new Set(names)]);
      expect(names).toContain('2026-11-25-01-connections');
    } finally {
      await Promise.all(opened.map((o) => o.db.destroy()));
    }
  });
});

describe('the embedded store', () => {
  it('refuses a data dir that a live process holds, takes over one a dead process left, and shares one handle in a process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-lock-'));
    dirs.push(dir);
    const first = await openEmbedded(dir);
    const second = await openEmbedded(dir); // the same process: one handle, shared
    await first.db
      .insertInto('gateway_connections')
      .values({
        tenant: 't',
        vendor: 'hubspot',
        owner: '',
        kind: 'key',
        status: 'connected',
        label: 'x',
        details: '{}',
        secret: 'sealed',
        key_id: 'k',
        connected_at: 'now',
        refreshed_at: null,
        updated_at: 'now',
      })
      .execute();
    expect(await second.db.selectFrom('gateway_connections').select('tenant').execute()).toEqual([{ tenant: 't' }]);
    await first.db.destroy();
    await second.db.destroy();
    const { writeFileSync } = await import('node:fs');
    // Another live process holds it (our parent's pid stands in for one).
    writeFileSync(join(dir, 'owner.pid'), String(process.ppid));
    await expect(openEmbedded(dir)).rejects.toThrow(/in use by another process/);
    // A process that died left it: taken over.
    writeFileSync(join(dir, 'owner.pid'), '999999999');
    const again = await openEmbedded(dir);
    expect(await again.db.selectFrom('gateway_connections').select('tenant').execute()).toEqual([{ tenant: 't' }]);
    await again.db.destroy();
  });
});
