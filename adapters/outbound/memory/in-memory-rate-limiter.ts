import { gcra } from '../../../domain/shared/rate-limit.js';
import type { Clock } from '../../../ports/clock.js';
import type { RateDecision, RateLimiter } from '../../../ports/rate-limiter.js';

/** Rate limits held in this process (one instance; REDIS_URL shares them between instances). */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly tats = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  take(key: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    const r = gcra(this.tats.get(key), now, limit, windowSeconds * 1000);
    if (r.allowed) this.tats.set(key, r.tat);
    if (this.tats.size > 100_000) this.prune(now);
    return Promise.resolve({
      allowed: r.allowed,
      limit,
      remaining: r.remaining,
      resetSeconds: Math.ceil(r.resetMs / 1000),
      retryAfterSeconds: Math.ceil(r.retryAfterMs / 1000),
    });
  }

  private prune(now: number): void {
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
  }
}
