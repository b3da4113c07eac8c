import type { GatewayError } from '../../domain/shared/errors.js';
import type { ItemLedger, ItemOutcome, ItemState, JobStore } from '../../ports/job-queue.js';

/** Longest a job waits for a vendor's quota at a time, and in all (one run), before its items fail instead. */
export const PACE_WAIT_MAX_S = 3_600;
export const PACE_JOB_MAX_S = 24 * 3_600;

/** What the ledger reads of its job's run: whether to stop, and how the run sleeps (tests pass their own). */
export interface LedgerRun {
  readonly stopped: () => boolean;
  /** Whether outcomes may still be written (false once this instance is halted: it has "died"). */
  readonly alive: () => boolean;
  readonly sleep: (ms: number) => Promise<void>;
  /** Told of each wait for a vendor's quota (seconds). */
  readonly onPace?: (seconds: number) => void;
}

/** How long a failure asks to wait before the same write is tried again, if it asks at all. */
export const waitOf = (error: GatewayError): number | undefined => {
  switch (error._tag) {
    case 'RateLimited':
    case 'Unavailable':
      return error.retryAfterSeconds;
    case 'UpstreamFailure':
      return error.retryable && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds : undefined;
    default:
      return undefined;
  }
};

/** A job's ItemLedger over the job store: the item marks are rows, read once when the job (re)starts. */
export class JobLedger implements ItemLedger {
  /** Seconds this run has waited for quotas, and the wait under way. */
  #waited = 0;
  #current: Promise<boolean> | undefined;

  constructor(
    private readonly store: JobStore,
    private readonly jobId: string,
    private readonly before: Map<number, ItemState>,
    private readonly run: LedgerRun,
  ) {}

  key(index: number): string {
    return `${this.jobId}.${index}`;
  }

  async total(count: number): Promise<void> {
    if (this.run.alive()) await this.store.setTotal(this.jobId, count);
  }

  previous(index: number): ItemState | undefined {
    return this.before.get(index);
  }

  async start(indexes: readonly number[]): Promise<void> {
    if (indexes.length > 0 && this.run.alive()) await this.store.start(this.jobId, indexes);
  }

  async settle(outcomes: readonly ItemOutcome[]): Promise<void> {
    if (this.run.alive()) await this.store.settle(this.jobId, outcomes);
  }

  stopped(): boolean {
    return this.run.stopped();
  }

  /**
   * Waits out a vendor's quota: the writes of a chunk that all hit it share one wait. Answers false (record
   * the failure) when the failure asks for no wait, or this run has waited PACE_JOB_MAX_S in all.
   */
  pace(error: GatewayError): Promise<boolean> {
    const wait = waitOf(error);
    if (wait === undefined) return Promise.resolve(false);
    this.#current ??= this.#wait(wait).finally(() => (this.#current = undefined));
    return this.#current;
  }

  async #wait(wait: number): Promise<boolean> {
    const seconds = Math.min(Math.max(wait, 1), PACE_WAIT_MAX_S);
    if (this.#waited + seconds > PACE_JOB_MAX_S) return false;
    this.#waited += seconds;
    this.run.onPace?.(seconds);
    // In steps of a second at most, so that a cancel is seen soon.
    for (let left = seconds * 1000; left > 0 && !this.run.stopped(); left -= 1000)
      await this.run.sleep(Math.min(1000, left));
    return !this.run.stopped();
  }
}
