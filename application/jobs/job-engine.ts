import { randomBytes } from 'node:crypto';
import type { Principal } from '../../ports/authenticator.js';
import type { TraceCarrier } from '../../ports/call-observer.js';
import { FINISHED, type JobRow, type JobStatus, type JobStore } from '../../ports/job-queue.js';
import type { RegisteredTool } from '../runtime/registry.js';
import { fromGatewayError, toolError, type ToolError } from '../runtime/tool-error.js';
import type { JobEngineOptions } from './job-engine-options.js';
import { JobLedger } from './job-ledger.js';
import { outcomeOf, type JobOutcome } from './job-outcome.js';
import { JOB_TOOLS } from './job-tools.js';

// The job engine (issue 40): runs jobs kept in the shared JobStore, any instance any job. With a dispatcher
// (BullMQ on Redis: every multi-instance deployment), the dispatcher hands each job to one instance and
// keeps its lock; an instance that dies stops renewing it, and the dispatcher gives the job to another,
// which goes on from the items already settled. Without one (no Redis: a single process), the engine takes
// jobs from the store itself under a lease it renews (claim/renew), which a restart of that process resumes. Gates (permission, approval,
// confirm tokens) were passed when the job was submitted, through the executor; the job runs the use case.

export type { JobEngineOptions } from './job-engine-options.js';

export const JOB_RESULT_TTL_SECONDS = 24 * 3_600;
const JOB_ID = /^j[0-9a-f]{32}$/;
/** Most expired jobs deleted per purge (one purge a minute at most). */
const PURGE_LIMIT = 200;
/** Most queued jobs handed to the dispatcher again per round. */
const REQUEUE_LIMIT = 100;

export const isJobId = (id: string): boolean => JOB_ID.test(id);

const sleeper = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export class JobEngine {
  readonly worker: string;
  readonly #running = new Map<string, Promise<void>>();
  /** Jobs running here that a caller cancelled through this instance: they stop at their next chunk. */
  readonly #cancelledHere = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #halted = false;
  #polling = false;
  #lastPurge = 0;
  #lastRequeue = 0;

  constructor(private readonly o: JobEngineOptions) {
    this.worker = o.worker ?? `w${randomBytes(6).toString('hex')}`;
  }

  get store(): JobStore {
    return this.o.store;
  }

  get resultTtlSeconds(): number {
    return this.o.resultTtlSeconds ?? JOB_RESULT_TTL_SECONDS;
  }

  /** Queues a job for a call that passed every gate; a ToolError when the tenant has too many. */
  async submit(job: {
    readonly tool: RegisteredTool;
    readonly params: unknown;
    readonly principal: Principal;
    readonly requestId: string;
    readonly trace?: TraceCarrier;
  }): Promise<JobRow | ToolError> {
    const { principal } = job;
    const bound = this.o.perTenantActive ?? 20;
    if ((await this.o.store.active(principal.tenant)) >= bound)
      return toolError(
        429,
        'RATE_LIMITED',
        `This tenant already has ${bound} jobs queued or running, the most it may have. Wait for one to finish (GET /v1/jobs) or cancel one, then start this one again.`,
        { retry_after_seconds: 60, limit: bound },
      );
    const now = this.o.clock.now();
    const id = `j${randomBytes(16).toString('hex')}`;
    await this.o.store.create({
      id,
      tenant: principal.tenant,
      owner: principal.id,
      principal: JSON.stringify({ ...principal, permissions: [...principal.permissions] }),
      tool: job.tool.name,
      params: JSON.stringify(job.params ?? {}),
      request_id: job.requestId,
      trace: job.trace?.traceparent ? JSON.stringify(job.trace) : null,
      created_at: now.toISOString(),
      // Until it finishes (then its results are kept resultTtlSeconds); a week bounds a job never taken.
      expires_at: new Date(now.getTime() + 7 * 24 * 3_600_000).toISOString(),
    });
    if (this.o.queue) {
      const refused = await this.#enqueue(id);
      if (refused) return refused;
    }
    this.start();
    this.poke();
    return (await this.o.store.get(id))!;
  }

  /** Hands the job to the dispatcher; when it cannot (Redis away), the job ends failed and the call gets a 503. */
  async #enqueue(id: string): Promise<ToolError | undefined> {
    try {
      await this.o.queue!.add(id);
      return undefined;
    } catch (error) {
      this.o.onError?.(error, id);
      const failure = toolError(
        503,
        'UNAVAILABLE',
        'The job queue did not answer, so the job was not started. Try again in a few seconds.',
        {
          retryable: true,
          retry_after_seconds: 5,
        },
      );
      await this.o.store.take(id, this.worker, this.o.clock.now(), Number.MAX_SAFE_INTEGER);
      const at = this.o.clock.now();
      const expires = new Date(at.getTime() + this.resultTtlSeconds * 1000);
      await this.o.store.finish(id, this.worker, 'failed', JSON.stringify({ error: failure }), at, expires);
      return failure;
    }
  }

  /** The caller's own job, or undefined (another caller's job is not found either). */
  async find(id: string, caller: Principal): Promise<JobRow | undefined> {
    if (!isJobId(id)) return undefined;
    const row = await this.o.store.get(id);
    return row && row.tenant === caller.tenant && row.owner === caller.id ? row : undefined;
  }

  list(caller: Principal, limit: number): Promise<JobRow[]> {
    return this.o.store.list(caller.tenant, caller.id, limit);
  }

  async cancel(id: string, caller: Principal): Promise<JobRow | undefined> {
    const row = await this.find(id, caller);
    if (!row || FINISHED.has(row.status)) return row;
    const now = this.o.clock.now();
    const cancelled = await this.o.store.cancel(id, now, new Date(now.getTime() + this.resultTtlSeconds * 1000));
    // Running here: told at once, not at the next look at its row (other instances learn it from the row).
    if (cancelled && this.#running.has(id)) this.#cancelledHere.add(id);
    return cancelled;
  }

  /**
   * Once the server listens (composition/main.ts; an embedder serving `gateway.http` calls it too): never at
   * start-up, so that nothing opens the store before the server answers. With a store every instance shares
   * (`atListen` answers `start`), starts looking for jobs; with one of this instance's own that exists
   * (`look`), looks once and starts only if it holds jobs left unfinished (a restart resumes them); else
   * (`none`) waits for the first job. Never rejects: a store that cannot be read is reported (onError).
   */
  async resume(): Promise<void> {
    const mode = this.o.atListen?.() ?? 'start';
    if (mode === 'none' || this.#timer || this.#halted) return;
    try {
      if (mode === 'start' || (await this.o.store.unfinished()) > 0) this.start();
    } catch (error) {
      this.o.onError?.(error);
    }
  }

  /** Whether this instance looks for jobs (start, resume or a first job started it). */
  get started(): boolean {
    return this.#timer !== undefined;
  }

  /** Starts looking for jobs. */
  start(): void {
    if (this.#timer || this.#halted) return;
    this.o.queue?.start((id) => this.#take(id));
    this.#timer = setInterval(() => this.poke(), this.o.pollMs ?? 1_000);
    this.#timer.unref();
    this.poke();
  }

  /** Looks for jobs now (a job was submitted, or one finished and a worker is free). */
  poke(): void {
    if (!this.#timer || this.#halted || this.#polling) return;
    this.#polling = true;
    void this.#fill()
      .catch((error: unknown) => this.o.onError?.(error))
      .finally(() => (this.#polling = false));
  }

  /**
   * Stops as if the process had died: no new item, no outcome or end written. The leases run out and another
   * instance resumes the jobs (what the tests and the benchmark use to stand for a killed instance).
   */
  halt(): void {
    this.#halted = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.o.queue?.halt();
  }

  /** Shuts down: takes no new job, and waits (bounded) for the runs in flight to stop after their chunk. */
  async close(waitMs = 10_000): Promise<void> {
    this.halt();
    const runs = Promise.all(this.#running.values());
    await Promise.race([runs, sleeper(waitMs)]);
    await this.o.queue?.close();
  }

  /** Runs a job the dispatcher handed this instance (see JobTake). */
  async #take(id: string): Promise<'done' | 'later' | 'dropped'> {
    if (this.#halted) return 'dropped';
    let run = this.#running.get(id); // handed again while its run here goes on (a stalled event loop)
    if (!run) {
      const row = await this.o.store.get(id);
      if (!row || FINISHED.has(row.status)) return 'done';
      // A job not yet started waits while its tenant has perTenantRunning jobs running (a resumed one does not):
      // take counts and takes in one step, so two instances cannot both pass the bound.
      const job = await this.o.store.take(id, this.worker, this.o.clock.now(), this.o.perTenantRunning ?? 2);
      if (job === 'busy') return 'later';
      if (!job) return 'done';
      run = this.#run(job)
        .catch((error: unknown) => this.o.onError?.(error, id))
        .finally(() => this.#running.delete(id));
      this.#running.set(id, run);
    }
    await run;
    return this.#halted ? 'dropped' : 'done';
  }

  async #fill(): Promise<void> {
    const now = this.o.clock.now();
    if (now.getTime() - this.#lastPurge > 60_000) {
      this.#lastPurge = now.getTime();
      await this.o.store.purge(now, PURGE_LIMIT);
    }
    if (this.o.queue) return this.#requeue(now); // the dispatcher hands out the jobs
    while (!this.#halted && this.#running.size < (this.o.concurrency ?? 4)) {
      const job = await this.o.store.claim(
        this.worker,
        this.o.clock.now(),
        this.o.leaseMs ?? 30_000,
        this.o.perTenantRunning ?? 2,
      );
      if (!job) return;
      // Its lease ran out while its run here was still going (a stalled event loop): that run goes on.
      if (this.#running.has(job.id)) continue;
      const run = this.#run(job)
        .catch((error: unknown) => this.o.onError?.(error, job.id))
        .finally(() => {
          this.#running.delete(job.id);
          this.poke();
        });
      this.#running.set(job.id, run);
    }
  }

  /**
   * Hands the dispatcher again (at most once per requeueMs) the jobs queued for longer than requeueMs and the
   * running ones whose lease ran out: a no-op for a job the dispatcher still holds, and the way back for one
   * it lost (Redis restarted empty).
   */
  async #requeue(now: Date): Promise<void> {
    const every = this.o.requeueMs ?? 60_000;
    if (now.getTime() - this.#lastRequeue < every) return;
    this.#lastRequeue = now.getTime();
    const ids = await this.o.store.strayed(new Date(now.getTime() - every), now, REQUEUE_LIMIT);
    for (const id of ids) await this.o.queue!.add(id); // a failure (Redis still away) ends this round
  }

  async #run(job: JobRow): Promise<void> {
    const leaseMs = this.o.leaseMs ?? 30_000;
    let status: JobStatus | undefined = job.status;
    // The row's lease, renewed with a dispatcher too (and once before the work): its lock decides who runs
    // the job, and the lease tells requeue of a running job whose instance died after Redis lost its entry.
    const lease = () => this.o.store.renew(job.id, this.worker, new Date(this.o.clock.now().getTime() + leaseMs));
    if (this.o.queue) status = await lease();
    const renew = setInterval(
      () => {
        if (this.#halted) return;
        lease()
          .then((s) => (status = s))
          .catch((error: unknown) => this.o.onError?.(error, job.id));
      },
      // a third of the lease, and at most 2 s, so that a cancel is seen soon
      Math.max(10, Math.min(2_000, Math.floor(leaseMs / 3))),
    );
    renew.unref();
    try {
      const alive = () => !this.#halted;
      const stopped = () => this.#halted || status !== 'running' || this.#cancelledHere.has(job.id);
      const outcome = await this.#work(job, { alive, stopped });
      if (!alive()) return;
      const end: JobStatus = outcome.error
        ? 'failed'
        : status === 'running' && !this.#cancelledHere.has(job.id)
          ? 'completed'
          : 'cancelled';
      const at = this.o.clock.now();
      const ended = await this.o.store.finish(
        job.id,
        this.worker,
        end,
        JSON.stringify(outcome),
        at,
        new Date(at.getTime() + this.resultTtlSeconds * 1000),
      );
      if (ended) await this.#audit(job, end, outcome.error, at);
    } finally {
      clearInterval(renew);
      this.#cancelledHere.delete(job.id);
    }
  }

  async #work(job: JobRow, run: { alive: () => boolean; stopped: () => boolean }): Promise<JobOutcome> {
    const tool = this.o.registry.get(job.tool);
    if (!tool) return { error: toolError(500, 'INTERNAL_ERROR', `No tool ${job.tool} on this instance.`) };
    if (job.status === 'cancelling') return {};
    const decoded = tool.declaration.params.decode(JSON.parse(job.params));
    if (decoded._tag === 'Left')
      return { error: toolError(500, 'INTERNAL_ERROR', `The job's arguments no longer decode for ${job.tool}.`) };
    const before = await this.o.store.states(job.id);
    const itemised = JOB_TOOLS.get(tool.name)?.items === true;
    const { annotations } = tool.declaration;
    // A call without items that was under way when its instance died: run again only if that is safe.
    if (job.attempts > 1 && !itemised && annotations.kind !== 'Read' && !annotations.idempotent)
      return {
        error: toolError(
          409,
          'CONFLICT',
          `The instance running this ${job.tool} job stopped before it ended, and running it again could do it twice: check what was done before starting it again.`,
        ),
      };
    const principal = principalOf(job.principal);
    const ledger = new JobLedger(this.o.store, job.id, before, {
      ...run,
      sleep: this.o.sleep ?? sleeper,
      onPace: (s) => this.o.onPace?.(s, job.id),
    });
    const context = { principal, requestId: job.request_id, items: ledger };
    const execute = async () => {
      const r = await this.o.resolve(tool, principal).execute(decoded.right, context)();
      return r._tag === 'Left'
        ? { ok: false as const, error: fromGatewayError(r.left), outcome: { error: fromGatewayError(r.left) } }
        : { ok: true as const, outcome: outcomeOf(tool, decoded.right, r.right) };
    };
    const observed = this.o.observer
      ? await this.o.observer.observe(
          {
            tool: tool.name,
            group: tool.declaration.group,
            principal: principal.name,
            principalId: principal.id,
            tenant: principal.tenant,
            requestId: job.request_id,
            trace: job.trace ? (JSON.parse(job.trace) as TraceCarrier) : undefined,
          },
          execute,
        )
      : await execute();
    return observed.outcome;
  }

  async #audit(job: JobRow, end: JobStatus, error: ToolError | undefined, at: Date): Promise<void> {
    const audit = this.o.audit;
    const tool = this.o.registry.get(job.tool);
    if (!audit || !tool || tool.declaration.annotations.kind === 'Read') return;
    await audit.record({
      at,
      tenant: job.tenant,
      principal: job.owner,
      tool: tool.name,
      vendor: audit.vendorOf(tool.declaration.group, job.tenant),
      targets: [`job:${job.id}`, `job-${end}`],
      status: error?.status ?? 200,
      ...(error ? { code: error.code } : {}),
      requestId: job.request_id,
    });
  }
}

const principalOf = (json: string): Principal => {
  const p = JSON.parse(json) as Omit<Principal, 'permissions'> & { permissions: string[] };
  return { ...p, permissions: new Set(p.permissions) };
};
