import type { Redis } from 'ioredis';
import type { RateDecision, RateLimiter } from '../../../ports/rate-limiter.js';
import { RATE_LIMIT_BUDGET_MS, withinBudget } from './redis-availability.js';

// When Redis is slow or gone, `take` rejects within RATE_LIMIT_BUDGET_MS (RedisUnavailable) and the
// executor lets the call through: rate limits fail open (see redis-availability.ts).

// The GCRA of domain/shared/rate-limit.ts as one atomic script, timed by the Redis server's clock so
// that instances with skewed clocks still agree. Returns {allowed, remaining, resetMs, retryAfterMs}.
const GCRA = `
local limit = tonumber(ARGV[1])
local count = ARGV[3] ~= '0'
local window = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = window / limit
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local nextTat = tat + interval
if nextTat - now > window then
  return {0, 0, math.ceil(tat - now), math.ceil(nextTat - window - now)}
end
if count then redis.call('SET', KEYS[1], tostring(nextTat), 'PX', math.ceil(nextTat - now)) end
return {1, math.floor((window - (nextTat - now)) / interval), math.ceil(nextTat - now), 0}
`;

/** Rate limits shared by every instance through Redis: one script call per decision, within 250 ms. */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'tg:rl:',
  ) {
    redis.defineCommand('tgGcra', { numberOfKeys: 1, lua: GCRA });
  }

  take(key: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    return this.decide(key, limit, windowSeconds, 1);
  }

  /** The same decision with nothing counted. */
  peek(key: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    return this.decide(key, limit, windowSeconds, 0);
  }

  private async decide(key: string, limit: number, windowSeconds: number, count: 0 | 1): Promise<RateDecision> {
    const gcra = (this.redis as unknown as { tgGcra: (...a: unknown[]) => Promise<number[]> }).tgGcra.bind(this.redis);
    const [allowed, remaining, resetMs, retryAfterMs] = (await withinBudget(
      this.redis,
      RATE_LIMIT_BUDGET_MS,
      'a rate-limit decision',
      () => gcra(this.prefix + key, limit, windowSeconds * 1000, count),
    )) as [number, number, number, number];
    return {
      allowed: allowed === 1,
      limit,
      remaining,
      resetSeconds: Math.ceil(resetMs / 1000),
      retryAfterSeconds: Math.ceil(retryAfterMs / 1000),
    };
  }
}
