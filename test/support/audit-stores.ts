import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, it } from 'vitest';
import { InMemoryAuditLog } from '../../adapters/outbound/memory/in-memory-audit-log.js';
import { openEmbedded, openPostgres, type OpenDatabase } from '../../adapters/outbound/persistence/databases.js';
import { SqlAuditLog } from '../../adapters/outbound/persistence/sql-audit-log.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import type { AuditLog } from '../../ports/audit-log.js';
import { NOW } from './gateway.js';
import { postgresForTests } from './postgres.js';

/**
 * One test per audit store running `roundTrip` on it: the memory store, the embedded SQLite (in a folder of its
 * own) and PostgreSQL (skipped with a message without DATABASE_URL); the databases are closed after the file.
 */
export const inEachAuditStore = (folderPrefix: string, roundTrip: (log: AuditLog) => Promise<void>): void => {
  const opened: OpenDatabase[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((o) => o.db.destroy()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const sql = async (db: OpenDatabase) => {
    opened.push(db);
    await roundTrip(new SqlAuditLog(() => Promise.resolve(db.db)));
  };

  it('memory', async () => {
    await roundTrip(new InMemoryAuditLog(new FixedClock(NOW)));
  });

  it('embedded SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), folderPrefix));
    dirs.push(dir);
    await sql(await openEmbedded(dir));
  });

  it('PostgreSQL', async (ctx) => {
    const pg = await postgresForTests();
    if ('skip' in pg) return ctx.skip(pg.skip);
    await sql(await openPostgres(pg.url, 2));
  });
};
