import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEncryptionKey } from '../../../adapters/outbound/persistence/secret-box.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../../composition/gateway.js';
import { HUBSPOT_TEST_TOKEN, HubSpotServer } from '../../fakes/hubspot-server.js';
import { NOW, request } from '../../support/gateway.js';
import { postgresForTests } from '../../support/postgres.js';
import { redisForTests } from '../../support/redis.js';
import { finishInBrowser, openConnectLink } from '../../support/connect-flow.js';

// Two gateway instances on one PostgreSQL and one Redis: a connection made on one works on the other,
// and when its access token expires, concurrent calls on both refresh it once (the refresh runs under
// the Redis lock and its result is read back from PostgreSQL).

let hubspot: HubSpotServer;
let pg: { url: string; stop(): Promise<void> } | { skip: string };
let redis: { url: string; stop(): Promise<void> } | { skip: string };
const clock = new FixedClock(NOW);
const gateways: Gateway[] = [];
const tenant = `t${randomUUID().slice(0, 8)}`;
const ADMIN = `token-${tenant}-admin-0123456789`;
const key = newEncryptionKey();

beforeAll(async () => {
  hubspot = await HubSpotServer.start({ clock });
  pg = await postgresForTests();
  redis = await redisForTests();
});
afterAll(async () => {
  for (const g of gateways) await g.close();
  await hubspot.close();
  if ('stop' in pg) await pg.stop();
  if ('stop' in redis) await redis.stop();
});

const instance = (): Gateway => {
  if (!('url' in pg) || !('url' in redis)) throw new Error('no database');
  const g = createGateway({
    env: {
      CRM_BACKEND: 'hubspot',
      HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN,
      HUBSPOT_BASE_URL: hubspot.baseUrl,
      HUBSPOT_CLIENT_ID: hubspot.oauth.clientId,
      HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret,
      PUBLIC_BASE_URL: 'https://gateway.example',
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      GATEWAY_ENCRYPTION_KEY: key,
      GATEWAY_API_KEYS: JSON.stringify([{ name: 'admin', token: ADMIN, permissions: ['*'], tenant }]),
    },
    logger: pino({ level: 'silent' }),
    overrides: { clock },
  });
  gateways.push(g);
  return g;
};

describe('connections shared by two instances', () => {
  it('connect on one, use on both, and refresh an expired connection once', async (ctx) => {
    if ('skip' in pg) return ctx.skip(pg.skip);
    if ('skip' in redis) return ctx.skip(redis.skip);
    const [a, b] = [instance(), instance()];

    const ask = await request(a, 'GET', '/v1/connections/hubspot/authorize', { token: ADMIN });
    const flow = await openConnectLink(a, ask.body.data.authorize_url, ADMIN);
    const authorize = flow.authorize;
    const code = hubspot.grantCode({
      redirectUri: 'https://gateway.example/oauth/callback',
      codeChallenge: authorize.searchParams.get('code_challenge')!,
    });
    const state = authorize.searchParams.get('state')!;
    // The callback lands on the other instance: the state and the flow cookie are sealed with the shared
    // key, not kept in memory.
    const callback = await finishInBrowser(
      b,
      flow,
      `code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
    );
    expect(callback.status).toBe(200);

    const create = (g: Gateway, email: string) =>
      request(g, 'POST', '/v1/tools/crm/createContact?format=json', { body: { values: { email } }, token: ADMIN });
    expect((await create(a, `a-${tenant}@example.com`)).status).toBe(200);
    expect((await create(b, `b-${tenant}@example.com`)).status).toBe(200);

    const before = hubspot.issuedTokens.length;
    clock.advance(3_600_000);
    const answers = await Promise.all([
      create(a, `a2-${tenant}@example.com`),
      create(b, `b2-${tenant}@example.com`),
      create(a, `a3-${tenant}@example.com`),
      create(b, `b3-${tenant}@example.com`),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(hubspot.issuedTokens.length).toBe(before + 1);
    expect(hubspot.specViolations).toEqual([]);
    await request(a, 'DELETE', '/v1/connections/hubspot', { token: ADMIN });
  });
});
