import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { JobEngine, type JobEngineOptions } from '../../../application/jobs/job-engine.js';
import { BatchCreateRecords } from '../../../application/records/batch-records.js';
import { BatchOutcomes } from '../../../application/records/batch-results.js';
import type { AuditPolicy } from '../../../application/runtime/executor-types.js';
import { ToolRegistry } from '../../../application/runtime/registry.js';
import { allTools } from '../../../application/tools.js';
import type { App } from '../../../domain/records/app.js';
import type { ValidatedFields } from '../../../domain/records/field-input.js';
import type { WriteFlags } from '../../../domain/records/revision.js';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../../domain/shared/fp.js';
import { seedDemoRecords } from '../../../adapters/outbound/memory/demo/records.js';
import { InMemoryPodioAccount } from '../../../adapters/outbound/memory/in-memory-podio-account.js';
import { InMemoryRecords } from '../../../adapters/outbound/memory/in-memory-records.js';
import { InMemorySharedCache } from '../../../adapters/outbound/memory/in-memory-shared-cache.js';
import { openEmbedded, openPostgres } from '../../../adapters/outbound/persistence/databases.js';
import type { GatewayDatabase } from '../../../adapters/outbound/persistence/schema.js';
import { SqlJobStore } from '../../../adapters/outbound/persistence/sql-job-store.js';
import { SystemClock } from '../../../adapters/outbound/system-clock.js';
import type { AuditEntry } from '../../../ports/audit-log.js';
import type { Principal } from '../../../ports/authenticator.js';
import type { RecordRef } from '../../../ports/record-store.js';
import type { UrlFetcher } from '../../../ports/url-fetcher.js';

// A world for the job engine's tests: the real batch use case over the memory record store, whose keyed
// creates a test can hold, fail or count; the job rows in the embedded SQLite file or a PostgreSQL.

/** The memory record store with a hook before each keyed create, and a count of creates per mark. */
export class WatchedRecords extends InMemoryRecords {
  readonly created = new Map<string, number>();
  before: (key: string) => Promise<GatewayError | undefined> = () => Promise.resolve(undefined);

  override createKeyed(
    app: App,
    fields: ValidatedFields,
    flags: WriteFlags,
    key: string,
  ): TaskEither<GatewayError, RecordRef> {
    return async () => {
      const refused = await this.before(key);
      if (refused) return { _tag: 'Left', left: refused };
      const made = await super.createKeyed(app, fields, flags, key)();
      if (made._tag === 'Right') this.created.set(key, (this.created.get(key) ?? 0) + 1);
      return made;
    };
  }
}

export const LEADS = 3001;
export const inputs = (n: number) => Array.from({ length: n }, (_, i) => ({ fields: { name: `Job lead ${i}` } }));
export const someone = (tenant: string): Principal => ({
  id: `key:${tenant}-bot`,
  name: `${tenant}-bot`,
  permissions: new Set(['*']),
  tenant,
});

export const openBackend = async (kind: 'sqlite' | 'postgres', url?: string): Promise<Kysely<GatewayDatabase>> =>
  (kind === 'sqlite' ? await openEmbedded(mkdtempSync(join(tmpdir(), 'jobs-test-'))) : await openPostgres(url!)).db;

export const jobWorld = (db: Kysely<GatewayDatabase>) => {
  const records = new WatchedRecords({ clock: new SystemClock(), account: InMemoryPodioAccount.withDemoData() });
  seedDemoRecords(records);
  const useCase = new BatchCreateRecords(
    records,
    records,
    {} as UrlFetcher,
    new BatchOutcomes(new InMemorySharedCache()),
  );
  const registry = new ToolRegistry(allTools);
  const store = new SqlJobStore(() => Promise.resolve(db));
  const audited: AuditEntry[] = [];
  const audit: AuditPolicy = { record: (e) => Promise.resolve(void audited.push(e)), vendorOf: () => 'memory' };
  const errors: unknown[] = [];
  const engines: JobEngine[] = [];
  const engine = (options: Partial<JobEngineOptions> = {}) => {
    const e = new JobEngine({
      store,
      registry,
      resolve: () => useCase,
      clock: new SystemClock(),
      audit,
      leaseMs: 300,
      pollMs: 20,
      onError: (error) => errors.push(error),
      ...options,
    });
    engines.push(e);
    return e;
  };
  const submit = async (e: JobEngine, principal: Principal, n: number) => {
    const row = await e.submit({
      tool: registry.get('records_batchCreateRecords')!,
      params: { app_id: LEADS, inputs: inputs(n) },
      principal,
      requestId: `req-${Math.random()}`,
    });
    if ('code' in row) throw new Error(row.message);
    return row;
  };
  /** Polls the job's row until `done` holds (bounded: a job that never gets there fails the test). */
  const until = async (id: string, done: (status: string) => boolean) => {
    for (let i = 0; i < 1_000; i++) {
      const row = await store.get(id);
      if (row && done(row.status)) return row;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`job ${id} never got there`);
  };
  const close = async () => Promise.all(engines.map((e) => e.close(1_000)));
  return { records, store, registry, audited, errors, engine, submit, until, close, TE };
};
