import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import { InMemoryContactBook } from '../../adapters/outbound/memory/in-memory-contact-book.js';
import { SystemClock } from '../../adapters/outbound/system-clock.js';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { resilientRedisOptions } from '../../adapters/outbound/redis/redis-availability.js';
import { RedisRateLimiter } from '../../adapters/outbound/redis/redis-rate-limiter.js';
import { RedisTokenStore } from '../../adapters/outbound/redis/redis-token-store.js';
import { InMemoryTokenStore } from '../../adapters/outbound/memory/in-memory-token-store.js';
import { IdempotencyStore } from '../../ports/idempotency-store.js';
import { RateLimiter } from '../../ports/rate-limiter.js';
import { ownRedisServer, type OwnRedis } from '../support/redis.js';
import { CRM_ALL_TOKEN, request, testGateway } from '../support/gateway.js';

// The attack: a keyed write is in flight when Redis goes away. The idempotency record's completion then
// rejected with nobody listening, and Node ended the process (every instance sharing that Redis at once).
// After the fix: no unhandled rejection, keyed writes fail fast and closed (503 UNAVAILABLE with
// Retry-After), reads go on (the rate limit fails open), and keyed writes work again soon after Redis
// returns.

const own = await ownRedisServer();
if ('skip' in own) console.warn(own.skip);

const TOKEN = `tok-${randomUUID()}`;

describe.skipIf('skip' in own)('losing Redis mid-write', () => {
  const redis = own as OwnRedis;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  let gateway: Gateway;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let holding = false;
  /** Creates that reached the gate: their idempotency keys are claimed, so Redis dies mid-write for each. */
  let waiting = 0;
  const logs: { msg: string; store?: string; operation?: string }[] = [];

  beforeAll(() => {
    process.on('unhandledRejection', onUnhandled);
    const book = InMemoryContactBook.withDemoData({ clock: new SystemClock() });
    const create = book.create.bind(book);
    // While `holding`, every create waits for the gate: the writes are in flight when Redis dies.
    book.create = (values, props) => () => {
      if (holding) waiting++;
      return (holding ? gate : Promise.resolve()).then(() => create(values, props)());
    };
    gateway = createGateway({
      env: {
        LOG_LEVEL: 'silent',
        REDIS_URL: redis.url,
        GATEWAY_API_KEYS: JSON.stringify([{ name: 'writer', token: TOKEN, permissions: ['crm:*'] }]),
      },
      logger: pino({ level: 'warn' }, { write: (line: string) => void logs.push(JSON.parse(line)) }),
      overrides: { contactBook: book },
    });
  });

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await gateway?.close();
    await redis.stop();
  });

  const keyedWrite = (key = randomUUID(), email = `w-${randomUUID()}@example.com`) =>
    request(gateway, 'POST', '/v1/tools/crm/createContact?format=json', {
      body: { values: { email } },
      token: TOKEN,
      headers: { 'idempotency-key': key },
    });
  const read = () =>
    request(gateway, 'POST', '/v1/tools/crm/getContact?format=json', { body: { contact_id: '101' }, token: TOKEN });
  const timed = async <A>(work: () => Promise<A>): Promise<{ answer: A; ms: number }> => {
    const started = performance.now();
    const answer = await work();
    return { answer, ms: performance.now() - started };
  };

  it('does not wait on a stalled Redis: reads go through, keyed writes get a fast 503, and a retry works once it answers', async () => {
    expect((await keyedWrite()).status).toBe(200);
    redis.pause();
    const [key, email] = [randomUUID(), `stalled-${randomUUID()}@example.com`];
    try {
      const refused = await timed(() => keyedWrite(key, email));
      expect(refused.answer.status).toBe(503);
      expect(refused.answer.body.error.code).toBe('UNAVAILABLE');
      expect(refused.ms).toBeLessThan(1000);
      const reading = await timed(read);
      expect(reading.answer.status).toBe(200);
      expect(reading.ms).toBeLessThan(600);
    } finally {
      redis.resume();
    }
    // The stalled claim lands when Redis wakes up; it is withdrawn, so the retry the 503 asked for runs.
    await new Promise((r) => setTimeout(r, 200));
    const retried = await keyedWrite(key, email);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(unhandled).toEqual([]);
  });

  it('survives, fails keyed writes fast and closed, keeps reads going, and recovers', async () => {
    expect((await keyedWrite()).status).toBe(200);

    holding = true;
    const inFlight = Array.from({ length: 5 }, () => keyedWrite());
    // Wait until all five have claimed their keys and are inside the tool (not a fixed time: a loaded CI
    // machine may take longer than any guess), then kill Redis under them.
    for (let i = 0; i < 200 && waiting < 5; i++) await new Promise((r) => setTimeout(r, 25));
    expect(waiting).toBe(5);
    await redis.kill();
    release();
    holding = false;
    // The work itself finishes; only its idempotency record cannot be stored.
    expect((await Promise.all(inFlight)).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    // Give the failed completions time to surface as unhandled rejections (the old code's crash).
    await new Promise((r) => setTimeout(r, 1500));
    expect(unhandled).toEqual([]);

    for (let i = 0; i < 3; i++) {
      const { answer, ms } = await timed(() => keyedWrite());
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('UNAVAILABLE');
      expect(answer.body.error.details.retry_after_seconds).toBeGreaterThan(0);
      expect(answer.headers.get('retry-after')).toBe(String(answer.body.error.details.retry_after_seconds));
      expect(ms).toBeLessThan(1000);
    }
    for (let i = 0; i < 3; i++) {
      const { answer, ms } = await timed(read);
      expect(answer.status).toBe(200);
      expect(ms).toBeLessThan(600);
    }

    // Every fail-open call is counted; the warnings are throttled (one line per kind per 10 s).
    const metrics = (await request(gateway, 'GET', '/metrics', { token: null })).raw;
    const failOpen = Number(/^gateway_rate_limit_fail_open_total (\d+)/m.exec(metrics)?.[1]);
    expect(failOpen).toBeGreaterThanOrEqual(7);
    expect(metrics).toMatch(/gateway_store_errors_total\{store="idempotency",operation="claim"\} [4-9]/);
    expect(metrics).toMatch(/gateway_store_errors_total\{store="idempotency",operation="complete"\} 5/);
    expect(logs.filter((l) => l.store === 'rate-limit').length).toBeLessThanOrEqual(2);
    expect(logs.filter((l) => l.store === 'idempotency' && l.operation === 'claim').length).toBeLessThanOrEqual(2);

    await redis.restart();
    const back = performance.now();
    let status = 0;
    while (performance.now() - back < 10_000) {
      status = (await keyedWrite()).status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    expect(performance.now() - back).toBeLessThan(10_000);
    // The replay works again too: the record was stored in the new Redis.
    const [key, email] = [randomUUID(), `again-${randomUUID()}@example.com`];
    const first = await keyedWrite(key, email);
    await new Promise((r) => setTimeout(r, 50));
    const again = await keyedWrite(key, email);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(unhandled).toEqual([]);
  }, 40_000);
});

// The same guarantees without a redis-server binary: stores that fail the way a lost Redis does.
describe('stores that fail', () => {
  const gone = () => Promise.reject(new Error('Connection is closed.'));

  it('never leaves a rejection unhandled, fails keyed writes closed and rate limits open', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let claims = 0;
      // The first claim works, then the store goes away while that write is in flight.
      const store: IdempotencyStore = {
        claim: () => (claims++ === 0 ? Promise.resolve({ state: 'started' }) : gone()),
        complete: gone,
        abandon: gone,
      };
      const limiter: RateLimiter = { take: gone };
      const g = testGateway({
        ports: [
          [IdempotencyStore, store],
          [RateLimiter, limiter],
        ],
      });
      const write = (key: string) =>
        request(g, 'POST', '/v1/tools/crm/createContact?format=json', {
          body: { values: { email: `${key}@example.com` } },
          token: CRM_ALL_TOKEN,
          headers: { 'idempotency-key': key },
        });
      expect((await write('first')).status).toBe(200);
      const refused = await write('second');
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatchObject({
        code: 'UNAVAILABLE',
        details: { retry_after_seconds: 5, retryable: true },
      });
      expect(refused.headers.get('retry-after')).toBe('5');
      const search = await request(g, 'POST', '/v1/tools/crm/searchContacts?format=json', {
        body: { query: 'second@example.com' },
        token: CRM_ALL_TOKEN,
      });
      expect(search.status).toBe(200);
      expect(search.body.data.total).toBe(0);
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('an unreachable Redis', () => {
  /** A loopback port with nothing listening on it. */
  const closedPort = () =>
    new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });

  it('never makes a token read or a rate-limit decision wait more than about 250 ms; the token store uses its own copy', async () => {
    const redis = new Redis(`redis://127.0.0.1:${await closedPort()}`, resilientRedisOptions());
    redis.on('error', () => undefined);
    try {
      const fallbacks: unknown[] = [];
      const tokens = new RedisTokenStore(redis, {
        local: new InMemoryTokenStore(),
        onFallback: (e) => void fallbacks.push(e),
      });
      const limiter = new RedisRateLimiter(redis);
      const stored = { accessToken: 'a', refreshToken: 'r', expiresAt: Date.now() + 3600_000 };
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        await tokens.put('hubspot:x', stored);
        expect(await tokens.get('hubspot:x')).toEqual(stored);
        expect(await tokens.withLock('hubspot:x', 5000, async () => 'refreshed')).toBe('refreshed');
        await expect(limiter.take('key:p:crm', 10, 60)).rejects.toThrow(/Redis/);
        expect(performance.now() - started).toBeLessThan(i === 0 ? 1500 : 400);
      }
      expect(fallbacks.length).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });
});
