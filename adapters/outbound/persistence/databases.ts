import { createRequire } from 'node:module';
import type { Kysely, PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { openEmbeddedSqlite } from './embedded-sqlite.js';
import type { GatewayDatabase } from './schema.js';

// The SQL stores' databases. Their drivers load on first use, not with the gateway: Kysely (with the schema
// and its migrations) when a database is opened, `pg` when PostgreSQL is first asked something, and
// node-sqlite3-wasm when the embedded file is first opened (embedded-sqlite.ts). A gateway that never
// stores a connection or an audit entry never loads them.

const require = createRequire(import.meta.url);
let pgModule: typeof pg | undefined;
/** `pg` (CommonJS), loaded on first use: the same module instance an `import pg from 'pg'` gets. */
const loadPg = (): typeof pg => (pgModule ??= require('pg') as typeof pg);

/** An open database with the schema up to date. */
export interface OpenDatabase {
  readonly db: Kysely<GatewayDatabase>;
  readonly dialect: 'postgres' | 'sqlite';
}

/**
 * Told when a PostgreSQL connection fails outside any query the gateway awaits (a session terminated by
 * the server, a dropped socket): `client` for one checked out or in use, `pool` for an idle one. Such a
 * fault is logged, never fatal: the failed queries answer as errors and the pool opens a new connection.
 */
export type DatabaseFaultListener = (error: Error, source: 'client' | 'pool') => void;

const ignoreFault: DatabaseFaultListener = () => undefined;

/** Connections in the gateway's pool (DATABASE_URL). */
export const POSTGRES_POOL_SIZE = 10;

/** Longest the readiness probe waits for `select 1`, connecting included. */
export const READINESS_TIMEOUT_MS = 1_000;

/** The database with its schema brought up to date; closed again if that fails. */
const migrated = async (db: Kysely<GatewayDatabase>, dialect: OpenDatabase['dialect']): Promise<OpenDatabase> => {
  try {
    const { migrate } = await import('./schema.js');
    await migrate(db, dialect);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, dialect };
};

/**
 * True when a failed query leaves its session unusable, so the client must leave the pool: anything but an
 * error the server reported for the statement alone (a socket error, a client-side timeout, a FATAL such as
 * 57P01 "terminating connection due to administrator command", a connection exception of class 08).
 */
export const sessionLost = (error: unknown): boolean =>
  !(error instanceof loadPg().DatabaseError) ||
  error.severity === 'FATAL' ||
  error.severity === 'PANIC' ||
  (error.code ?? '').startsWith('08');

/**
 * An `error` listener on the pool (idle clients) and on every client it opens (checked-out ones: pg-pool
 * removes its own listener while a client is lent, and an `error` event without a listener ends the
 * process). Each lost session is reported once: by the pool when idle, by the client when lent. Returns
 * the clients that failed, so that they are released as broken.
 */
const listen = (pool: pg.Pool, onFault: DatabaseFaultListener): WeakSet<pg.PoolClient> => {
  const failed = new WeakSet<pg.PoolClient>();
  const lent = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => lent.add(client));
  pool.on('release', (_error, client) => lent.delete(client));
  pool.on('error', (error, client) => {
    failed.add(client);
    onFault(error, 'pool');
  });
  pool.on('connect', (client) =>
    client.on('error', (error) => {
      if (failed.has(client)) return;
      failed.add(client);
      if (lent.has(client)) onFault(error, 'client');
    }),
  );
  return failed;
};

/**
 * The pool as Kysely sees it, except that a client whose session failed (an `error` event, or a query that
 * failed with the session: `sessionLost`) is released with an error, so pg-pool discards it instead of
 * lending it again; the next query gets a new connection.
 */
const discardingBroken = (pool: pg.Pool, failed: WeakSet<pg.PoolClient>): PostgresPool => ({
  connect: async (): Promise<PostgresPoolClient> => {
    const client = await pool.connect();
    let lost: unknown;
    const query = async (text: string, parameters: readonly unknown[]) => {
      try {
        return await client.query(text, [...parameters]);
      } catch (error) {
        if (sessionLost(error)) lost ??= error;
        throw error;
      }
    };
    return {
      // Only the (sql, parameters) form: the dialect is given no cursor, so Kysely never passes one.
      query: query as unknown as PostgresPoolClient['query'],
      release: (destroy?: boolean) => {
        const broken = destroy || lost !== undefined || failed.has(client);
        client.release(broken ? new Error('database session lost: connection discarded', { cause: lost }) : undefined);
      },
    };
  },
  end: () => pool.end(),
});

/** PostgreSQL through a `pg` pool (DATABASE_URL); migrations run once, under an advisory lock. */
export const openPostgres = async (
  url: string,
  poolSize = POSTGRES_POOL_SIZE,
  onFault: DatabaseFaultListener = ignoreFault,
): Promise<OpenDatabase> => {
  const [{ Kysely, PostgresDialect }, { STATEMENT_TIMEOUT_MS }] = await Promise.all([
    import('kysely'),
    import('./schema.js'),
  ]);
  const pool = new (loadPg().Pool)({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: STATEMENT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
  });
  const failed = listen(pool, onFault);
  return migrated(
    new Kysely<GatewayDatabase>({ dialect: new PostgresDialect({ pool: discardingBroken(pool, failed) }) }),
    'postgres',
  );
};

/** Is the database there? Answers within its timeout, never throws. */
export interface DatabaseProbe {
  check(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * A readiness probe for PostgreSQL: `select 1` on a connection of its own (so a busy pool does not read as
 * a database that is down), bounded by `timeoutMs` connecting included. Concurrent checks share one query,
 * so an unauthenticated `/readyz` flood costs the database one connection and one query at a time. Its pool
 * (and `pg`) is made on the first check; closed, it answers false.
 */
export const postgresProbe = (
  url: string,
  timeoutMs = READINESS_TIMEOUT_MS,
  onFault: DatabaseFaultListener = ignoreFault,
): DatabaseProbe => {
  let pool: pg.Pool | undefined;
  let closed = false;
  const poolOf = (): pg.Pool => {
    if (pool) return pool;
    pool = new (loadPg().Pool)({
      connectionString: url,
      max: 1,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      statement_timeout: timeoutMs,
      idleTimeoutMillis: 30_000,
      allowExitOnIdle: true,
    });
    listen(pool, onFault);
    return pool;
  };
  let running: Promise<boolean> | undefined;
  const once = async (): Promise<boolean> => {
    if (closed) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([
        poolOf()
          .query('select 1')
          .then(() => true),
        late,
      ]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    check: () => (running ??= once().finally(() => (running = undefined))),
    close: async () => {
      closed = true;
      await pool?.end();
    },
  };
};

/** The embedded SQLite file in `dir` (GATEWAY_DATA_DIR), opened on first use and migrated. */
export const openEmbedded = async (dir: string): Promise<OpenDatabase> => {
  const { Kysely, SqliteDialect } = await import('kysely');
  const db = new Kysely<GatewayDatabase>({
    dialect: new SqliteDialect({ database: async () => openEmbeddedSqlite(dir) }),
  });
  return migrated(db, 'sqlite');
};
