import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { openEmbeddedSqlite } from './embedded-sqlite.js';
import { migrate, STATEMENT_TIMEOUT_MS, type GatewayDatabase } from './schema.js';

/** An open database with the schema up to date. */
export interface OpenDatabase {
  readonly db: Kysely<GatewayDatabase>;
  readonly dialect: 'postgres' | 'sqlite';
}

/** The database with its schema brought up to date; closed again if that fails. */
const migrated = async (db: Kysely<GatewayDatabase>, dialect: OpenDatabase['dialect']): Promise<OpenDatabase> => {
  try {
    await migrate(db, dialect);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, dialect };
};

/** PostgreSQL through a `pg` pool (DATABASE_URL); migrations run once, under an advisory lock. */
export const openPostgres = async (url: string, poolSize = 10): Promise<OpenDatabase> => {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: STATEMENT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its connection emits 'error' on the pool: without a listener that ends
  // the process. The next query gets a fresh client.
  pool.on('error', () => undefined);
  return migrated(new Kysely<GatewayDatabase>({ dialect: new PostgresDialect({ pool }) }), 'postgres');
};

/** The embedded SQLite file in `dir` (GATEWAY_DATA_DIR), opened on first use and migrated. */
export const openEmbedded = async (dir: string): Promise<OpenDatabase> => {
  const db = new Kysely<GatewayDatabase>({
    dialect: new SqliteDialect({ database: async () => openEmbeddedSqlite(dir) }),
  });
  return migrated(db, 'sqlite');
};
