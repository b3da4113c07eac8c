import { LRUCache } from 'lru-cache';
import type { Clock } from '../../../ports/clock.js';
import type { IdempotencyClaim, IdempotencyStore, StoredOutcome } from '../../../ports/idempotency-store.js';

type Entry = { fingerprint: string } & ({ state: 'running' } | { state: 'done'; outcome: StoredOutcome });

export interface InMemoryIdempotencyLimits {
  /** Most records kept; the least recently used go first (default 100,000). */
  readonly maxEntries?: number;
  /** Most bytes of records kept, measured as their JSON length (default 64 MiB). */
  readonly maxBytes?: number;
  /**
   * Most records one tenant keeps (default a tenth of maxEntries): past it, that tenant's own oldest record
   * goes, so a tenant that sends a new key with every write cannot push another tenant's records out.
   */
  readonly maxEntriesPerTenant?: number;
}

/** The tenant of a record's key (`tenant:principal:key`, as the executor scopes it). */
const tenantOf = (key: string): string => key.slice(0, Math.max(0, key.indexOf(':')));

/**
 * Idempotency records held in this process, bounded by count and by size, each for its TTL (timed by
 * the gateway's clock). A record pushed out early only means a retry of that write runs again, as after
 * its TTL; it never replays the wrong outcome.
 */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  readonly #options: LRUCache.Options<string, Entry, unknown>;
  #entries: LRUCache<string, Entry> | undefined;
  /** Each tenant's keys, oldest first (a Set keeps insertion order); a tenant goes when its last key does. */
  readonly #byTenant = new Map<string, Set<string>>();
  readonly #perTenant: number;

  constructor(clock: Clock, limits: InMemoryIdempotencyLimits = {}) {
    const max = limits.maxEntries ?? 100_000;
    this.#perTenant = limits.maxEntriesPerTenant ?? Math.max(1, Math.floor(max / 10));
    this.#options = {
      max,
      // whatever removes a record (evicted, expired, deleted) removes it from its tenant's keys too
      dispose: (_entry, key, reason) => {
        if (reason !== 'set') this.#forget(key);
      },
      maxSize: limits.maxBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (entry, key) =>
        key.length +
        entry.fingerprint.length +
        (entry.state === 'done' ? (JSON.stringify(entry.outcome)?.length ?? 0) : 0) +
        64,
      perf: { now: () => clock.now().getTime() },
      ttlResolution: 0,
    };
  }

  /**
   * The records. lru-cache allocates all `max` slots when a cache is made (about 2.7 MB for 100,000), so the cache is made on
   * first use rather than with the gateway.
   */
  private get entries(): LRUCache<string, Entry> {
    return (this.#entries ??= new LRUCache<string, Entry>(this.#options));
  }

  /** How many records are held (for tests and metrics). */
  get size(): number {
    return this.#entries?.size ?? 0;
  }

  #forget(key: string): void {
    const tenant = tenantOf(key);
    const keys = this.#byTenant.get(tenant);
    if (!keys) return;
    keys.delete(key);
    if (!keys.size) this.#byTenant.delete(tenant);
  }

  /** A new record of a tenant: past its share, its own oldest record makes room. */
  #admit(key: string): void {
    const tenant = tenantOf(key);
    let keys = this.#byTenant.get(tenant);
    if (!keys) this.#byTenant.set(tenant, (keys = new Set()));
    while (keys.size >= this.#perTenant) {
      const oldest = keys.values().next().value as string;
      keys.delete(oldest);
      this.entries.delete(oldest);
    }
    // (the delete above may have dropped the emptied set from the map)
    this.#byTenant.set(tenant, keys);
    keys.add(key);
  }

  claim(key: string, fingerprint: string, runningTtlSeconds: number): Promise<IdempotencyClaim> {
    const entry = this.entries.get(key);
    if (!entry) {
      this.#admit(key);
      this.entries.set(key, { state: 'running', fingerprint }, { ttl: runningTtlSeconds * 1000 });
      return Promise.resolve({ state: 'started' });
    }
    if (entry.fingerprint !== fingerprint) return Promise.resolve({ state: 'mismatch' });
    return Promise.resolve(
      entry.state === 'running' ? { state: 'in-progress' } : { state: 'replay', outcome: entry.outcome },
    );
  }

  complete(key: string, fingerprint: string, outcome: StoredOutcome, ttlSeconds: number): Promise<void> {
    if (!this.#byTenant.get(tenantOf(key))?.has(key)) this.#admit(key);
    this.entries.set(key, { state: 'done', fingerprint, outcome }, { ttl: ttlSeconds * 1000 });
    return Promise.resolve();
  }

  abandon(key: string): Promise<void> {
    if (this.entries.get(key)?.state === 'running') this.entries.delete(key);
    return Promise.resolve();
  }
}
