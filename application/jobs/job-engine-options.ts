import type { CallObserver } from '../../ports/call-observer.js';
import type { Clock } from '../../ports/clock.js';
import type { JobDispatcher, JobStore } from '../../ports/job-queue.js';
import type { AuditPolicy, UseCaseResolver } from '../runtime/executor-types.js';
import type { ToolRegistry } from '../runtime/registry.js';

/** The job engine's settings (job-engine.ts); the bounds' defaults are in the comments. */
export interface JobEngineOptions {
  readonly store: JobStore;
  readonly registry: ToolRegistry;
  readonly resolve: UseCaseResolver;
  readonly clock: Clock;
  readonly observer?: CallObserver;
  readonly audit?: AuditPolicy;
  /** This instance's name in the job rows (default: random). */
  readonly worker?: string;
  /** Jobs this instance runs at once (default 4). */
  readonly concurrency?: number;
  /** Jobs of one tenant running at once over all instances (default 2). */
  readonly perTenantRunning?: number;
  /** Jobs of one tenant not finished (queued or running) before a new one is refused (default 20). */
  readonly perTenantActive?: number;
  /** How long a lease lasts unless renewed (default 30 s; renewed every third of it). */
  readonly leaseMs?: number;
  /** How often an idle instance looks for jobs (default 1 s). */
  readonly pollMs?: number;
  /** How long a finished job and its results are kept (default 24 hours). */
  readonly resultTtlSeconds?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly onPace?: (seconds: number, job: string) => void;
  readonly onError?: (error: unknown, job?: string) => void;
  /** BullMQ (when REDIS_URL is set): dispatch, locks and stalled-job recovery; else the store's lease. */
  readonly queue?: JobDispatcher;
  /**
   * With a dispatcher: how long a job may stay queued before it is handed to the dispatcher again (default
   * 60 s). Adding a job the dispatcher still holds changes nothing; one it lost (Redis restarted empty) is
   * queued again, so that no job waits for ever.
   */
  readonly requeueMs?: number;
  /** What resume() does once the server listens (default `start`): see resume. */
  readonly atListen?: () => 'start' | 'look' | 'none';
}
