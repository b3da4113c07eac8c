import type { Job, Queue, Worker } from 'bullmq';
import type { JobDispatcher, JobTake } from '../../../ports/job-queue.js';

// The jobs' dispatch on BullMQ (issue 40), when REDIS_URL is set: one BullMQ job per gateway job (its id is
// the gateway job's id, so adding it twice adds it once). BullMQ hands each job to one instance's Worker,
// renews that Worker's lock while the job runs, and moves a job whose lock ran out (its instance died or
// stalled) back to the wait list, where another instance takes it. The gateway's SQL rows keep the rest:
// the job's status and progress, each item's mark and outcome, the result.

export interface BullJobQueueOptions {
  readonly url: string;
  /** BullMQ's key prefix: REDIS_KEY_PREFIX followed by `tg:bull` (keys `<prefix>:jobs:*`). */
  readonly prefix: string;
  /** Jobs this instance runs at once. */
  readonly concurrency: number;
  /** How long a Worker's lock lasts unless renewed (renewed every half of it), and how often stalled jobs are looked for. */
  readonly lockMs: number;
  /** How long a job put back (its tenant is at its bound) waits before it is offered again. */
  readonly laterMs?: number;
  readonly onError: (error: unknown, job?: string) => void;
}

const NAME = 'jobs';
/** Longest an add waits for Redis. */
const ADD_WAIT_MS = 5_000;
/** A job whose lock runs out this many times is failed by BullMQ; the gateway wants it resumed instead. */
const STALLS = 1_000;

// BullMQ is loaded only when Redis is configured (start-up time: bench/startup.ts).
const bullmq = () => import('bullmq');

export class BullJobQueue implements JobDispatcher {
  #queue: Promise<Queue> | undefined;
  #worker: Promise<Worker | undefined> | undefined;
  #halted = false;

  constructor(private readonly o: BullJobQueueOptions) {}

  #opened(): Promise<Queue> {
    this.#queue ??= bullmq().then(({ Queue }) => {
      // No offline queue: while Redis is away an add fails at once (the caller answers a retryable 503)
      // instead of waiting for a reconnection that may not come.
      const queue = new Queue(NAME, {
        connection: { url: this.o.url, enableOfflineQueue: false },
        prefix: this.o.prefix,
      });
      queue.on('error', (error) => this.o.onError(error));
      return queue;
    });
    return this.#queue;
  }

  /**
   * Adds the job, or rejects within ADD_WAIT_MS (Redis away: at first use BullMQ waits for a connection that
   * may never come). An add that lands after that finds the job's row failed, and the job is not run.
   */
  async add(id: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the job queue did not answer within ${ADD_WAIT_MS} ms`)), ADD_WAIT_MS);
    });
    const adding = this.#add(id);
    adding.catch(() => undefined); // rejected after the wait: already answered
    try {
      await Promise.race([adding, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #add(id: string): Promise<void> {
    // Nothing is kept in Redis once a job ends: its result is in the SQL rows.
    // A take that fails (the database away) is tried again a few times, a few seconds apart.
    const queue = await this.#opened();
    await queue.add(
      'job',
      { id },
      {
        jobId: id,
        removeOnComplete: true,
        removeOnFail: true,
        attempts: 8,
        backoff: { type: 'exponential', delay: 1_000 },
      },
    );
  }

  start(take: JobTake): void {
    if (this.#worker || this.#halted) return;
    this.#worker = bullmq()
      .then((lib) => (this.#halted ? undefined : this.#newWorker(lib, take)))
      .catch((error: unknown) => {
        this.o.onError(error);
        return undefined;
      });
  }

  #newWorker({ Worker, DelayedError }: Awaited<ReturnType<typeof bullmq>>, take: JobTake): Worker {
    const worker = new Worker(
      NAME,
      async (job: Job<{ id: string }>, token?: string) => {
        const taken = await take(job.data.id);
        if (taken === 'later') {
          await job.moveToDelayed(Date.now() + (this.o.laterMs ?? 1_000), token);
          throw new DelayedError();
        }
        // This instance stopped mid-job (shut down, or halted: "died"): the job must not be marked done in
        // Redis. Its run never answers; the Worker, closed, no longer renews the lock, and once the lock runs
        // out another instance's Worker finds the job stalled and takes it.
        if (taken === 'dropped') await new Promise<never>(() => undefined);
      },
      {
        connection: { url: this.o.url, maxRetriesPerRequest: null },
        prefix: this.o.prefix,
        concurrency: this.o.concurrency,
        lockDuration: this.o.lockMs,
        stalledInterval: this.o.lockMs,
        maxStalledCount: STALLS,
      },
    );
    worker.on('error', (error) => this.o.onError(error));
    worker.on('failed', (job, error) => this.o.onError(error, (job?.data as { id?: string } | undefined)?.id));
    return worker;
  }

  halt(): void {
    // As if the process died: the Worker stops renewing its locks and takes nothing more.
    this.#halted = true;
    void this.#worker?.then((worker) => worker?.close(true)).catch((error: unknown) => this.o.onError(error));
  }

  /** After the engine's runs stopped: jobs still active here stay so in Redis, to be resumed elsewhere. */
  async close(): Promise<void> {
    this.#halted = true;
    await (await this.#worker)?.close(true);
    await (await this.#queue)?.close();
  }
}
