import pino from 'pino';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../../composition/gateway.js';
import { HUBSPOT_TEST_TOKEN, HubSpotServer, rateLimitBody } from '../../fakes/hubspot-server.js';
import { TEST_DATA_DIR } from '../../support/data-dir.js';
import { request } from '../../support/gateway.js';
import { SKIP_REASONS, skipUnless } from '../../support/skips.js';

// The vendor's bad moments, through HTTP against the HubSpot stand-in: a 429 with Retry-After and two
// 503s are absorbed by retries within the same call; a write is never retried once it may have reached
// HubSpot; a vendor that keeps failing trips the breaker, after which calls answer at once until it
// half-opens and a probe finds it well again.

const TOKEN = 'faults-demo-token-0123456789';
let hubspot: HubSpotServer;
let g: Gateway;

beforeAll(async () => {
  hubspot = await HubSpotServer.start();
  g = createGateway({
    env: {
      GATEWAY_DEMO_TOKEN: TOKEN,
      GATEWAY_DATA_DIR: TEST_DATA_DIR,
      CRM_BACKEND: 'hubspot',
      HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN,
      HUBSPOT_BASE_URL: hubspot.baseUrl,
      UPSTREAM_BREAKER_FAILURES: '4',
      UPSTREAM_BREAKER_HALF_OPEN_MS: '1500',
    },
    logger: pino({ level: 'silent' }),
  });
});
afterAll(async () => {
  await g.close();
  await hubspot.close();
});

const read = () =>
  request(g, 'POST', '/v1/tools/crm/getContact?format=json', { body: { contact_id: contactId }, token: TOKEN });
let contactId = '';
const calls = (method: string, path: RegExp) =>
  hubspot.requests.filter((r) => r.method === method && path.test(r.path)).length;
const CONTACT = /^\/crm\/v3\/objects\/contacts\/\d+$/;

describe('upstream faults', () => {
  it('gets ready: one contact to read', async () => {
    const made = await request(g, 'POST', '/v1/tools/crm/createContact?format=json', {
      body: { values: { email: 'faults@example.com' } },
      token: TOKEN,
    });
    expect(made.status).toBe(200);
    contactId = String(made.body.data.id);
  });

  it('absorbs a 429 with Retry-After: 1 on a read, answering about a second later', async () => {
    const before = calls('GET', CONTACT);
    hubspot.failNext(429, rateLimitBody('TEN_SECONDLY_ROLLING'), {
      'Retry-After': '1',
      'X-HubSpot-RateLimit-Remaining': '0',
      'X-HubSpot-RateLimit-Daily-Remaining': '249000',
    });
    const started = Date.now();
    const r = await read();
    const took = Date.now() - started;
    expect(r.status).toBe(200);
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(5000);
    expect(calls('GET', CONTACT) - before).toBe(2);
    // What HubSpot said about the quota is on /metrics.
    const metrics = await (await g.http.request('/metrics')).text();
    expect(metrics).toContain('gateway_upstream_quota_remaining{vendor="HubSpot",window="interval"} 0');
    expect(metrics).toContain('gateway_upstream_quota_remaining{vendor="HubSpot",window="daily"} 249000');
  });

  it('absorbs two 503s, then answers with the 200', async () => {
    const before = calls('GET', CONTACT);
    hubspot.failNext(503, { status: 'error', message: 'unavailable' });
    hubspot.failNext(503, { status: 'error', message: 'unavailable' });
    const r = await read();
    expect(r.status).toBe(200);
    expect(calls('GET', CONTACT) - before).toBe(3);
  });

  it('retries a search, a POST that only reads, like a GET', async () => {
    const before = calls('POST', /\/contacts\/search$/);
    hubspot.failNext(503, { status: 'error', message: 'unavailable' });
    const r = await request(g, 'POST', '/v1/tools/crm/searchContacts?format=json', {
      body: { query: 'faults@example.com' },
      token: TOKEN,
    });
    expect(r.status).toBe(200);
    expect(calls('POST', /\/contacts\/search$/) - before).toBe(2);
  });

  it('never retries a write that may have reached HubSpot', async () => {
    const before = calls('POST', /^\/crm\/v3\/objects\/contacts$/);
    hubspot.failNext(503, { status: 'error', message: 'unavailable' });
    const r = await request(g, 'POST', '/v1/tools/crm/createContact?format=json', {
      body: { values: { email: 'once@example.com' } },
      token: TOKEN,
    });
    expect(r.status).toBe(502);
    expect(r.body.error.details.retryable).toBe(true);
    expect(calls('POST', /^\/crm\/v3\/objects\/contacts$/) - before).toBe(1);
  });

  it('trips the breaker when HubSpot keeps failing, answers at once while open, and recovers after a probe', async () => {
    for (let i = 0; i < 12; i++) hubspot.failNext(503, { status: 'error', message: 'down' });
    // Each read makes up to 3 attempts: the breaker (4 consecutive failures) opens during the second.
    expect((await read()).status).toBe(502);
    expect((await read()).status).toBe(502);
    const sent = hubspot.requests.length;
    const started = performance.now();
    const fast = await read();
    const took = performance.now() - started;
    expect(fast.status).toBe(502);
    expect(fast.body.error.details).toMatchObject({ retryable: true, retry_after_seconds: 2 });
    // What proves the breaker is that nothing reached HubSpot; the time only guards against waiting (for
    // a vendor time limit or back-off), with room for a loaded machine: speed itself is measured in bench/.
    expect(took).toBeLessThan(1000);
    expect(hubspot.requests.length).toBe(sent); // nothing reached HubSpot

    const metrics = await g.http.request('/metrics');
    expect(await metrics.text()).toContain('gateway_upstream_breaker_state{vendor="HubSpot"} 1');

    // HubSpot is well again (the failures left queued are dropped); after the half-open delay a probe goes through.
    await new Promise((r) => setTimeout(r, 1600));
    hubspot.clearFailures();
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
  });
});

describe('vendor quotas', () => {
  it("refuses early, without calling HubSpot, once the connection's daily quota is down to the reserve", async () => {
    const own = createGateway({
      env: {
        GATEWAY_DEMO_TOKEN: TOKEN,
        GATEWAY_DATA_DIR: TEST_DATA_DIR,
        CRM_BACKEND: 'hubspot',
        HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN,
        HUBSPOT_BASE_URL: hubspot.baseUrl,
        UPSTREAM_QUOTA_RESERVE: '10',
      },
      logger: pino({ level: 'silent' }),
    });
    try {
      const made = await request(own, 'POST', '/v1/tools/crm/createContact?format=json', {
        body: { values: { email: 'quota@example.com' } },
        token: TOKEN,
      });
      const id = String(made.body.data.id);
      const read = () =>
        request(own, 'POST', '/v1/tools/crm/getContact?format=json', { body: { contact_id: id }, token: TOKEN });
      const plenty = await read();
      expect(plenty.status).toBe(200);
      // HubSpot says 8 calls are left today: the answer still arrives, the next call is not sent.
      const contact = hubspot.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/contacts/${id}`)).length;
      hubspot.failNext(
        200,
        {
          id,
          properties: { email: 'quota@example.com' },
          createdAt: '2026-01-01T00:00:00Z',
          updatedAt: '2026-01-01T00:00:00Z',
          archived: false,
        },
        { 'X-HubSpot-RateLimit-Daily-Remaining': '8', 'X-HubSpot-RateLimit-Remaining': '90' },
      );
      expect((await read()).status).toBe(200);
      const refused = await read();
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(refused.body.error.message).toContain('daily call quota');
      expect(refused.body.error.details.retry_after_seconds).toBeGreaterThan(0);
      expect(hubspot.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/contacts/${id}`)).length).toBe(
        contact + 1,
      );
    } finally {
      await own.close();
    }
  });

  it.skipIf(skipUnless(process.env['REDIS_URL'], SKIP_REASONS.redis))(
    "shares a connection's low daily quota between instances on one Redis",
    async () => {
      const instance = () =>
        createGateway({
          env: {
            GATEWAY_DEMO_TOKEN: TOKEN,
            GATEWAY_DATA_DIR: TEST_DATA_DIR,
            REDIS_URL: process.env['REDIS_URL']!,
            CRM_BACKEND: 'hubspot',
            // a token of its own, so that the shared count belongs to this test's connection only
            HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN,
            HUBSPOT_BASE_URL: hubspot.baseUrl,
            UPSTREAM_QUOTA_RESERVE: '10',
          },
          logger: pino({ level: 'silent' }),
        });
      const [a, b] = [instance(), instance()];
      try {
        const made = await request(a, 'POST', '/v1/tools/crm/createContact?format=json', {
          body: { values: { email: `shared-quota-${Date.now()}@example.com` } },
          token: TOKEN,
        });
        const id = String(made.body.data.id);
        const body = {
          id,
          properties: {},
          createdAt: '2026-01-01T00:00:00Z',
          updatedAt: '2026-01-01T00:00:00Z',
          archived: false,
        };
        const readOn = (g: Gateway) =>
          request(g, 'POST', '/v1/tools/crm/getContact?format=json', { body: { contact_id: id }, token: TOKEN });
        // B has seen HubSpot's counts (plenty left); then A hears that 7 calls are left today.
        hubspot.failNext(200, body, { 'X-HubSpot-RateLimit-Daily-Remaining': '5000' });
        expect((await readOn(b)).status).toBe(200);
        hubspot.failNext(200, body, { 'X-HubSpot-RateLimit-Daily-Remaining': '7' });
        expect((await readOn(a)).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 100));
        const sent = hubspot.requests.length;
        const refused = await readOn(b);
        expect(refused.status).toBe(429);
        expect(refused.body.error.message).toContain('daily call quota');
        expect(hubspot.requests.length).toBe(sent);
      } finally {
        await a.close();
        await b.close();
        // the shared count would otherwise outlive the test (until midnight UTC)
        const redis = new Redis(process.env['REDIS_URL']!);
        const keys = await redis.keys('*quota:HubSpot:*');
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      }
    },
  );
});
