import type { Redis } from 'ioredis';
import type { OneTimeMarks } from '../../../ports/one-time-marks.js';
import { IDEMPOTENCY_BUDGET_MS, withinBudget } from './redis-availability.js';

/**
 * One-time marks in Redis, shared by every instance: `SET key 1 NX EX ttl` sets the mark only if it is
 * not there, in one atomic command. Redis slow or gone rejects within the budget (RedisUnavailable): the
 * caller fails closed.
 */
export class RedisOneTimeMarks implements OneTimeMarks {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'tg:once:',
  ) {}

  async consume(key: string, ttlSeconds: number): Promise<boolean> {
    const answer = await withinBudget(this.redis, IDEMPOTENCY_BUDGET_MS, 'a one-time mark', () =>
      this.redis.set(this.prefix + key, '1', 'EX', Math.max(1, Math.ceil(ttlSeconds)), 'NX'),
    );
    return answer === 'OK';
  }
}
