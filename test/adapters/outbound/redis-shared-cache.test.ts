import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resilientRedisOptions } from '../../../adapters/outbound/redis/redis-availability.js';
import { RedisSharedCache } from '../../../adapters/outbound/redis/redis-shared-cache.js';
import { redisForTests } from '../../support/redis.js';

// The shared cache web_fetch keeps pages in (for revalidation across instances): values with a TTL in
// Redis, and "not cached" (never an exception) when Redis is not there.

const found = await redisForTests();
const skip = 'skip' in found ? found.skip : undefined;
if (skip) console.warn(skip);

describe.skipIf(Boolean(skip))('the shared cache in Redis', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis((found as { url: string }).url, resilientRedisOptions());
  });
  afterAll(async () => {
    redis.disconnect();
    if (!('skip' in found)) await found.stop();
  });

  it('keeps a value for its TTL, under its own prefix', async () => {
    const cache = new RedisSharedCache(redis);
    const key = `test-${randomUUID()}`;
    expect(await cache.get(key)).toBeUndefined();
    await cache.set(key, 'page', 30);
    expect(await cache.get(key)).toBe('page');
    const ttl = await redis.ttl(`cache:${key}`);
    expect(ttl).toBeGreaterThan(25);
    expect(ttl).toBeLessThanOrEqual(30);
  });
});

describe('the shared cache without Redis', () => {
  it('answers "not cached" and reports, instead of failing the call', async () => {
    const gone = new Redis('redis://127.0.0.1:1', { ...resilientRedisOptions(), retryStrategy: () => null });
    gone.on('error', () => undefined);
    const errors: unknown[] = [];
    const cache = new RedisSharedCache(gone, (e) => errors.push(e));
    await cache.set('k', 'v', 10);
    expect(await cache.get('k')).toBeUndefined();
    expect(errors.length).toBe(2);
    gone.disconnect();
  });
});
