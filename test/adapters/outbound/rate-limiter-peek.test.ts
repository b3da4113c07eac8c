import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryRateLimiter } from '../../../adapters/outbound/memory/in-memory-rate-limiter.js';
import { RedisRateLimiter } from '../../../adapters/outbound/redis/redis-rate-limiter.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import type { RateLimiter } from '../../../ports/rate-limiter.js';
import { redisForTests } from '../../support/redis.js';

// Issue 38: `peek` gives take's decision without counting the call (the sign-in form counts wrong keys only,
// after the answer, and asks before it whether the address may try at all). In memory and in Redis.

const found = await redisForTests();
let redis: Redis | undefined;
beforeAll(() => {
  if (!('skip' in found)) redis = new Redis(found.url, { lazyConnect: false });
});
afterAll(async () => {
  redis?.disconnect();
  if (!('skip' in found)) await found.stop();
});

const limiters: { name: string; make: () => RateLimiter | undefined }[] = [
  { name: 'memory', make: () => new InMemoryRateLimiter(new FixedClock(new Date('2026-11-29T00:00:00Z'))) },
  { name: 'Redis', make: () => redis && new RedisRateLimiter(redis, `tg:test:${randomBytes(4).toString('hex')}:`) },
];

describe.each(limiters)('peek on the $name limiter', ({ make }) => {
  it('says whether one more call is allowed, and counts nothing', async (ctx) => {
    const limiter = make();
    if (!limiter) return ctx.skip();
    expect(limiter.peek).toBeTypeOf('function');
    if (!limiter.peek) return;
    for (let i = 0; i < 5; i++) expect((await limiter.peek('k', 2, 60)).allowed).toBe(true);
    expect((await limiter.take('k', 2, 60)).allowed).toBe(true);
    expect((await limiter.peek('k', 2, 60)).allowed).toBe(true);
    expect((await limiter.take('k', 2, 60)).allowed).toBe(true);
    const full = await limiter.peek('k', 2, 60);
    expect(full.allowed).toBe(false);
    expect(full.retryAfterSeconds).toBeGreaterThan(0);
    expect((await limiter.take('k', 2, 60)).allowed).toBe(false);
  });
});
