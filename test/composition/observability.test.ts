import { TEST_DATA_DIR } from '../support/data-dir.js';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../composition/gateway.js';
import { HubSpotServer, HUBSPOT_TEST_TOKEN } from '../fakes/hubspot-server.js';
import { request } from '../support/gateway.js';

const TOKEN = 'observability-token-123';

const captured = () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
};

describe('logs and metrics', () => {
  let hubspot: HubSpotServer;
  afterAll(async () => hubspot?.close());

  it('writes one structured line per tool call, with upstream calls, and never the token', async () => {
    hubspot = await HubSpotServer.start();
    const { lines, logger } = captured();
    const g = createGateway({
      env: {
        GATEWAY_DEMO_TOKEN: TOKEN,
        CRM_BACKEND: 'hubspot',
        GATEWAY_DATA_DIR: TEST_DATA_DIR,
        HUBSPOT_BASE_URL: hubspot.baseUrl,
        HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN,
      },
      logger,
    });
    const r = await request(g, 'POST', '/v1/tools/crm/getProperties', {
      body: { object_type: 'contacts' },
      token: TOKEN,
      headers: { 'x-request-id': 'req-obs-1' },
    });
    expect(r.status).toBe(200);
    await request(g, 'POST', '/v1/tools/crm/getContact', { body: {}, token: TOKEN });
    const calls = lines.filter((l) => l['msg'] === 'tool call');
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({
      requestId: 'req-obs-1',
      principal: 'demo',
      tool: 'crm_getProperties',
      status: 200,
      upstreamCalls: 1,
    });
    expect(typeof calls[0]!['durationMs']).toBe('number');
    expect(calls[0]!['upstream']).toEqual([expect.stringMatching(/^HubSpot GET 200 \d+ms$/)]);
    expect(calls[1]).toMatchObject({
      tool: 'crm_getContact',
      status: 400,
      code: 'INVALID_PARAMETER',
      upstreamCalls: 0,
    });
    await request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token: 'not-a-valid-token' });
    const refused = lines.filter((l) => l['msg'] === 'request refused');
    expect(refused).toEqual([
      expect.objectContaining({ path: '/v1/tools/crm/getContact', status: 401, code: 'UNAUTHORIZED' }),
    ]);
    const all = JSON.stringify(lines);
    expect(all).not.toContain('not-a-valid-token');
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(HUBSPOT_TEST_TOKEN);

    const metrics = await request(g, 'GET', '/metrics', { token: null });
    expect(metrics.status).toBe(200);
    expect(metrics.raw).toContain('gateway_tool_calls_total{tool="crm_getProperties",status="200"} 1');
    expect(metrics.raw).toContain('gateway_tool_calls_total{tool="crm_getContact",status="400"} 1');
    expect(metrics.raw).toContain('gateway_upstream_calls_total{vendor="HubSpot",status="200"} 1');
    expect(metrics.raw).toMatch(
      /gateway_tool_call_duration_seconds_bucket\{le="0.005",tool="crm_getProperties",status="200"\}/,
    );
    expect(metrics.raw).toContain('gateway_process_cpu_user_seconds_total');
    expect(metrics.raw).toContain('gateway_rejected_requests_total{status="401"} 1');
  });

  it('counts rate-limit refusals per group', async () => {
    const { logger } = captured();
    const g = createGateway({ env: { GATEWAY_DEMO_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: '1' }, logger });
    await request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token: TOKEN });
    await request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token: TOKEN });
    const metrics = await request(g, 'GET', '/metrics', { token: null });
    expect(metrics.raw).toContain('gateway_rate_limit_refusals_total{group="crm"} 1');
  });

  it('guards /metrics with METRICS_TOKEN when it is set', async () => {
    const g = createGateway({
      env: { GATEWAY_DEMO_TOKEN: TOKEN, METRICS_TOKEN: 'metrics-secret-1', LOG_LEVEL: 'silent' },
    });
    expect((await request(g, 'GET', '/metrics', { token: null })).status).toBe(401);
    expect((await request(g, 'GET', '/metrics', { token: 'wrong-token-1' })).status).toBe(401);
    expect((await request(g, 'GET', '/metrics', { token: 'metrics-secret-1' })).status).toBe(200);
  });
});

describe('health', () => {
  it('answers /healthz, and /readyz until the gateway drains', async () => {
    const g = createGateway({ env: { LOG_LEVEL: 'silent' } });
    expect((await request(g, 'GET', '/healthz', { token: null })).body).toEqual({ status: 'ok' });
    const ready = await request(g, 'GET', '/readyz', { token: null });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { configuration: true, accepting: true } });
    g.drain();
    const draining = await request(g, 'GET', '/readyz', { token: null });
    expect(draining.status).toBe(503);
    expect(draining.body.checks.accepting).toBe(false);
  });

  it('reports an unreachable Redis as degraded, not as not ready (it is shared: every instance would fail at once)', async () => {
    const g = createGateway({
      env: { LOG_LEVEL: 'silent', REDIS_URL: 'redis://127.0.0.1:1', METRICS_TOKEN: 'metrics-token-0123456789' },
    });
    const r = await request(g, 'GET', '/readyz', { token: null });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'degraded', checks: { configuration: true, accepting: true, redis: 'down' } });
    const scraped = await request(g, 'GET', '/metrics', { token: 'metrics-token-0123456789' });
    expect(scraped.raw).toMatch(/^gateway_dependency_up\{dependency="redis"\} 0$/m);
    g.drain();
    const draining = await request(g, 'GET', '/readyz', { token: null });
    expect(draining.status).toBe(503);
    expect(draining.body.status).toBe('not ready');
    await g.close();
  }, 15_000);
});
