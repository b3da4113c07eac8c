import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { InMemoryOneTimeMarks } from '../../adapters/outbound/memory/in-memory-one-time-marks.js';
import { resilientRedisOptions } from '../../adapters/outbound/redis/redis-availability.js';
import { RedisOneTimeMarks } from '../../adapters/outbound/redis/redis-one-time-marks.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { redisForTests } from '../support/redis.js';
import { oneTimeMarksContract } from './one-time-marks.contract.js';

// One contract, two stores: in process (one instance: both views are the same object) and Redis (two
// adapters on two clients, as two gateway instances would hold them; skipped with a message without
// REDIS_URL or Docker).

oneTimeMarksContract('in memory', async () => {
  const clock = new FixedClock(new Date('2026-11-21T10:00:00.000Z'));
  const marks = new InMemoryOneTimeMarks(clock);
  return {
    first: marks,
    second: marks,
    elapse: async (seconds) => clock.advance(seconds * 1000),
    close: async () => undefined,
  };
});

const found = await redisForTests();
if ('skip' in found) console.warn(found.skip);

describe.skipIf('skip' in found)('Redis', () => {
  oneTimeMarksContract('Redis', async () => {
    const url = (found as { url: string }).url;
    const clients = [new Redis(url, resilientRedisOptions()), new Redis(url, resilientRedisOptions())] as const;
    return {
      first: new RedisOneTimeMarks(clients[0]),
      second: new RedisOneTimeMarks(clients[1]),
      elapse: (seconds) => new Promise((r) => setTimeout(r, seconds * 1000)),
      close: async () => {
        for (const c of clients) c.disconnect();
        if ('stop' in found) await found.stop();
      },
    };
  });
});

describe('one-time marks when the store cannot answer', () => {
  it('in memory: a full store of live marks refuses rather than forgetting one', async () => {
    const clock = new FixedClock(new Date('2026-11-21T10:00:00.000Z'));
    const marks = new InMemoryOneTimeMarks(clock, 3);
    for (const k of ['a', 'b', 'c']) expect(await marks.consume(k, 60)).toBe(true);
    await expect(marks.consume('d', 60)).rejects.toThrow(/full/);
    expect(await marks.consume('a', 60)).toBe(false);
    clock.advance(61_000);
    expect(await marks.consume('d', 60)).toBe(true);
    expect(marks.size).toBeLessThanOrEqual(3);
  });

  it('Redis gone: rejects (the caller fails closed) instead of answering', async () => {
    const gone = new Redis('redis://127.0.0.1:1', { ...resilientRedisOptions(), retryStrategy: () => null });
    gone.on('error', () => undefined);
    await expect(new RedisOneTimeMarks(gone).consume('k', 60)).rejects.toThrow(/Redis/);
    gone.disconnect();
  });
});
