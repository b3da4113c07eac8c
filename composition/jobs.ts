import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { JobEngine, type JobEngineOptions } from '../application/jobs/job-engine.js';
import type { AuditPolicy } from '../application/runtime/executor-types.js';
import type { ToolExecutor } from '../application/runtime/executor.js';
import { SqlJobStore } from '../adapters/outbound/persistence/sql-job-store.js';
import type { ConnectionStorage, StorageSettings } from '../adapters/outbound/persistence/connection-storage.js';
import type { CallObserver } from '../ports/call-observer.js';
import type { Clock } from '../ports/clock.js';

// Long jobs (issue 40): the engine on the gateway's own database: PostgreSQL shared by every instance when
// DATABASE_URL is set, else the embedded SQLite file in the data dir (one instance; a restart resumes its
// jobs). Memory-mode start-up touches no disk: the engine starts looking for jobs at start only when there
// is a database to share or an embedded file already there, and otherwise on the first job.

export { mountJobRoutes } from '../adapters/inbound/http/job-routes.js';
export type { JobEngine, JobEngineOptions } from '../application/jobs/job-engine.js';

export interface JobWiring {
  readonly storage: ConnectionStorage;
  readonly config: { readonly storage: StorageSettings };
  /** The executor every surface shares: its registry and use case resolver. */
  readonly executor: ToolExecutor;
  readonly clock: Clock;
  readonly observer?: CallObserver;
  readonly audit?: AuditPolicy;
  readonly logger: Logger;
  /** Test and benchmark settings (lease, poll, bounds): createGateway's `jobs` option. */
  readonly options: { readonly jobs?: Partial<JobEngineOptions> };
}

export const jobEngineFor = (w: JobWiring): JobEngine => {
  const store = new SqlJobStore(async () => (await w.storage.database()).db);
  const engine = new JobEngine({
    store,
    registry: w.executor.registry,
    resolve: w.executor.resolve,
    clock: w.clock,
    observer: w.observer,
    audit: w.audit,
    onPace: (seconds, job) => w.logger.info({ job, seconds }, 'job waits for the vendor quota'),
    onError: (error, job) => w.logger.error({ err: error, job }, 'job engine fault'),
    ...w.options.jobs,
  });
  const { databaseUrl, dataDir } = w.config.storage;
  if (databaseUrl || existsSync(join(dataDir, 'gateway.sqlite'))) engine.start();
  return engine;
};
