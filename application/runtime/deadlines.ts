// The executor's time limits: one timer for every call in flight (see Deadlines).

import type { RegisteredTool } from './registry.js';
import { toolError, type ToolError } from './tool-error.js';

export interface Deadline {
  readonly at: number;
  readonly expire: () => void;
  done: boolean;
}

/**
 * The time limits of the calls in flight, on one timer. Every call of an executor has the same limit, so
 * deadlines come in the order the calls started: the earliest is the oldest call still running, and a
 * call that ends only marks its entry. The timer is armed for the oldest entry; when it fires, each entry
 * past its deadline expires and the timer is armed for the next one. With no call left it stays armed but
 * unreferenced (it keeps no process alive), and the next call only references it again: under load the
 * calls in flight often all end within one turn, and a timer cleared and made again each time cost as much
 * as one per call. (A setTimeout and clearTimeout per call cost about 1 µs of each call: two operations on
 * Node's timer lists.) A timer armed for an entry that ended fires early and is armed for the next one.
 * Should the clock step back, a call may time out late by the step.
 */
export class Deadlines {
  private queue: Deadline[] = [];
  /** The first entry that may still be running. */
  private head = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the timer keeps the process alive (only while a call is in flight). */
  private referenced = false;

  add(at: number, expire: () => void): Deadline {
    const entry: Deadline = { at, expire, done: false };
    this.queue.push(entry);
    if (this.timer === undefined) this.arm(at);
    else if (!this.referenced) {
      this.timer.ref();
      this.referenced = true;
    }
    return entry;
  }

  done(entry: Deadline): void {
    entry.done = true;
    this.skipDone();
  }

  private arm(at: number): void {
    this.timer = setTimeout(this.fire, Math.max(0, at - Date.now()));
    this.referenced = true;
  }

  /** Drops the finished entries at the front; with none left, the timer no longer holds the process. */
  private skipDone(): void {
    const { queue } = this;
    while (this.head < queue.length && queue[this.head]!.done) this.head++;
    if (this.head === queue.length) {
      this.queue = [];
      this.head = 0;
      if (this.timer !== undefined && this.referenced) {
        this.timer.unref();
        this.referenced = false;
      }
    } else if (this.head >= 1024 && this.head * 2 >= queue.length) {
      this.queue = queue.slice(this.head);
      this.head = 0;
    }
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.referenced = false;
    const now = Date.now();
    for (let entry = this.queue[this.head]; entry !== undefined; entry = this.queue[this.head]) {
      if (!entry.done) {
        if (entry.at > now) break;
        entry.done = true;
        entry.expire();
      }
      this.head++;
    }
    this.skipDone();
    if (this.head < this.queue.length && this.timer === undefined) this.arm(this.queue[this.head]!.at);
  };
}

/** The answer of a call past the time limit: a write may still happen, a read is safe to retry. */
export const timeoutError = (tool: RegisteredTool, limit: number): ToolError => {
  const write = tool.declaration.annotations.kind !== 'Read';
  return toolError(
    504,
    'TIMEOUT',
    `${tool.name} did not finish within ${Math.round(limit / 1000)} s.${write ? ' The change may still happen: check before retrying, or retry with the same Idempotency-Key.' : ' Retrying is safe.'}`,
    { timeout_ms: limit, retryable: !write },
  );
};
