import { Migrator, sql, type Generated, type Kysely, type Migration } from 'kysely';

// One schema for both stores (PostgreSQL and the embedded SQLite), written once through Kysely. Times
// are ISO-8601 UTC text (they sort as they read, the same in both databases); JSON is text.

export interface ConnectionsTable {
  tenant: string;
  vendor: string;
  /** The owning principal's id; '' for a tenant-wide connection (a NULL would not be unique). */
  owner: string;
  kind: string;
  status: string;
  label: string;
  /** Non-secret details, JSON. */
  details: string;
  /** The sealed secret (AES-256-GCM) and the id of the key that sealed it. */
  secret: string;
  key_id: string;
  connected_at: string;
  refreshed_at: string | null;
  updated_at: string;
}

export interface AuditTable {
  id: Generated<number>;
  at: string;
  tenant: string;
  principal: string;
  tool: string;
  vendor: string | null;
  /** The ids the call named or made, JSON (never other argument values). */
  targets: string;
  /** HTTP-like status of the outcome and the error code, if any. */
  status: number;
  code: string | null;
  request_id: string;
  /** A skip trace's permissible purpose (GLBA/DPPA). */
  purpose: string | null;
  /** Who approved a tool call: person, model or nobody (null on connection changes and older rows). */
  approver: string | null;
  /** 1 on a replayed idempotent write (nothing ran), null otherwise; and the original call's request id. */
  replay: number | null;
  replay_of: string | null;
}

/** Usage per tenant and period (issue 32): one row per counter, `period` a UTC day or month. */
export interface UsageCountersTable {
  tenant: string;
  /** `2026-11-27` (a UTC day) or `2026-11` (a UTC month). */
  period: string;
  name: string;
  /** bigint: PostgreSQL answers it as text. */
  count: number | string;
}

/** Long jobs (issue 40): one row per job (see ports/job-queue.ts JobRow). */
export interface JobsTable {
  id: string;
  tenant: string;
  owner: string;
  principal: string;
  tool: string;
  params: string;
  status: string;
  total: number | null;
  done: number;
  failed: number;
  request_id: string;
  trace: string | null;
  worker: string | null;
  lease_until: string | null;
  attempts: number;
  outcome: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  expires_at: string;
}

/** A job's items: started before its write, settled (with the outcome, JSON) after it. */
export interface JobItemsTable {
  job_id: string;
  idx: number;
  /** 0 started, 1 settled. */
  settled: number;
  /** 1 success, 0 failure, null while started. */
  success: number | null;
  outcome: string | null;
}

export interface GatewayDatabase {
  gateway_connections: ConnectionsTable;
  gateway_audit: AuditTable;
  gateway_usage_counters: UsageCountersTable;
  gateway_jobs: JobsTable;
  gateway_job_items: JobItemsTable;
}

export type SqlDialect = 'postgres' | 'sqlite';

const migrations = (dialect: SqlDialect): Record<string, Migration> => ({
  '2026-11-25-01-connections': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('gateway_connections')
        .addColumn('tenant', 'text', (c) => c.notNull())
        .addColumn('vendor', 'text', (c) => c.notNull())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('connected_at', 'text', (c) => c.notNull())
        .addColumn('refreshed_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('gateway_connections_pk', ['tenant', 'vendor', 'owner'])
        .execute();
    },
  },
  '2026-11-25-02-audit': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('gateway_audit')
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('tenant', 'text', (c) => c.notNull())
        .addColumn('principal', 'text', (c) => c.notNull())
        .addColumn('tool', 'text', (c) => c.notNull())
        .addColumn('vendor', 'text')
        .addColumn('targets', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('code', 'text')
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text')
        .execute();
      await db.schema.createIndex('gateway_audit_tenant_at').on('gateway_audit').columns(['tenant', 'at']).execute();
    },
  },
  '2026-11-28-01-audit-approver': {
    up: async (db: Kysely<unknown>) => {
      await db.schema.alterTable('gateway_audit').addColumn('approver', 'text').execute();
    },
  },
  // Issue 32: a replayed idempotent write is marked as one (and points at the call that ran).
  '2026-11-29-01-audit-replay': {
    up: async (db: Kysely<unknown>) => {
      await db.schema.alterTable('gateway_audit').addColumn('replay', 'integer').execute();
      await db.schema.alterTable('gateway_audit').addColumn('replay_of', 'text').execute();
    },
  },
  // Issue 32: usage per tenant and UTC day or month, in the database (sql-usage-store.ts).
  '2026-11-30-01-usage': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('gateway_usage_counters')
        .addColumn('tenant', 'text', (c) => c.notNull())
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('gateway_usage_counters_pk', ['tenant', 'period', 'name'])
        .execute();
      // The purge finds old days by period alone.
      await db.schema
        .createIndex('gateway_usage_counters_period')
        .on('gateway_usage_counters')
        .column('period')
        .execute();
    },
  },
  // Issue 40: long jobs and their items (sql-job-store.ts).
  '2026-11-30-02-jobs': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('gateway_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant', 'text', (c) => c.notNull())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('principal', 'text', (c) => c.notNull())
        .addColumn('tool', 'text', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('total', 'integer')
        .addColumn('done', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('trace', 'text')
        .addColumn('worker', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('outcome', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('gateway_jobs_status').on('gateway_jobs').columns(['status', 'created_at']).execute();
      await db.schema.createIndex('gateway_jobs_owner').on('gateway_jobs').columns(['tenant', 'owner']).execute();
      await db.schema.createIndex('gateway_jobs_expires').on('gateway_jobs').column('expires_at').execute();
      await db.schema
        .createTable('gateway_job_items')
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('idx', 'integer', (c) => c.notNull())
        .addColumn('settled', 'integer', (c) => c.notNull())
        .addColumn('success', 'integer')
        .addColumn('outcome', 'text')
        .addPrimaryKeyConstraint('gateway_job_items_pk', ['job_id', 'idx'])
        .execute();
    },
  },
});

/**
 * Brings the schema up to date. On PostgreSQL Kysely runs the pending migrations in one transaction
 * under an advisory lock, so instances that start together migrate once.
 */
export const migrate = async (db: Kysely<GatewayDatabase>, dialect: SqlDialect): Promise<void> => {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations(dialect)) },
    migrationTableName: 'gateway_migrations',
    migrationLockTableName: 'gateway_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`database migration ${failed ?? ''} failed: ${String(error)}`, { cause: error });
  }
};

/** Seconds a query may take before the store gives up (a stuck database must not hang a call). */
export const STATEMENT_TIMEOUT_MS = 5_000;

/** A quick round trip: is the database there? */
export const ping = async (db: Kysely<GatewayDatabase>): Promise<void> => {
  await sql`select 1`.execute(db);
};
