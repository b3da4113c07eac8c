import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEncryptionKey } from '../../adapters/outbound/persistence/secret-box.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import { HubSpotServer } from '../fakes/hubspot-server.js';
import { NOW, request } from '../support/gateway.js';
import { signInOnConnectPage } from '../support/connect-flow.js';
import { redisForTests } from '../support/redis.js';

// Issue 43: the connect page's wrong-key limit (10 per link in 10 minutes) is one limit for all instances when
// Redis is configured (the gateway's rate limiter), so spreading guesses at one seen link over the instances
// behind a load balancer gains nothing. Skipped without REDIS_URL.

let hubspot: HubSpotServer;
let redis: { url: string; stop(): Promise<void> } | { skip: string };
const clock = new FixedClock(NOW);
const gateways: Gateway[] = [];
const dirs: string[] = [];
const tenant = `t${randomUUID().slice(0, 8)}`;
const AGENT = `token-${tenant}-agent-0123456789`;
const key = newEncryptionKey();

beforeAll(async () => {
  hubspot = await HubSpotServer.start({ clock });
  redis = await redisForTests();
});
afterAll(async () => {
  for (const g of gateways) await g.close();
  await hubspot.close();
  if ('stop' in redis) await redis.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const instance = (): Gateway => {
  if (!('url' in redis)) throw new Error('no Redis');
  const dir = mkdtempSync(join(tmpdir(), 'gateway-wrong-keys-'));
  dirs.push(dir);
  const g = createGateway({
    env: {
      CRM_BACKEND: 'hubspot',
      HUBSPOT_BASE_URL: hubspot.baseUrl,
      HUBSPOT_CLIENT_ID: hubspot.oauth.clientId,
      HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret,
      PUBLIC_BASE_URL: 'https://gateway.example',
      GATEWAY_DATA_DIR: dir,
      REDIS_URL: redis.url,
      // The same key on both: a link made on one opens on the other.
      GATEWAY_ENCRYPTION_KEY: key,
      GATEWAY_API_KEYS: JSON.stringify([{ name: 'agent', token: AGENT, permissions: ['crm:*'], tenant }]),
    },
    logger: pino({ level: 'silent' }),
    overrides: { clock },
  });
  gateways.push(g);
  return g;
};

describe('wrong keys at one connect link, across instances', () => {
  it('count together: 6 on one instance and 4 on the other stop the link on both, even for the right key', async (ctx) => {
    if ('skip' in redis) return ctx.skip(redis.skip);
    const [a, b] = [instance(), instance()];
    const denied = await request(a, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token: AGENT });
    expect(denied.body.error.code).toBe('NOT_CONNECTED');
    const link = denied.body.error.details.connect_url as string;
    const wrong = `token-not-a-key-${randomUUID()}`;
    for (let i = 0; i < 6; i++) expect((await signInOnConnectPage(a, link, wrong)).status).toBe(401);
    for (let i = 0; i < 4; i++) expect((await signInOnConnectPage(b, link, wrong)).status).toBe(401);
    // Per instance, each would still take keys (6 and 4 of 10); together the link has had its ten.
    for (const g of [a, b]) {
      const limited = await signInOnConnectPage(g, link, AGENT);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('location')).toBeNull();
      expect(await limited.text()).toContain('Too many wrong keys for this link');
    }
  });
});
