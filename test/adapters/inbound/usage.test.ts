import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Gateway } from '../../../composition/gateway.js';
import { TEST_DATA_DIR } from '../../support/data-dir.js';
import { usageGateways } from '../../support/usage-gateways.js';
import { request } from '../../support/gateway.js';
import { redisForTests } from '../../support/redis.js';

// Usage per tenant (issue 32): GET /v1/usage (audit:read) answers the caller's tenant's tool calls by tool and
// outcome, vendor calls by vendor and skip traces with their matches, this UTC day and month; the metrics
// carry a bounded tenant label; with Redis, instances count together.

const ADMIN = 'token-acme-admin-0123456789';
const AGENT = 'token-acme-agent-0123456789';
const GLOBEX = 'token-globex-admin-0123456789';
const KEYS = JSON.stringify([
  { name: 'acme-admin', token: ADMIN, permissions: ['*'], tenant: 'acme' },
  { name: 'acme-agent', token: AGENT, permissions: ['crm:*', 'skiptrace:*'], tenant: 'acme' },
  { name: 'globex-admin', token: GLOBEX, permissions: ['*'], tenant: 'globex' },
]);

const { gateway, call, hubspotEnv } = usageGateways();
const usage = (g: Gateway, token: string) => request(g, 'GET', '/v1/usage', { token });

describe('GET /v1/usage', () => {
  it("answers the caller's tenant's calls, replays, skip traces and matches; needs audit:read", async () => {
    const g = gateway({ GATEWAY_DATA_DIR: TEST_DATA_DIR, GATEWAY_API_KEYS: KEYS, USAGE_TENANT_LABELS: '1' });
    const key = { 'idempotency-key': `k-${randomUUID()}` };
    expect((await call(g, AGENT, 'crm/createContact', { values: { email: 'u@acme.example' } }, key)).status).toBe(200);
    expect((await call(g, AGENT, 'crm/createContact', { values: { email: 'u@acme.example' } }, key)).status).toBe(200);
    expect((await call(g, AGENT, 'crm/getContact', { contact_id: '999999' })).status).toBe(404);
    const traced = await call(g, AGENT, 'skiptrace/skipTraceProperty', { street: '1011 Rosegold St', zip: '11010' });
    expect(traced.status).toBe(200);
    await call(g, GLOBEX, 'crm/getContact', { contact_id: '999999' });

    expect((await request(g, 'GET', '/v1/usage', { token: null })).status).toBe(401);
    const refused = await usage(g, AGENT);
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('audit:read');

    const answer = await usage(g, ADMIN);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const { data } = answer.body;
    expect(data.tenant).toBe('acme');
    expect(data.day).toEqual({
      period: '2026-11-21',
      resets_at: '2026-11-22T00:00:00.000Z',
      tool_calls: {
        total: 4,
        by_tool: {
          crm_createContact: { ok: 1, replayed: 1 },
          crm_getContact: { refused: 1 },
          skiptrace_skipTraceProperty: { ok: 1 },
        },
      },
      vendor_calls: { total: 0, by_vendor: {} }, // memory mode calls no vendor
      bytes: { vendor_in: 0, vendor_out: 0 },
      skip_traces: { lookups: 1, matches: 1 },
    });
    expect(data.month).toMatchObject({ period: '2026-11', resets_at: '2026-12-01T00:00:00.000Z' });
    expect(data.month.tool_calls.total).toBe(4);
    const globex = (await usage(g, GLOBEX)).body.data;
    expect(globex.day.tool_calls.by_tool).toEqual({ crm_getContact: { refused: 1 } });

    // One tenant labelled (USAGE_TENANT_LABELS=1): the other is "other".
    const metrics = await (await g.http.request('/metrics')).text();
    expect(metrics).toContain(
      'gateway_tenant_usage_tool_calls_total{tenant="acme",tool="crm_createContact",outcome="replayed"} 1',
    );
    expect(metrics).toContain('gateway_tenant_skiptrace_matches_total{tenant="acme"} 1');
    expect(metrics).toContain(
      'gateway_tenant_usage_tool_calls_total{tenant="other",tool="crm_getContact",outcome="refused"} 1',
    );
  });

  it('a daily cap on skip traces (TENANT_SETTINGS skip_traces_per_day) answers 429 saying which cap and when it resets', async () => {
    const g = gateway({
      GATEWAY_DATA_DIR: TEST_DATA_DIR,
      GATEWAY_API_KEYS: KEYS,
      TENANT_SETTINGS: JSON.stringify({ acme: { skip_traces_per_day: 1 } }),
    });
    const lookup = (token: string, body: unknown = { street: '1011 Rosegold St', zip: '11010' }) =>
      call(g, token, 'skiptrace/skipTraceProperty', body);
    // A lookup that fails (no property identified) gives its place back.
    const invalid = await lookup(AGENT, { state: 'NY' });
    expect(invalid.status).toBe(400);
    expect((await lookup(AGENT)).status).toBe(200);
    const capped = await lookup(AGENT);
    expect(capped.status).toBe(429);
    expect(capped.body.error.code).toBe('RATE_LIMITED');
    expect(capped.body.error.message).toContain('daily cap of 1 skip traces');
    expect(capped.body.error.message).toContain('at midnight UTC (2026-11-22T00:00:00.000Z), in 50400 s');
    expect(capped.headers.get('retry-after')).toBe('50400'); // NOW is 10:00 UTC
    // Another tenant has no cap.
    expect((await lookup(GLOBEX)).status).toBe(200);
    expect((await lookup(GLOBEX)).status).toBe(200);
    const acme = (await usage(g, ADMIN)).body.data.day;
    expect(acme.skip_traces).toEqual({ lookups: 1, matches: 1 });
    expect(acme.tool_calls.by_tool.skiptrace_skipTraceProperty).toEqual({ ok: 1, refused: 2 });
  });

  it('two instances sharing Redis count together, vendor calls by vendor', async (ctx) => {
    const redis = await redisForTests();
    if ('skip' in redis) return ctx.skip(redis.skip);
    const prefix = `usage-${randomUUID().slice(0, 8)}:`;
    const instance = async () =>
      gateway({ ...(await hubspotEnv(ADMIN)), REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix });
    const [a, b] = [await instance(), await instance()] as const;
    expect((await call(a, ADMIN, 'crm/getProperties', { object_type: 'contacts' })).status).toBe(200);
    expect((await call(b, ADMIN, 'crm/getProperties', { object_type: 'contacts' })).status).toBe(200);
    // A reads its own count at once; B adds its counts within about a second.
    const started = Date.now();
    let seen = (await usage(a, ADMIN)).body.data.day;
    while (seen.tool_calls.total < 2 && Date.now() - started < 5000) {
      await new Promise((r) => setTimeout(r, 100));
      seen = (await usage(a, ADMIN)).body.data.day;
    }
    expect(Date.now() - started).toBeLessThan(2500);
    expect(seen.tool_calls.by_tool).toEqual({ crm_getProperties: { ok: 2 } });
    expect(seen.vendor_calls).toEqual({ total: 2, by_vendor: { HubSpot: 2 } });
  });
});
