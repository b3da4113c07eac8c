import { randomBytes } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, sessionLost } from '../../adapters/outbound/persistence/databases.js';
import { postgresForTests } from '../support/postgres.js';
import { adminClient, terminate, uncaughtDuring, until, withParams } from '../support/pg-faults.js';

// A PostgreSQL session lost under the database layer (issue 26, item 4; the gateway under load is in
// pg-faults.test.ts): which failed queries take their session with them, and a session terminated while
// checked out, mid-query or idle in the pool is logged and counted, never an uncaught exception, and the
// next query gets a new session. Each run terminates only sessions with an application_name of its own.

const found = await postgresForTests();
if ('skip' in found) console.warn(found.skip);
const pgUrl = 'skip' in found ? '' : found.url;

afterAll(async () => {
  if (!('skip' in found)) await found.stop();
});

describe('sessionLost: which failed queries take their session with them', () => {
  const dbError = (severity: string, code: string) =>
    Object.assign(new pg.DatabaseError('x', 1, 'error'), { severity, code });
  it.each([
    ['a statement timeout (the session is fine)', dbError('ERROR', '57014'), false],
    ['a unique violation', dbError('ERROR', '23505'), false],
    ['terminated by an administrator (FATAL 57P01)', dbError('FATAL', '57P01'), true],
    ['a connection exception (class 08)', dbError('ERROR', '08006'), true],
    ['a socket error', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), true],
    ['Connection terminated unexpectedly', new Error('Connection terminated unexpectedly'), true],
  ])('%s', (_name, error, lost) => {
    expect(sessionLost(error)).toBe(lost);
  });
});

describe.skipIf('skip' in found)('a PostgreSQL session lost under the database layer', () => {
  let admin: pg.Client;
  beforeAll(async () => {
    admin = await adminClient(pgUrl);
  });
  afterAll(() => admin.end());

  const open = async (poolSize: number) => {
    const app = `pgf-unit-${randomBytes(6).toString('hex')}`;
    const faults: string[] = [];
    const opened = await openPostgres(withParams(pgUrl, { application_name: app }), poolSize, (_e, source) =>
      faults.push(source),
    );
    return { ...opened, app, faults };
  };
  const pidOf = async (db: Parameters<RawBuilder<unknown>['execute']>[0]): Promise<number> =>
    (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;

  it('checked out and idle between queries: logged, not an uncaught exception; the next query gets a new session', async () => {
    const uncaught = uncaughtDuring();
    const { db, faults } = await open(2);
    try {
      let lostPid = 0;
      await db.connection().execute(async (conn) => {
        lostPid = await pidOf(conn);
        await admin.query('select pg_terminate_backend($1)', [lostPid]);
        await until(() => faults.includes('client') || uncaught.seen.length > 0);
        await expect(sql`select 1`.execute(conn)).rejects.toThrow();
      });
      expect(uncaught.seen.map((e) => e.message)).toEqual([]);
      expect(faults).toEqual(['client']); // once, though the client reports two errors
      const pid = await pidOf(db);
      expect(pid).not.toBe(lostPid);
    } finally {
      uncaught.stop();
      await db.destroy();
    }
  });

  it('mid-query: the query fails, the client is discarded, the next query on a one-connection pool succeeds', async () => {
    const uncaught = uncaughtDuring();
    const { db, app } = await open(1);
    try {
      const before = await pidOf(db);
      const slow = sql`select pg_sleep(3)`.execute(db);
      const outcome = slow.then(
        () => 'answered',
        (e: unknown) => (sessionLost(e) ? 'session lost' : `other: ${String(e)}`),
      );
      await until(async () => {
        const { rows } = await admin.query(
          `select 1 from pg_stat_activity where application_name = $1 and query like '%pg_sleep%' and state = 'active'`,
          [app],
        );
        return rows.length > 0;
      });
      expect(await terminate(admin, app)).toBe(1);
      expect(await outcome).toBe('session lost');
      // At once, on the only pooled connection there is: the broken one must not be lent again.
      const after = await pidOf(db);
      expect(after).not.toBe(before);
      await new Promise((r) => setTimeout(r, 100));
      expect(uncaught.seen.map((e) => e.message)).toEqual([]);
    } finally {
      uncaught.stop();
      await db.destroy();
    }
  });

  it('idle in the pool: the pool reports it and opens a new session for the next query', async () => {
    const uncaught = uncaughtDuring();
    const { db, app, faults } = await open(2);
    try {
      const before = await pidOf(db);
      expect(await terminate(admin, app)).toBe(1);
      await until(() => faults.includes('pool'));
      expect(await pidOf(db)).not.toBe(before);
      expect(faults).toEqual(['pool']);
      expect(uncaught.seen).toEqual([]);
    } finally {
      uncaught.stop();
      await db.destroy();
    }
  });
});
