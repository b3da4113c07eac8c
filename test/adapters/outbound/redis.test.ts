import { TEST_DATA_DIR } from '../../support/data-dir.js';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { Redis } from 'ioredis';
import { createGateway, type Gateway } from '../../../composition/gateway.js';
import { InMemoryContactBook } from '../../../adapters/outbound/memory/in-memory-contact-book.js';
import { SystemClock } from '../../../adapters/outbound/system-clock.js';
import { HubSpotServer } from '../../fakes/hubspot-server.js';
import { redisForTests } from '../../support/redis.js';
import { request } from '../../support/gateway.js';

const found = await redisForTests();
if ('skip' in found) console.warn(found.skip);

describe.skipIf('skip' in found)('shared through Redis', () => {
  const url = 'url' in found ? found.url : '';
  const gateways: Gateway[] = [];
  let redis: Redis;

  /** Two instances of the gateway sharing one Redis, with a fresh principal so runs never collide. */
  const pair = (extraEnv: Record<string, string> = {}, overrides = {}) => {
    const token = `tok-${randomUUID()}`;
    const env = {
      LOG_LEVEL: 'silent',
      REDIS_URL: url,
      GATEWAY_API_KEYS: JSON.stringify([{ name: `p-${randomUUID()}`, token, permissions: ['*'] }]),
      ...extraEnv,
    };
    const made = [0, 1].map(() => createGateway({ env, logger: pino({ level: 'silent' }), overrides }));
    gateways.push(...made);
    return { a: made[0]!, b: made[1]!, token };
  };

  beforeAll(() => {
    redis = new Redis(url);
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.close()));
    await redis.quit();
    if ('stop' in found) await found.stop();
  });

  it('enforces one rate limit across instances', async () => {
    const { a, b, token } = pair({ RATE_LIMIT_PER_MINUTE: '4' });
    const statuses: number[] = [];
    for (const g of [a, b, a, b, a, b]) {
      statuses.push(
        (await request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('replays an idempotency key on the other instance', async () => {
    const { a, b, token } = pair();
    const body = { values: { email: `idem-${randomUUID()}@example.com` } };
    const headers = { 'idempotency-key': randomUUID() };
    const first = await request(a, 'POST', '/v1/tools/crm/createContact?format=json', { body, token, headers });
    const second = await request(b, 'POST', '/v1/tools/crm/createContact?format=json', { body, token, headers });
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('runs a write exactly once for 50 concurrent requests with one key', async () => {
    const book = InMemoryContactBook.withDemoData({ clock: new SystemClock() });
    let runs = 0;
    const create = book.create.bind(book);
    book.create = (values, props) => () => {
      runs++;
      return new Promise((r) => setTimeout(r, 50)).then(() => create(values, props)());
    };
    const { a, b, token } = pair({}, { contactBook: book });
    const body = { values: { email: `fifty-${randomUUID()}@example.com` } };
    const headers = { 'idempotency-key': randomUUID() };
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request(i % 2 ? a : b, 'POST', '/v1/tools/crm/createContact?format=json', { body, token, headers }),
      ),
    );
    expect(runs).toBe(1);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
  });

  it('refreshes an expired upstream token once for two instances', async () => {
    const hubspot = await HubSpotServer.start();
    try {
      const env = {
        CRM_BACKEND: 'hubspot',
        GATEWAY_DATA_DIR: TEST_DATA_DIR,
        HUBSPOT_BASE_URL: hubspot.baseUrl,
        HUBSPOT_CLIENT_ID: hubspot.oauth.clientId,
        HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret,
        HUBSPOT_REFRESH_TOKEN: hubspot.oauth.refreshTokens[0]!,
      };
      // An expired token already sits in the shared store, as after a long idle period.
      await redis.set(
        `tg:tok:hubspot:${hubspot.oauth.clientId}`,
        JSON.stringify({
          accessToken: 'expired',
          expiresAt: Date.now() - 1000,
          refreshToken: hubspot.oauth.refreshTokens[0],
        }),
      );
      const { a, b, token } = pair(env);
      const answers = await Promise.all(
        [a, b, a, b].map((g) => request(g, 'POST', '/v1/tools/crm/getProperties?format=json', { body: {}, token })),
      );
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const refreshes = hubspot.requests.filter((r) => r.method === 'POST' && r.path === '/oauth/2026-03/token');
      expect(refreshes).toHaveLength(1);
    } finally {
      await hubspot.close();
    }
  });
});
