import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { JobEngine, type JobEngineOptions } from '../application/jobs/job-engine.js';
import type { AuditPolicy } from '../application/runtime/executor-types.js';
import type { ToolExecutor } from '../application/runtime/executor.js';
import { SqlJobStore } from '../adapters/outbound/persistence/sql-job-store.js';
import { BullJobQueue } from '../adapters/outbound/redis/bullmq-job-queue.js';
import type { ConnectionStorage, StorageSettings } from '../adapters/outbound/persistence/connection-storage.js';
import type { CallObserver } from '../ports/call-observer.js';
import type { Clock } from '../ports/clock.js';

// Long jobs (issue 40): the engine on the gateway's own database: PostgreSQL shared by every instance when
// DATABASE_URL is set, else the embedded SQLite file in the data dir (one instance; a restart resumes its
// jobs). With REDIS_URL, BullMQ dispatches the jobs (a queue under REDIS_KEY_PREFIX + 'tg:bull'), keeps
// each running job's lock and hands a job whose instance died to another; without it, the engine takes
// jobs from the database under its own lease. BullMQ is used only when DATABASE_URL is set too: the embedded
// SQLite file is one instance's, and a job handed to another instance would find no rows there. Start-up
// does no job work at all: the engine starts once the server listens (resume, called by main.ts), or on the
// first job.

export { mountJobRoutes } from '../adapters/inbound/http/job-routes.js';
export type { JobEngine, JobEngineOptions } from '../application/jobs/job-engine.js';

export interface JobWiring {
  readonly storage: ConnectionStorage;
  readonly config: {
    readonly storage: StorageSettings;
    readonly redisUrl?: string;
    readonly redisKeyPrefix?: string;
  };
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
  const jobs = w.options.jobs ?? {};
  const onError = (error: unknown, job?: string) => w.logger.error({ err: error, job }, 'job engine fault');
  const { databaseUrl, dataDir } = w.config.storage;
  // Only with a database every instance shares: BullMQ may hand a job to any instance, which reads its rows.
  const url = databaseUrl ? w.config.redisUrl : undefined;
  const queue = url
    ? new BullJobQueue({
        url,
        prefix: `${w.config.redisKeyPrefix ?? ''}tg:bull`,
        concurrency: jobs.concurrency ?? 4,
        lockMs: jobs.leaseMs ?? 30_000,
        onError,
      })
    : undefined;
  const engine = new JobEngine({
    store,
    registry: w.executor.registry,
    resolve: w.executor.resolve,
    clock: w.clock,
    observer: w.observer,
    audit: w.audit,
    onPace: (seconds, job) => w.logger.info({ job, seconds }, 'job waits for the vendor quota'),
    onError,
    queue,
    // Nothing at start-up: main.ts calls resume() once the server listens. A shared database: run jobs from
    // then on (any instance may be handed one). The embedded file, if it exists: look once for jobs left
    // unfinished by the last run (this opens the file, which one process holds: a second process on the same
    // data dir is not supported, and says so once). No file: nothing until the first job.
    atListen: () => (databaseUrl ? 'start' : existsSync(join(dataDir, 'gateway.sqlite')) ? 'look' : 'none'),
    ...jobs,
  });
  return engine;
};
