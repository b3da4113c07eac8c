import type { Vendor } from '../../ports/connection-store.js';
import type { ConnectResume } from './connect-resume.js';

// A call that asked its person to connect a vendor (issue 43: URL elicitation) waits here until a connection
// of the caller's tenant to that vendor changes: on this instance (the connect callback), or on another one
// whose change was announced (Redis). The waiter then tries its call again; a change that did not help it
// (another person's connection) only costs that one try.

/** The most calls that may wait for a connection at once on one instance. */
export const MAX_CONNECTION_WAITERS = 1000;

/** Change counters, one per slot that (tenant, vendor) pairs hash to: a fixed size, whatever the tenants. */
const SLOTS = 1024;

const slotOf = (key: string): number => {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0;
  return (h >>> 0) % SLOTS;
};

/** Why a wait ended: a change, its time ran out, the call was cancelled, or too many wait already. */
export type WaitEnd = 'changed' | 'timeout' | 'aborted' | 'full';

export class ConnectionWatch {
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #perTenant = new Map<string, number>();
  readonly #tenantMax: number;
  /** Changes seen per slot: a waiter that looked before a change it did not wait for yet still sees it. */
  readonly #changes = new Uint32Array(SLOTS);
  #count = 0;

  /** `max` calls wait at once on this instance, a tenth of them (at least one) of one tenant. */
  constructor(
    private readonly max = MAX_CONNECTION_WAITERS,
    /** Seals the state a 2026-07-28 retry resumes its wait with (connect-resume.ts). */
    readonly resume?: ConnectResume,
  ) {
    this.#tenantMax = Math.max(1, Math.floor(max / 10));
  }

  /**
   * Where the changes of `tenant`'s connections to `vendor` stand: taken before a call looks, and given to
   * `changeOf`, so a change between the look and the wait is not missed (another pair hashing to the same
   * slot may wake the waiter once for nothing).
   */
  mark(tenant: string, vendor: Vendor): number {
    return this.#changes[slotOf(`${tenant}\u0000${vendor}`)]!;
  }

  /**
   * Waits until a connection of `tenant` to `vendor` changes, at most `ms`; at once 'changed' when one
   * changed since `since` (a `mark`), 'full' when too many calls (of the gateway, or of the tenant) wait
   * already: the caller then stops waiting.
   */
  changeOf(tenant: string, vendor: Vendor, ms: number, signal?: AbortSignal, since?: number): Promise<WaitEnd> {
    if (signal?.aborted) return Promise.resolve('aborted');
    if (since !== undefined && this.mark(tenant, vendor) !== since) return Promise.resolve('changed');
    const tenantCount = this.#perTenant.get(tenant) ?? 0;
    if (this.#count >= this.max || tenantCount >= this.#tenantMax) return Promise.resolve('full');
    const key = `${tenant}\u0000${vendor}`;
    this.#perTenant.set(tenant, tenantCount + 1);
    return new Promise<WaitEnd>((resolve) => {
      let set = this.#waiters.get(key);
      if (!set) this.#waiters.set(key, (set = new Set()));
      const waiters = set;
      const done = (end: WaitEnd) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        if (waiters.delete(wake)) {
          this.#count--;
          const left = (this.#perTenant.get(tenant) ?? 1) - 1;
          if (left > 0) this.#perTenant.set(tenant, left);
          else this.#perTenant.delete(tenant);
        }
        if (waiters.size === 0 && this.#waiters.get(key) === waiters) this.#waiters.delete(key);
        resolve(end);
      };
      const wake = () => done('changed');
      const aborted = () => done('aborted');
      const timer = setTimeout(() => done('timeout'), Math.max(0, ms));
      signal?.addEventListener('abort', aborted, { once: true });
      waiters.add(wake);
      this.#count++;
    });
  }

  /** A connection of `tenant` to `vendor` changed: every call waiting for one tries again. */
  changed(tenant: string, vendor: Vendor): void {
    const slot = slotOf(`${tenant}\u0000${vendor}`);
    this.#changes[slot] = this.#changes[slot]! + 1;
    for (const wake of [...(this.#waiters.get(`${tenant}\u0000${vendor}`) ?? [])]) wake();
  }

  /** How many calls wait now. */
  get waiting(): number {
    return this.#count;
  }
}
