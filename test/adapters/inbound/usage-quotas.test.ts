import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newEncryptionKey } from '../../../adapters/outbound/persistence/secret-box.js';
import { type Gateway } from '../../../composition/gateway.js';
import { TEST_DATA_DIR } from '../../support/data-dir.js';
import { usageGateways } from '../../support/usage-gateways.js';
import { request } from '../../support/gateway.js';
import { postgresForTests } from '../../support/postgres.js';

// Issue 32: the per-tenant quotas of TENANT_SETTINGS through the real HTTP app (tool_calls_per_day on every
// surface, once a call, a replay taking none; skip_traces_per_month), answering 429 with the quota's name,
// when it resets and Retry-After; the usage counters in the database (the embedded SQLite with a vendor
// backend, kept over a restart, with the vendor's bytes; PostgreSQL shared by two instances).

const run = randomBytes(4).toString('hex');
const ADMIN = 'token-acme-admin-0123456789';
const GLOBEX = 'token-globex-admin-0123456789';
const KEYS = JSON.stringify([
  { name: 'acme-admin', token: ADMIN, permissions: ['*'], tenant: 'acme' },
  { name: 'globex-admin', token: GLOBEX, permissions: ['*'], tenant: 'globex' },
]);

const { gateway, call, dataDir, hubspotEnv, closeNow } = usageGateways();
const usage = async (g: Gateway, token: string) => {
  const answer = await request(g, 'GET', '/v1/usage', { token });
  expect(answer.status).toBe(200);
  return answer.body.data;
};
const mcpCall = (g: Gateway, token: string, name: string, args: unknown) =>
  request(g, 'POST', '/mcp', {
    token,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    rawBody: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });

describe('TENANT_SETTINGS quotas over HTTP', () => {
  it('tool_calls_per_day: every surface takes one a call that runs, a replay none; past it 429 naming the quota', async () => {
    const g = gateway({
      GATEWAY_DATA_DIR: TEST_DATA_DIR,
      GATEWAY_API_KEYS: KEYS,
      TENANT_SETTINGS: JSON.stringify({ acme: { tool_calls_per_day: 4 } }),
    });
    const key = { 'idempotency-key': `k-${randomUUID()}` };
    const create = () => call(g, ADMIN, 'crm/createContact', { values: { email: 'q@acme.example' } }, key);
    expect((await create()).status).toBe(200); // 1
    const replayed = await create(); // a replay runs nothing: takes none
    expect(replayed.status).toBe(200);
    expect((await call(g, ADMIN, 'crm/getContact', { contact_id: '999999' })).status).toBe(404); // 2: it ran
    const form = await request(g, 'POST', '/v1/tools/call?format=json', {
      token: ADMIN,
      body: { name: 'crm_getContact', arguments: { contact_id: '999999' } },
    });
    expect(form.status).toBe(404); // 3
    const viaMcp = await mcpCall(g, ADMIN, 'crm_getContact', { contact_id: '999999' }); // 4
    expect(viaMcp.status).toBe(200);
    expect(JSON.stringify(viaMcp.body)).not.toContain('RATE_LIMITED');

    const refused = await call(g, ADMIN, 'crm/getContact', { contact_id: '999999' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.body.error.message).toContain("This workspace's 4 tool calls a day are used up");
    expect(refused.body.error.message).toContain('TENANT_SETTINGS tool_calls_per_day');
    expect(refused.body.error.message).toContain('at midnight UTC (2026-11-22T00:00:00.000Z), in 50400 s');
    expect(refused.headers.get('retry-after')).toBe('50400'); // NOW is 10:00 UTC
    const overMcp = await mcpCall(g, ADMIN, 'crm_getContact', { contact_id: '999999' });
    expect(JSON.stringify(overMcp.body)).toContain('4 tool calls a day are used up');
    // A replay still answers (it runs nothing); another tenant has no quota.
    expect((await create()).status).toBe(200);
    expect((await call(g, GLOBEX, 'crm/getContact', { contact_id: '999999' })).status).toBe(404);

    const day = (await usage(g, ADMIN)).day;
    expect(day.tool_calls.by_tool.crm_createContact).toEqual({ ok: 1, replayed: 2 });
    expect(day.tool_calls.by_tool.crm_getContact).toEqual({ refused: 5 }); // 3 ran, 2 refused by the quota
  });

  it('skip_traces_per_month: past it 429 until the first of the next month', async () => {
    const g = gateway({
      GATEWAY_DATA_DIR: TEST_DATA_DIR,
      GATEWAY_API_KEYS: KEYS,
      TENANT_SETTINGS: JSON.stringify({ acme: { skip_traces_per_month: 1, skip_traces_per_day: 5 } }),
    });
    const lookup = () => call(g, ADMIN, 'skiptrace/skipTraceProperty', { street: '1011 Rosegold St', zip: '11010' });
    expect((await lookup()).status).toBe(200);
    const capped = await lookup();
    expect(capped.status).toBe(429);
    expect(capped.body.error.message).toContain("This workspace's monthly cap of 1 skip traces is reached");
    expect(capped.body.error.message).toContain('TENANT_SETTINGS skip_traces_per_month');
    expect(capped.body.error.message).toContain('on the first of next month, 00:00 UTC (2026-12-01T00:00:00.000Z)');
    expect(capped.headers.get('retry-after')).toBe(String(9 * 86_400 + 14 * 3600));
    expect((await usage(g, ADMIN)).month.skip_traces).toEqual({ lookups: 1, matches: 1 });
  });
});

describe('usage in the database', () => {
  it('the embedded SQLite with a vendor backend: counts and vendor bytes kept over a restart', async () => {
    const env = await hubspotEnv(ADMIN, dataDir('usage-db-'));
    const first = gateway(env);
    expect((await call(first, ADMIN, 'crm/getProperties', { object_type: 'contacts' })).status).toBe(200);
    const seen = (await usage(first, ADMIN)).day;
    expect(seen.vendor_calls).toEqual({ total: 1, by_vendor: { HubSpot: 1 } });
    expect(seen.bytes.vendor_in).toBeGreaterThan(100);
    expect(seen.bytes.vendor_out).toBe(0); // a GET sends no body
    const metrics = await (await first.http.request('/metrics')).text();
    expect(metrics).toMatch(/gateway_tenant_vendor_bytes_total\{tenant="default",direction="in"\} [1-9]/);
    await closeNow(first);

    const second = gateway(env);
    const kept = (await usage(second, ADMIN)).day;
    expect(kept.tool_calls.by_tool).toEqual({ crm_getProperties: { ok: 1 } });
    expect(kept.bytes).toEqual(seen.bytes);
  });

  it('PostgreSQL: two instances count together and share a quota exactly', async (ctx) => {
    const pg = await postgresForTests();
    if ('skip' in pg) return ctx.skip(pg.skip);
    const tenant = `usage-${run}`;
    const token = `token-${tenant}-admin-0123456789`;
    const env = {
      DATABASE_URL: pg.url,
      GATEWAY_ENCRYPTION_KEY: newEncryptionKey(),
      GATEWAY_DATA_DIR: TEST_DATA_DIR,
      GATEWAY_API_KEYS: JSON.stringify([{ name: 'admin', token, permissions: ['*'], tenant }]),
      TENANT_SETTINGS: JSON.stringify({ [tenant]: { tool_calls_per_day: 10 } }),
      RATE_LIMIT_PER_MINUTE: '100000',
    };
    const [a, b] = [gateway(env), gateway(env)] as const;
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => call(i % 2 ? a : b, token, 'crm/getContact', { contact_id: '999999' })),
    );
    expect(answers.filter((r) => r.status === 404)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(6);
    await closeNow(b); // its counts go to the database as it closes
    const day = (await usage(a, token)).day;
    expect(day.tool_calls.by_tool).toEqual({ crm_getContact: { refused: 16 } });
    await pg.stop();
  });
});
