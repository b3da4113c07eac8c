import { LRUCache } from 'lru-cache';
import type { Clock } from '../../../ports/clock.js';
import type { OneTimeMarks } from '../../../ports/one-time-marks.js';

/** The in-process store is full of marks still alive: refusing is safer than forgetting one. */
export class OneTimeMarksFull extends Error {
  constructor(max: number) {
    super(`the in-process one-time marks are full (${max} live marks); try again when some expire`);
    this.name = 'OneTimeMarksFull';
  }
}

/**
 * One-time marks held in this process (one instance; REDIS_URL shares them), each for its TTL on the
 * gateway's clock, at most `max` at once. A live mark is never pushed out to make room (that would make
 * a used key usable again): when every slot holds a live mark, `consume` rejects.
 */
export class InMemoryOneTimeMarks implements OneTimeMarks {
  readonly #options: LRUCache.Options<string, true, unknown>;
  #cache: LRUCache<string, true> | undefined;
  readonly #max: number;

  constructor(clock: Clock, max = 10_000) {
    this.#max = max;
    this.#options = { max, ttl: 3_600_000, perf: { now: () => clock.now().getTime() }, ttlResolution: 0 };
  }

  /**
   * The marks. lru-cache allocates all `max` slots when a cache is made (about 2.7 MB for 100,000), so the cache is made on
   * first use rather than with the gateway.
   */
  get #marks(): LRUCache<string, true> {
    return (this.#cache ??= new LRUCache<string, true>(this.#options));
  }

  /** How many marks are held (for tests). */
  get size(): number {
    return this.#cache?.size ?? 0;
  }

  consume(key: string, ttlSeconds: number): Promise<boolean> {
    if (this.#marks.has(key)) return Promise.resolve(false);
    if (this.#marks.size >= this.#max) {
      this.#marks.purgeStale();
      if (this.#marks.size >= this.#max) return Promise.reject(new OneTimeMarksFull(this.#max));
    }
    this.#marks.set(key, true, { ttl: Math.max(1, Math.ceil(ttlSeconds)) * 1000 });
    return Promise.resolve(true);
  }
}
