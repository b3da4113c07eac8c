import type { Redis } from 'ioredis';
import type { SharedCache } from '../../../ports/shared-cache.js';
import { withinBudget } from './redis-availability.js';

/** Longest a cache read or write may wait for Redis before the caller goes on without the cache. */
const CACHE_BUDGET_MS = 200;

/**
 * The shared cache in Redis (GET, SET EX), for every instance. A Redis that is slow or gone means "not
 * cached": the caller fetches again, and the failure is reported, never thrown.
 */
export class RedisSharedCache implements SharedCache {
  constructor(
    private readonly redis: Redis,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly prefix = 'cache:',
  ) {}

  async get(key: string): Promise<string | undefined> {
    try {
      return (
        (await withinBudget(this.redis, CACHE_BUDGET_MS, 'a cache read', () => this.redis.get(this.prefix + key))) ??
        undefined
      );
    } catch (error) {
      this.onError(error);
      return undefined;
    }
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    try {
      await withinBudget(this.redis, CACHE_BUDGET_MS, 'a cache write', () =>
        this.redis.set(this.prefix + key, value, 'EX', Math.max(1, Math.ceil(ttlSeconds))),
      );
    } catch (error) {
      this.onError(error);
    }
  }
}
