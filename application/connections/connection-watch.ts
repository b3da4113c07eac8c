import type { Vendor } from '../../ports/connection-store.js';

// A call that asked its person to connect a vendor (issue 43: URL elicitation) waits here until a connection
// of the caller's tenant to that vendor changes: on this instance (the connect callback), or on another one
// whose change was announced (Redis). The waiter then tries its call again; a change that did not help it
// (another person's connection) only costs that one try.

/** The most calls that may wait for a connection at once on one instance. */
export const MAX_CONNECTION_WAITERS = 1000;

export class ConnectionWatch {
  readonly #waiters = new Map<string, Set<() => void>>();
  #count = 0;

  constructor(private readonly max = MAX_CONNECTION_WAITERS) {}

  /**
   * Resolves true when a connection of `tenant` to `vendor` changes within `ms`, false when the time runs
   * out, the signal aborts, or too many calls wait already (then the caller simply tries again later).
   */
  changeOf(tenant: string, vendor: Vendor, ms: number, signal?: AbortSignal): Promise<boolean> {
    if (this.#count >= this.max || signal?.aborted) return Promise.resolve(false);
    const key = `${tenant}\u0000${vendor}`;
    return new Promise<boolean>((resolve) => {
      let set = this.#waiters.get(key);
      if (!set) this.#waiters.set(key, (set = new Set()));
      const waiters = set;
      const done = (changed: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        if (waiters.delete(wake)) this.#count--;
        if (waiters.size === 0 && this.#waiters.get(key) === waiters) this.#waiters.delete(key);
        resolve(changed);
      };
      const wake = () => done(true);
      const aborted = () => done(false);
      const timer = setTimeout(() => done(false), Math.max(0, ms));
      signal?.addEventListener('abort', aborted, { once: true });
      waiters.add(wake);
      this.#count++;
    });
  }

  /** A connection of `tenant` to `vendor` changed: every call waiting for one tries again. */
  changed(tenant: string, vendor: Vendor): void {
    for (const wake of [...(this.#waiters.get(`${tenant}\u0000${vendor}`) ?? [])]) wake();
  }

  /** How many calls wait now. */
  get waiting(): number {
    return this.#count;
  }
}
