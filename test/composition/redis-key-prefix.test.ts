import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import { loadConfig } from '../../composition/config.js';
import { IdempotencyStore } from '../../ports/idempotency-store.js';
import { OneTimeMarks } from '../../ports/one-time-marks.js';
import { RateLimiter } from '../../ports/rate-limiter.js';
import { SharedCache } from '../../ports/shared-cache.js';
import { TokenStore } from '../../ports/token-store.js';
import { TEST_DATA_DIR } from '../support/data-dir.js';
import { request } from '../support/gateway.js';
import { redisForTests } from '../support/redis.js';

// REDIS_KEY_PREFIX (issue 32): two gateways with different prefixes on one Redis share nothing, and every key
// a gateway writes starts with its prefix.

const found = await redisForTests();
if ('skip' in found) console.warn(found.skip);

/** The same server, another logical database: only this file writes there, so a scan sees its keys alone. */
const SCAN_DB = 13;
/** Every prefix this file uses starts so (a concurrent run of the file writes the same database). */
const FAMILY = 'prefix-test-';

describe('REDIS_KEY_PREFIX', () => {
  it('is empty by default (the key names of earlier versions) and refuses characters outside its set', () => {
    const plain = loadConfig({});
    expect(plain._tag === 'Right' && plain.right.redisKeyPrefix).toBe('');
    const set = loadConfig({ REDIS_KEY_PREFIX: 'staging:' });
    expect(set._tag === 'Right' && set.right.redisKeyPrefix).toBe('staging:');
    for (const bad of ['with space', 'star*', 'x'.repeat(65)]) {
      const refused = loadConfig({ REDIS_KEY_PREFIX: bad });
      expect(refused._tag).toBe('Left');
      expect(refused._tag === 'Left' && refused.left.join()).toContain('REDIS_KEY_PREFIX');
    }
  });
});

describe.skipIf('skip' in found)('REDIS_KEY_PREFIX on a shared Redis', () => {
  const url = 'url' in found ? found.url : '';
  const scanUrl = (() => {
    const u = new URL(url || 'redis://127.0.0.1');
    u.pathname = `/${SCAN_DB}`;
    return u.toString();
  })();
  const gateways: Gateway[] = [];
  let scan: Redis;

  /** One gateway with its own prefix; `token` is the same principal on every gateway made with it. */
  const gateway = (redisUrl: string, prefix: string, token: string, extraEnv: Record<string, string> = {}) => {
    const made = createGateway({
      env: {
        LOG_LEVEL: 'silent',
        GATEWAY_DATA_DIR: TEST_DATA_DIR,
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: prefix,
        GATEWAY_API_KEYS: JSON.stringify([{ name: 'same-principal', token, permissions: ['*'] }]),
        ...extraEnv,
      },
      logger: pino({ level: 'silent' }),
    });
    gateways.push(made);
    return made;
  };
  const used: string[] = [];
  const prefix = () => {
    used.push(`${FAMILY}${randomUUID()}:`);
    return used.at(-1)!;
  };

  beforeAll(() => {
    scan = new Redis(scanUrl);
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.close()));
    // What this run wrote goes (the token store's keys have no expiry), in both databases.
    const main = new Redis(url);
    for (const redis of [main, scan])
      for (const p of used) for (const key of await keysOf(redis, p)) await redis.del(key);
    await main.quit();
    await scan.quit();
    if ('stop' in found) await found.stop();
  });

  it('keeps rate-limit counts apart: the same principal has a full allowance on each gateway', async () => {
    const token = `tok-${randomUUID()}`;
    const a = gateway(url, prefix(), token, { RATE_LIMIT_PER_MINUTE: '3' });
    const b = gateway(url, prefix(), token, { RATE_LIMIT_PER_MINUTE: '3' });
    const call = async (g: Gateway) =>
      (await request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token })).status;
    const onA = [await call(a), await call(a), await call(a), await call(a)];
    const onB = [await call(b), await call(b), await call(b), await call(b)];
    expect(onA).toEqual([200, 200, 200, 429]);
    expect(onB).toEqual([200, 200, 200, 429]);
    // And one gateway with A's prefix shares A's count (the prefix, not the process, decides).
    const a2 = gateway(url, a.config.redisKeyPrefix ?? '', token, {
      RATE_LIMIT_PER_MINUTE: '3',
    });
    expect(await call(a2)).toBe(429);
  });

  it('keeps idempotency keys apart: the same key runs the write once per prefix', async () => {
    const token = `tok-${randomUUID()}`;
    const a = gateway(url, prefix(), token);
    const b = gateway(url, prefix(), token);
    const headers = { 'idempotency-key': randomUUID() };
    const body = { values: { email: `idem-${randomUUID()}@example.com` } };
    const create = (g: Gateway) =>
      request(g, 'POST', '/v1/tools/crm/createContact?format=json', { body, token, headers });
    const first = await create(a);
    const other = await create(b);
    const again = await create(a);
    expect([first.status, other.status, again.status]).toEqual([200, 200, 200]);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('writes every key under the prefix: rate limits, idempotency, the confirm ledger, tokens, locks, marks, cache', async () => {
    const token = `tok-${randomUUID()}`;
    const mine = prefix();
    const g = gateway(scanUrl, mine, token, {
      GATEWAY_CONFIRM_DESTRUCTIVE: 'true',
      GATEWAY_CONFIRM_SECRET: 'a-confirm-secret-of-at-least-32-characters',
    });
    // Through HTTP: a rate-limited read, a keyed write, and a confirmed delete (its token goes to the ledger).
    expect((await request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token })).status).toBe(
      200,
    );
    const keyed = await request(g, 'POST', '/v1/tools/crm/createContact', {
      body: { values: { email: `scan-${randomUUID()}@example.com` } },
      token,
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(keyed.status).toBe(200);
    const ask = await request(g, 'POST', '/v1/tools/crm/deleteContact?format=json', {
      body: { contact_id: '104' },
      token,
    });
    expect(ask.status).toBe(428);
    const confirmToken = (ask.body as { error: { details: { confirm_token: string } } }).error.details.confirm_token;
    const done = await request(g, 'POST', '/v1/tools/crm/deleteContact', {
      body: { contact_id: '104', confirm_token: confirmToken },
      token,
    });
    expect(done.status).toBe(200);
    // The other shared ports, as the gateway wired them.
    const c = g.container;
    await c.get(TokenStore).put('conn-1', { accessToken: 'a', refreshToken: 'r', expiresAt: Date.now() + 60_000 });
    let lockKeys: string[] = [];
    await c.get(TokenStore).withLock('conn-1', 1000, async () => {
      lockKeys = await keysOf(scan, mine);
    });
    await c.get(SharedCache).set('some-entry', 'value', 60);
    expect(await c.get(OneTimeMarks).consume('oauth-state:x', 60)).toBe(true);
    await c.get(RateLimiter).take('direct', 10, 60);
    await c.get(IdempotencyStore).claim('direct', 'fp', 60);

    const written = await keysOf(scan, mine);
    const kinds = ['tg:rl:', 'tg:idem:', 'tg:idem:confirm:', 'tg:tok:', 'cache:', 'tg:once:'];
    for (const kind of kinds)
      expect(
        written.some((k) => k.startsWith(mine + kind)),
        kind,
      ).toBe(true);
    expect(lockKeys.some((k) => k.startsWith(`${mine}tg:tok:`) && k.endsWith(':lock'))).toBe(true);

    // Nothing outside a prefix in this database: every key any gateway of this file wrote there has one.
    const all = await keysOf(scan, '');
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((k) => !k.startsWith(FAMILY))).toEqual([]);
  });
});

/** Every key starting with `start`, by SCAN (never KEYS). */
const keysOf = async (redis: Redis, start: string): Promise<string[]> => {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${start.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
};
