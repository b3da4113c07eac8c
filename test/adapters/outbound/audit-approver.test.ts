import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InMemoryAuditLog } from '../../../adapters/outbound/memory/in-memory-audit-log.js';
import { openEmbedded, openPostgres, type OpenDatabase } from '../../../adapters/outbound/persistence/databases.js';
import { SqlAuditLog } from '../../../adapters/outbound/persistence/sql-audit-log.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import type { AuditEntry, AuditLog } from '../../../ports/audit-log.js';
import { NOW } from '../../support/gateway.js';
import { postgresForTests } from '../../support/postgres.js';

// Who approved a call (issue 30) is kept by every audit store: the memory store, the embedded SQLite and
// PostgreSQL (the column added by migration 2026-11-28-01-audit-approver); a row without one (a connection
// change) reads back without it.

const tenant = `approver-${randomBytes(4).toString('hex')}`;
const entry = (tool: string, approver?: AuditEntry['approver']): AuditEntry => ({
  at: NOW,
  tenant,
  principal: 'key:agent',
  tool,
  targets: ['101'],
  status: 200,
  requestId: `req-${tool}`,
  ...(approver ? { approver } : {}),
});

const roundTrip = async (log: AuditLog) => {
  await log.record(entry('crm_deleteContact', 'person'));
  await log.record(entry('crm_deleteContact', 'model'));
  await log.record(entry('skiptrace_skipTraceProperty', 'nobody'));
  await log.record(entry('connections.connect'));
  const rows = await log.query({ tenant, limit: 10 });
  expect(rows.map((r) => [r.tool, r.approver])).toEqual([
    ['connections.connect', undefined],
    ['skiptrace_skipTraceProperty', 'nobody'],
    ['crm_deleteContact', 'model'],
    ['crm_deleteContact', 'person'],
  ]);
};

const opened: OpenDatabase[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(opened.map((o) => o.db.destroy()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the approver in each audit store', () => {
  it('memory', async () => {
    await roundTrip(new InMemoryAuditLog(new FixedClock(NOW)));
  });

  it('embedded SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-approver-'));
    dirs.push(dir);
    const db = await openEmbedded(dir);
    opened.push(db);
    await roundTrip(new SqlAuditLog(() => Promise.resolve(db.db)));
  });

  it('PostgreSQL', async (ctx) => {
    const pg = await postgresForTests();
    if ('skip' in pg) return ctx.skip(pg.skip);
    const db = await openPostgres(pg.url, 2);
    opened.push(db);
    await roundTrip(new SqlAuditLog(() => Promise.resolve(db.db)));
  });
});
