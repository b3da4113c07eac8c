import { LRUCache } from 'lru-cache';
import { gcra } from '../../../domain/shared/rate-limit.js';
import type { Clock } from '../../../ports/clock.js';
import type { RateDecision, RateLimiter } from '../../../ports/rate-limiter.js';

/**
 * Rate limits held in this process (one instance; REDIS_URL shares them between instances). A key's
 * state lives only until its allowance is whole again (then it equals a fresh key), and at most
 * `maxKeys` keys are kept; pushing out the least recently used one only forgets its recent calls.
 */
export class InMemoryRateLimiter implements RateLimiter {
  readonly #options: LRUCache.Options<string, number, unknown>;
  #tats: LRUCache<string, number> | undefined;
  /** The time of the decision being made, if one is: lru-cache's clock then, so that a decision reads the clock once. */
  private deciding: number | undefined;

  constructor(
    private readonly clock: Clock,
    maxKeys = 100_000,
  ) {
    this.#options = {
      max: maxKeys,
      perf: { now: () => this.deciding ?? clock.now().getTime() },
      ttlResolution: 0,
      // The next `set` overwrites a stale key. Deleting it on `get` instead, when it is the only key,
      // makes lru-cache clear every one of its `max`-entry arrays: on every call of a busy principal.
      noDeleteOnStaleGet: true,
    };
  }

  /**
   * The keys' state. lru-cache allocates all `max` slots when a cache is made (about 2.7 MB for 100,000), so the cache is made on
   * first use rather than with the gateway.
   */
  private get tats(): LRUCache<string, number> {
    return (this.#tats ??= new LRUCache<string, number>(this.#options));
  }

  /** How many keys are held (for tests and metrics). */
  get size(): number {
    return this.#tats?.size ?? 0;
  }

  take(key: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    return this.decide(key, limit, windowSeconds, true);
  }

  peek(key: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    return this.decide(key, limit, windowSeconds, false);
  }

  private decide(key: string, limit: number, windowSeconds: number, count: boolean): Promise<RateDecision> {
    const now = (this.deciding = this.clock.now().getTime());
    const r = gcra(this.tats.get(key), now, limit, windowSeconds * 1000);
    if (r.allowed && count) this.tats.set(key, r.tat, { ttl: Math.max(1, Math.ceil(r.tat - now)) });
    this.deciding = undefined;
    return Promise.resolve({
      allowed: r.allowed,
      limit,
      remaining: r.remaining,
      resetSeconds: Math.ceil(r.resetMs / 1000),
      retryAfterSeconds: Math.ceil(r.retryAfterMs / 1000),
    });
  }
}
