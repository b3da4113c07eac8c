import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbedded, openPostgres, type OpenDatabase } from '../../../../adapters/outbound/persistence/databases.js';
import { sqlOAuthStore } from '../../../../adapters/outbound/persistence/oauth-store.js';
import { encryptionKey, newEncryptionKey, SecretBox } from '../../../../adapters/outbound/persistence/secret-box.js';
import { postgresForTests } from '../../../support/postgres.js';

// Issue 38: a registered client that never got a grant expires (a day by default) and their number is bounded
// (the oldest unused deleted past it); a grant keeps its client. With a clock the test moves; the expiry on the
// embedded SQLite and on PostgreSQL, the bound on SQLite (PostgreSQL's table is shared with other runs).

const dirs: string[] = [];
let pgUrl: string | undefined;
let stopPg: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const found = await postgresForTests();
  if (!('skip' in found)) {
    pgUrl = found.url;
    stopPg = found.stop;
  }
});
afterAll(async () => {
  await stopPg?.();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const backends: { name: string; open: () => Promise<OpenDatabase> }[] = [
  {
    name: 'embedded SQLite',
    open: () => {
      const dir = mkdtempSync(join(tmpdir(), 'gateway-oauth-unused-'));
      dirs.push(dir);
      return Promise.resolve(openEmbedded(dir));
    },
  },
  { name: 'PostgreSQL', open: () => openPostgres(pgUrl!, 2) },
];

describe.each(backends)('unused client registrations on $name', ({ name, open }) => {
  it('expire after the lifetime unless a grant was made, and at most the bound are kept', async (ctx) => {
    if (name === 'PostgreSQL' && !pgUrl) return ctx.skip();
    const db = await open();
    let now = new Date('2026-11-29T00:00:00Z');
    const store = sqlOAuthStore({
      database: () => Promise.resolve(db),
      box: new SecretBox(encryptionKey(newEncryptionKey())),
      now: () => now,
      unusedClientTtlSeconds: 3600,
      // The table is shared with other runs on PostgreSQL: the bound is checked on the private SQLite file only.
      maxUnusedClients: name === 'PostgreSQL' ? 1_000_000 : 3,
    });
    const clients = store.adapter('Client');
    const tag = randomBytes(4).toString('hex');
    const id = (n: number) => `unused-${tag}-${n}`;
    const tick = () => (now = new Date(now.getTime() + 1000));
    try {
      await clients.upsert(id(1), { client_id: id(1) }, 0);
      tick();
      await clients.upsert(id(2), { client_id: id(2) }, 0);
      // Client 2 gets a grant: it is kept from now on.
      await store
        .adapter('Grant')
        .upsert(`grant-${tag}`, { clientId: id(2), accountId: 'acme|key:ops' }, 3600 * 24 * 30);
      expect(await clients.find(id(1))).toBeDefined();

      now = new Date(now.getTime() + 3601 * 1000);
      expect(await clients.find(id(1))).toBeUndefined(); // no grant: expired
      expect(await clients.find(id(2))).toBeDefined();
      expect(await store.purgeExpired()).toBeGreaterThanOrEqual(1);

      // The bound: a fourth unused client pushes out the oldest unused one; the granted one is not counted.
      if (name === 'PostgreSQL') return;
      for (const n of [3, 4, 5, 6]) {
        tick();
        await clients.upsert(id(n), { client_id: id(n) }, 0);
      }
      expect(await clients.find(id(3))).toBeUndefined();
      for (const n of [4, 5, 6]) expect(await clients.find(id(n))).toBeDefined();
      expect(await clients.find(id(2))).toBeDefined();
    } finally {
      if (name === 'PostgreSQL') {
        const { sql } = await import('kysely');
        await sql`delete from gateway_oauth where client_id like ${`unused-${tag}-%`}`.execute(db.db);
      }
      await db.db.destroy();
    }
  });
});
