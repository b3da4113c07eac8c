import { setTimeout as sleep } from 'node:timers/promises';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { LRUCache } from 'lru-cache';
import { FINISHED, type JobRow } from '../../../ports/job-queue.js';

// 2025-11-25 tasks/result (issue 40): "When a receiver receives a tasks/result request for a task in any other
// non-terminal status (working or input_required), it MUST block the response until the task reaches a
// terminal status." So it blocks: until the task ends, the client goes away, or the task is gone. What
// keeps a hostile caller from holding the instance is the number of waits, not their length: a caller holds
// at most 4 at once (its newest takes the place of its oldest, which is answered with an error saying so), a
// tenant's callers together 50, and the process 500 (past that a request is refused at once and told to poll tasks/get). While it waits, the answer is a stream (legacy-leg.ts) and carries `notifications/tasks/status`
// each time the task's status or progress changes (the spec's "MAY send"; the notification has no
// related-task metadata, as the spec says it SHOULD NOT).
//
// The 2026-07-28 Tasks extension (SEP-2663) has no tasks/result and no notifications/tasks/status: its
// `notifications/tasks` is delivered only on a `subscriptions/listen` stream the client opens for task ids,
// which this stateless server does not serve; a 2026-07-28 client polls tasks/get.

export interface ResultWaitLimits {
  /** Most tasks/result requests one caller (tenant and principal) holds open at once on this instance. */
  readonly perCaller: number;
  /** Most held open at once on this instance, every caller together. */
  readonly max: number;
  /** Most one tenant's callers hold open at once on this instance (default: a tenth of `max`). */
  readonly perTenant?: number;
}

export const DEFAULT_RESULT_WAIT_LIMITS: ResultWaitLimits = { perCaller: 4, max: 500 };

/** How often a waiting tasks/result looks at its task (one row read). */
export const RESULT_LOOK_MS = 1_000;

/** The longest a task lives (a queued job's expiry, 7 days) and a bit: no wait is counted longer than this. */
const WAIT_ENTRY_TTL_MS = 8 * 24 * 3_600_000;

/** The sentence an evicted wait is answered with. */
export const takenOver = (perCaller: number): string =>
  `Another tasks/result request of this caller took the place of this one (a caller has at most ${perCaller} waiting at once, the newest kept): ask tasks/result again, or poll tasks/get.`;

interface Wait {
  readonly tenant: string;
  /** Ends the wait (its request is then answered with takenOver). */
  readonly evict: () => void;
  released: boolean;
}

/**
 * The tasks/result waits open on this instance, per caller: at most `perCaller` each and `max` in all, and a
 * backstop TTL. A caller's newest wait takes the place of its oldest when it has `perCaller` already: a
 * client that timed out a wait and asks again (the SDK v1 client's request timeout ends a request on its
 * side only, leaving its stream open, so the server cannot tell) is never locked out, and still holds no more
 * than `perCaller`. A wait past `max` is refused at once.
 */
export class ResultWaits {
  readonly #perCaller: LRUCache<string, Wait[]>;
  /** Open waits per tenant (an entry only while it has some, so at most `max` entries). */
  readonly #perTenant = new Map<string, number>();
  readonly #tenantLimit: number;
  #open = 0;

  constructor(readonly limits: ResultWaitLimits = DEFAULT_RESULT_WAIT_LIMITS) {
    this.#perCaller = new LRUCache<string, Wait[]>({ max: Math.max(1, limits.max), ttl: WAIT_ENTRY_TTL_MS });
    this.#tenantLimit = Math.max(limits.perCaller, limits.perTenant ?? Math.floor(limits.max / 10));
  }

  /** How many are open now (for tests and metrics). */
  get open(): number {
    return this.#open;
  }

  /**
   * A place for one wait of `caller`, released by the function returned; `evict` is called if a newer wait of
   * the same caller takes this place. A ProtocolError when the instance holds `max`.
   */
  take(tenant: string, caller: string, evict: () => void): () => void {
    const key = `${tenant}\u0000${caller}`;
    const held = this.#perCaller.get(key) ?? [];
    if (held.length >= this.limits.perCaller) {
      const oldest = held.shift()!;
      this.#end(oldest);
      oldest.evict();
    } else if (this.#open >= this.limits.max || (this.#perTenant.get(tenant) ?? 0) >= this.#tenantLimit)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        this.#open >= this.limits.max
          ? `Too many tasks/result requests are waiting on this server (${this.limits.max}): poll tasks/get at the task's pollInterval, and ask tasks/result once it says the task has ended.`
          : `Too many tasks/result requests of this workspace are waiting on this server (${this.#tenantLimit}): poll tasks/get at the task's pollInterval, and ask tasks/result once it says the task has ended.`,
      );
    const wait: Wait = { tenant, evict, released: false };
    this.#perCaller.set(key, [...held, wait]);
    this.#open++;
    this.#perTenant.set(tenant, (this.#perTenant.get(tenant) ?? 0) + 1);
    return () => {
      if (wait.released) return;
      this.#end(wait);
      const left = (this.#perCaller.get(key) ?? []).filter((w) => w !== wait);
      if (left.length > 0) this.#perCaller.set(key, left);
      else this.#perCaller.delete(key);
    };
  }

  #end(wait: Wait): void {
    if (wait.released) return;
    wait.released = true;
    this.#open--;
    const left = (this.#perTenant.get(wait.tenant) ?? 1) - 1;
    if (left > 0) this.#perTenant.set(wait.tenant, left);
    else this.#perTenant.delete(wait.tenant);
  }
}

/** What a status notification tells: the status and the progress (the Task's statusMessage). */
const stateOf = (row: JobRow) => `${row.status}|${row.done}|${row.failed}|${row.total ?? ''}`;

/**
 * Waits for the task to end: reads its row every `lookMs`, calls `changed` with each new state it sees (not
 * the first), and answers the ended row. Throws when the task is gone (`find` throws) or `signal` aborts.
 */
export const waitForEnd = async (
  find: () => Promise<JobRow>,
  signal: AbortSignal,
  changed: (row: JobRow) => Promise<void>,
  lookMs = RESULT_LOOK_MS,
): Promise<JobRow> => {
  let row = await find();
  let seen = stateOf(row);
  while (!FINISHED.has(row.status)) {
    try {
      await sleep(lookMs, undefined, { signal });
    } catch {
      const why: unknown = signal.reason;
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        typeof why === 'string' ? why : 'The tasks/result request was cancelled.',
      );
    }
    row = await find();
    if (stateOf(row) !== seen) {
      seen = stateOf(row);
      await changed(row);
    }
  }
  return row;
};
