import { setTimeout as sleep } from 'node:timers/promises';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { LRUCache } from 'lru-cache';
import { FINISHED, type JobRow } from '../../../ports/job-queue.js';

// 2025-11-25 tasks/result (issue 40): "When a receiver receives a tasks/result request for a task in any other
// non-terminal status (working or input_required), it MUST block the response until the task reaches a
// terminal status." So it blocks: until the task ends, the client goes away, or the task is gone. What
// keeps a hostile caller from holding the instance is the number of waits, not their length: a caller may
// hold PER_CALLER at once and the process MAX; past either, the request is refused at once and says to poll
// tasks/get. While it waits, the answer is a stream (legacy-leg.ts) and carries `notifications/tasks/status`
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
}

export const DEFAULT_RESULT_WAIT_LIMITS: ResultWaitLimits = { perCaller: 4, max: 500 };

/** How often a waiting tasks/result looks at its task (one row read). */
export const RESULT_LOOK_MS = 1_000;

/** The longest a task lives (a queued job's expiry, 7 days) and a bit: no wait is counted longer than this. */
const WAIT_ENTRY_TTL_MS = 8 * 24 * 3_600_000;

/** The tasks/result waits open on this instance, counted per caller: bounded in count and, as a backstop, time. */
export class ResultWaits {
  readonly #perCaller: LRUCache<string, number>;
  #open = 0;

  constructor(readonly limits: ResultWaitLimits = DEFAULT_RESULT_WAIT_LIMITS) {
    this.#perCaller = new LRUCache<string, number>({ max: Math.max(1, limits.max), ttl: WAIT_ENTRY_TTL_MS });
  }

  /** How many are open now (for tests and metrics). */
  get open(): number {
    return this.#open;
  }

  /** A place for one wait of `caller`, released by the function returned; a ProtocolError when none is free. */
  take(caller: string): () => void {
    const held = this.#perCaller.get(caller) ?? 0;
    if (held >= this.limits.perCaller || this.#open >= this.limits.max)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        held >= this.limits.perCaller
          ? `${held} tasks/result requests of this caller are already waiting for their tasks (at most ${this.limits.perCaller} at once): poll tasks/get at the task's pollInterval, or ask tasks/result again when one of them has answered.`
          : `Too many tasks/result requests are waiting on this server (${this.limits.max}): poll tasks/get at the task's pollInterval, and ask tasks/result once it says the task has ended.`,
      );
    this.#perCaller.set(caller, held + 1);
    this.#open++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#open--;
      const left = (this.#perCaller.get(caller) ?? 1) - 1;
      if (left > 0) this.#perCaller.set(caller, left);
      else this.#perCaller.delete(caller);
    };
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
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The tasks/result request was cancelled.');
    }
    row = await find();
    if (stateOf(row) !== seen) {
      seen = stateOf(row);
      await changed(row);
    }
  }
  return row;
};
