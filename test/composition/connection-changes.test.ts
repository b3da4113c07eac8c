import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEncryptionKey } from '../../adapters/outbound/persistence/secret-box.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import { HubSpotServer } from '../fakes/hubspot-server.js';
import { NOW, request } from '../support/gateway.js';
import { postgresForTests } from '../support/postgres.js';
import { redisForTests } from '../support/redis.js';

// Issue 32, item 2: a connection made, changed or removed through one instance reaches every other
// instance at once (Redis pub/sub, a channel under REDIS_KEY_PREFIX), not after the 30 s re-read. The clock
// is fixed, so the re-read never happens here: only the announcement can make B see A's change.

const STORED_TOKEN = 'pat-na1-stored-through-instance-a';
const OTHER_TOKEN = 'pat-na1-changed-through-instance-a';
const tenant = `cc-${randomUUID().slice(0, 8)}`;
const ADMIN = `token-${tenant}-admin-0123456789`;
const prefix = `cc-${randomUUID().slice(0, 8)}:`;
const key = newEncryptionKey();
const clock = new FixedClock(NOW);

let hubspot: HubSpotServer;
let pg: { url: string; stop(): Promise<void> } | { skip: string };
let redis: { url: string; stop(): Promise<void> } | { skip: string };
const open: Gateway[] = [];

beforeAll(async () => {
  hubspot = await HubSpotServer.start({ clock, accessTokens: [STORED_TOKEN, OTHER_TOKEN] });
  pg = await postgresForTests();
  redis = await redisForTests();
});
afterAll(async () => {
  for (const g of open) await g.close();
  await hubspot.close();
  if ('stop' in pg) await pg.stop();
  if ('stop' in redis) await redis.stop();
});

const instance = (databaseUrl: string, redisUrl: string): Gateway => {
  const g = createGateway({
    env: {
      CRM_BACKEND: 'hubspot',
      HUBSPOT_BASE_URL: hubspot.baseUrl,
      HUBSPOT_CLIENT_ID: hubspot.oauth.clientId,
      HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret,
      PUBLIC_BASE_URL: 'https://gateway.example',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: prefix,
      GATEWAY_ENCRYPTION_KEY: key,
      GATEWAY_API_KEYS: JSON.stringify([{ name: 'admin', token: ADMIN, permissions: ['*'], tenant }]),
    },
    logger: pino({ level: 'silent' }),
    overrides: { clock },
  });
  open.push(g);
  return g;
};

/** A read that reaches HubSpot (the stand-in holds no contact 101: its 404 is HubSpot's answer). */
const getContact = (g: Gateway) =>
  request(g, 'POST', '/v1/tools/crm/getContact?format=json', { body: { contact_id: '101' }, token: ADMIN });
const REACHED = 404;

/** The bearer token of HubSpot's last CRM request. */
const lastCrmToken = () =>
  hubspot.requests
    .filter((r) => r.path.startsWith('/crm/'))
    .at(-1)
    ?.headers['authorization']?.replace(/^Bearer /, '');

const until = async (done: () => Promise<boolean>, ms: number) => {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('connection changes on several instances', () => {
  it("a connection made through instance A is used by instance B's next call; changed and removed, too", async (ctx) => {
    if ('skip' in pg) return ctx.skip(pg.skip);
    if ('skip' in redis) return ctx.skip(redis.skip);
    const [a, b] = [instance(pg.url, redis.url), instance(pg.url, redis.url)];
    // Both subscribers are listening on the channel under the prefix before anything changes.
    const probe = new Redis(redis.url);
    try {
      await until(async () => {
        const [, n] = (await probe.pubsub('NUMSUB', `${prefix}tg:connection-changes`)) as [string, number];
        return Number(n) === 2;
      }, 10_000);
    } finally {
      probe.disconnect();
    }

    // B reads the store and keeps its answer (no connection) for 30 s of its clock.
    const before = await getContact(b);
    expect(before.status).toBe(409);
    expect(before.body.error.code).toBe('NOT_CONNECTED');

    const saved = await request(a, 'POST', '/v1/connections/hubspot', { body: { key: STORED_TOKEN }, token: ADMIN });
    expect(saved.status).toBe(201);
    expect((await getContact(b)).status).toBe(REACHED);
    expect(lastCrmToken()).toBe(STORED_TOKEN);

    // Changed through A: B's next call uses the new key.
    const changed = await request(a, 'POST', '/v1/connections/hubspot', { body: { key: OTHER_TOKEN }, token: ADMIN });
    expect(changed.status).toBe(201);
    expect((await getContact(b)).status).toBe(REACHED);
    expect(lastCrmToken()).toBe(OTHER_TOKEN);

    // Removed through A: B's next call answers NOT_CONNECTED again.
    expect((await request(a, 'DELETE', '/v1/connections/hubspot', { token: ADMIN })).status).toBe(200);
    const after = await getContact(b);
    expect(after.status).toBe(409);
    expect(after.body.error.code).toBe('NOT_CONNECTED');
  }, 30_000);
});
