import type { GatewayError } from '../domain/shared/errors.js';

// Long jobs (issue 40): a tool call that outlasts the call deadline runs as a job. The job's rows (who
// started it, its arguments, its progress, each item's outcome) are kept in a JobStore that every
// instance shares. With Redis, a JobDispatcher (BullMQ) hands each job to one instance, keeps its lock and
// gives a job whose instance died to another; without Redis (one process), the engine takes jobs from the
// store itself under a lease (claim and renew below).

export type JobStatus = 'queued' | 'running' | 'cancelling' | 'completed' | 'failed' | 'cancelled';

export const FINISHED: ReadonlySet<JobStatus> = new Set(['completed', 'failed', 'cancelled']);

/** One job as stored. Times are ISO-8601 UTC text; JSON members are text. */
export interface JobRow {
  readonly id: string;
  readonly tenant: string;
  /** The principal's id: only it reads, lists and cancels the job. */
  readonly owner: string;
  /** The principal as JSON (id, name, tenant, permissions): the job runs with the caller's rights. */
  readonly principal: string;
  readonly tool: string;
  /** The decoded arguments, JSON. */
  readonly params: string;
  readonly status: JobStatus;
  /** Items in the job (N of "n of N"), once the job has counted them. */
  readonly total: number | null;
  readonly done: number;
  readonly failed: number;
  readonly request_id: string;
  /** The starting call's W3C trace context, JSON, when it had one. */
  readonly trace: string | null;
  readonly worker: string | null;
  readonly lease_until: string | null;
  /** How many times an instance took the job (more than 1: it was resumed). */
  readonly attempts: number;
  /** JSON: the result's summary, or the error the job ended with. */
  readonly outcome: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly finished_at: string | null;
  /** When the job and its results are deleted. */
  readonly expires_at: string;
}

export type NewJob = Pick<
  JobRow,
  'id' | 'tenant' | 'owner' | 'principal' | 'tool' | 'params' | 'request_id' | 'trace' | 'created_at' | 'expires_at'
>;

/** One item's outcome, as the tool's result lists it (a batch's BatchItem). */
export interface ItemOutcome {
  readonly index: number;
  readonly success: boolean;
}

/** An item's state: started (its write may or may not have happened) or settled with its outcome. */
export type ItemState = { readonly state: 'started' } | { readonly state: 'settled'; readonly outcome: ItemOutcome };

export interface JobStore {
  create(job: NewJob): Promise<void>;
  get(id: string): Promise<JobRow | undefined>;
  /** The owner's jobs, newest first. */
  list(tenant: string, owner: string, limit: number): Promise<JobRow[]>;
  /** Jobs of the tenant not finished (queued, running or cancelling). */
  active(tenant: string): Promise<number>;
  /**
   * Takes one job to run: a queued one, or one whose lease ran out (its instance stopped), never one of a
   * tenant already running `perTenant` jobs (counted and taken in one step, as take does); the least busy
   * tenant first. Undefined when there is none.
   */
  claim(worker: string, now: Date, leaseMs: number, perTenant: number): Promise<JobRow | undefined>;
  /**
   * Records that `worker` runs the job the dispatcher handed it (queued becomes running, attempts + 1);
   * `busy` when the job is queued and its tenant already runs `perTenant` jobs (a job already running, being
   * resumed, is taken whatever the count); undefined when the job has ended (or does not exist). The count
   * and the change are one step: two instances taking two jobs of a tenant at once cannot both pass the bound.
   */
  take(id: string, worker: string, now: Date, perTenant: number): Promise<JobRow | 'busy' | undefined>;
  /** How many jobs, over every tenant, are not finished (queued, running or cancelling): jobs to resume. */
  unfinished(): Promise<number>;
  /**
   * Ids of jobs a dispatcher may have lost: queued ones created before `queuedBefore`, and running ones whose
   * lease ran out by `now` (oldest first, at most `limit`).
   */
  strayed(queuedBefore: Date, now: Date, limit: number): Promise<string[]>;
  /**
   * Extends the lease and answers the job's status (`cancelling` once cancel was asked); undefined when
   * another instance took the job or it ended (this one must stop).
   */
  renew(id: string, worker: string, until: Date): Promise<JobStatus | undefined>;
  setTotal(id: string, total: number): Promise<void>;
  /** Marks items started, before their writes. */
  start(id: string, indexes: readonly number[]): Promise<void>;
  /** Records items' outcomes, in one transaction (each once: a second settle of an item changes nothing). */
  settle(id: string, outcomes: readonly ItemOutcome[]): Promise<void>;
  /** Every item's state (to resume). */
  states(id: string): Promise<Map<number, ItemState>>;
  /** Settled outcomes in index order, from `offset`. */
  outcomes(id: string, offset: number, limit: number, failedOnly: boolean): Promise<ItemOutcome[]>;
  /** Ends the job (only while `worker` holds it; false otherwise); it is kept until `expiresAt`. */
  finish(id: string, worker: string, status: JobStatus, outcome: string, at: Date, expiresAt: Date): Promise<boolean>;
  /** Asks a job to stop: a queued one is cancelled at once (kept until `expiresAt`), a running one after its work in flight. */
  cancel(id: string, at: Date, expiresAt: Date): Promise<JobRow | undefined>;
  /** Deletes jobs past their expiry (a bounded number a time); how many. */
  purge(now: Date, limit: number): Promise<number>;
}

export const JobStore = Symbol.for('JobStore');

/** What an instance answers for a job handed to it: ran it, give it back for a while, or stopped mid-job. */
export type JobTake = (id: string) => Promise<'done' | 'later' | 'dropped'>;

/**
 * A durable queue every instance shares (BullMQ on Redis): one entry per job, handed to one instance at a
 * time, its lock kept while the instance runs it; an instance that stops keeping it (died) loses the job
 * to another.
 */
export interface JobDispatcher {
  add(id: string): Promise<void>;
  /** Starts handing this instance jobs. */
  start(take: JobTake): void;
  /** Stops at once, as a dead process would: no more locks renewed, nothing more taken. */
  halt(): void;
  close(): Promise<void>;
}

/**
 * What a use case with many items is given when it runs as a job: it counts the items, asks whether
 * an item was already done (a resumed job), marks each before and after its write, waits out a vendor's
 * quota instead of failing, and stops between items when the job is cancelled.
 */
export interface ItemLedger {
  /** The idempotency mark of an item (job id and index), for a vendor write keyed by it. */
  key(index: number): string;
  total(count: number): Promise<void>;
  /** The item's earlier state on a resumed job (undefined: never started). */
  previous(index: number): ItemState | undefined;
  start(indexes: readonly number[]): Promise<void>;
  /** Records a chunk's outcomes once its writes are done. */
  settle(outcomes: readonly ItemOutcome[]): Promise<void>;
  /** True once the job is cancelled or this instance lost it: take no more items. */
  stopped(): boolean;
  /**
   * A write failed: when it is the vendor's quota (or another wait-and-retry failure), waits for it and
   * answers true (write again); false to record the failure.
   */
  pace(error: GatewayError): Promise<boolean>;
}
