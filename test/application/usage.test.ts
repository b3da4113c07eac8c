import { describe, expect, it } from 'vitest';
import { InMemoryUsageStore } from '../../adapters/outbound/memory/in-memory-usage-store.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { GatewayMetrics } from '../../adapters/outbound/observability/gateway-metrics.js';
import { TenantUsageMetrics } from '../../adapters/outbound/observability/usage-metrics.js';
import { countedCall, UsageMeter, usageOutcomeOf } from '../../application/runtime/usage.js';
import type { ToolResult } from '../../application/runtime/executor-types.js';
import { toolError } from '../../application/runtime/tool-error.js';
import type { UsageStore } from '../../ports/usage-store.js';
import { NOW } from '../support/gateway.js';
import { redisForTests } from '../support/redis.js';
import { RedisUsageStore } from '../../adapters/outbound/redis/redis-usage-store.js';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { usageQuotas } from '../../application/runtime/usage-cap.js';
import type { RegisteredTool } from '../../application/runtime/registry.js';
import type { CallContext } from '../../application/runtime/define-tool.js';
import { configuredTenantSettings } from '../../ports/tenant-settings.js';
import { E } from '../../domain/shared/fp.js';
import { loadConfig } from '../../composition/config.js';
import { invalidInput } from '../../domain/shared/errors.js';

// Usage per tenant (issue 32): what a finished call counts, gathered per tenant and added to the store in
// batches; the memory store's periods and bounds; the metrics' bounded tenant label.

const ok = (payload: unknown = {}, replayed = false): ToolResult =>
  ({ ok: true, payload, text: () => '', ...(replayed ? { meta: { replayed: true } } : {}) }) as unknown as ToolResult;
const failed = (status: number): ToolResult => ({ ok: false, error: toolError(status, 'NOT_FOUND', 'x') });
const trace = (matchCount: number) => ({ results: { meta: { results: { matchCount } }, persons: [] } });

describe('what a call counts', () => {
  it('its outcome: ok, accepted (a job started), replayed, refused (4xx) or failed (5xx)', () => {
    expect(usageOutcomeOf(ok())).toBe('ok');
    expect(usageOutcomeOf(ok({}, true))).toBe('replayed');
    // a call that started a job: the job's run counts as its ok or failed (issue 40)
    expect(usageOutcomeOf({ ...ok(), meta: { deferred: true } } as ToolResult)).toBe('accepted');
    expect(usageOutcomeOf(failed(404))).toBe('refused');
    expect(usageOutcomeOf(failed(502))).toBe('failed');
  });

  it('a skip trace that ran counts a lookup and its matches; a replayed one counts neither', () => {
    const call = { tenant: 'acme', tool: 'skiptrace_skipTraceProperty', group: 'skiptrace' };
    expect(countedCall(call, ok(trace(2)), [{ vendor: 'batchdata' }])).toMatchObject({ skipTraces: 1, matches: 2 });
    expect(countedCall(call, ok(trace(0)), [{ vendor: 'batchdata' }])).toMatchObject({ skipTraces: 1, matches: 0 });
    expect(countedCall(call, ok(trace(2), true), [])).toMatchObject({ skipTraces: 0, matches: 0 });
    expect(countedCall({ ...call, tool: 'crm_createContact', group: 'crm' }, ok(trace(2)), [])).toMatchObject({
      skipTraces: 0,
      matches: 0,
    });
  });
});

describe('the usage meter', () => {
  it('adds the counts of many calls in one batch per tenant, and reads this day and month', async () => {
    const clock = new FixedClock(NOW);
    const adds: string[] = [];
    const memory = new InMemoryUsageStore(clock);
    const store: UsageStore = {
      add: (tenant, at, counts) => (adds.push(tenant), memory.add(tenant, at, counts)),
      read: (tenant, at) => memory.read(tenant, at),
      take: () => Promise.resolve(true),
      release: () => Promise.resolve(),
    };
    const meter = new UsageMeter({ store, clock, flushMs: 60_000 });
    const call = { tenant: 'acme', tool: 'crm_createContact', group: 'crm' };
    const hubspot = [
      { vendor: 'hubspot', bytes: 1200, bytesSent: 80 },
      { vendor: 'hubspot', bytes: 300 },
    ];
    meter.count(countedCall(call, ok(), hubspot));
    meter.count(countedCall(call, ok({}, true), []));
    meter.count(
      countedCall({ ...call, tool: 'skiptrace_skipTraceProperty', group: 'skiptrace' }, ok(trace(1)), [
        { vendor: 'batchdata' },
      ]),
    );
    meter.count(countedCall({ ...call, tenant: 'globex' }, failed(404), []));
    expect(adds).toEqual([]); // nothing reaches the store before the batch
    const acme = await meter.read('acme');
    expect(adds.sort()).toEqual(['acme', 'globex']);
    expect(acme.day).toEqual({
      period: '2026-11-21',
      tool_calls: {
        total: 3,
        by_tool: { crm_createContact: { ok: 1, replayed: 1 }, skiptrace_skipTraceProperty: { ok: 1 } },
      },
      vendor_calls: { total: 3, by_vendor: { hubspot: 2, batchdata: 1 } },
      bytes: { vendor_in: 1500, vendor_out: 80 },
      skip_traces: { lookups: 1, matches: 1 },
    });
    expect(acme.month.period).toBe('2026-11');
    expect(acme.month.tool_calls.total).toBe(3);
    expect((await meter.read('globex')).day.tool_calls.by_tool).toEqual({ crm_createContact: { refused: 1 } });

    // The next day starts afresh; the month goes on.
    clock.advance(86_400_000);
    meter.count(countedCall(call, ok(), []));
    const next = await meter.read('acme');
    expect(next.day.tool_calls.total).toBe(1);
    expect(next.month.tool_calls.total).toBe(4);
  });

  it('a failing store is reported and never throws into a call', async () => {
    const errors: unknown[] = [];
    const meter = new UsageMeter({
      store: {
        add: () => Promise.reject(new Error('down')),
        read: () => Promise.reject(new Error('down')),
        take: () => Promise.reject(new Error('down')),
        release: () => Promise.reject(new Error('down')),
      },
      clock: new FixedClock(NOW),
      onError: (e) => errors.push(e),
    });
    meter.count(countedCall({ tenant: 'acme', tool: 't', group: 'g' }, ok(), []));
    await meter.flush();
    expect(errors).toHaveLength(1);
    await expect(meter.read('acme')).rejects.toThrow('down');
  });

  it('gathers at most maxPending tenants before adding them', async () => {
    const adds: number[] = [];
    const meter = new UsageMeter({
      store: {
        add: () => (adds.push(1), Promise.resolve()),
        read: () => Promise.resolve({ day: {}, month: {} }),
        take: () => Promise.resolve(true),
        release: () => Promise.resolve(),
      },
      clock: new FixedClock(NOW),
      flushMs: 60_000,
      maxPending: 3,
    });
    for (let i = 0; i < 4; i++) meter.count(countedCall({ tenant: `t${i}`, tool: 't', group: 'g' }, ok(), []));
    await Promise.resolve();
    expect(adds).toHaveLength(3);
    await meter.close();
    expect(adds).toHaveLength(4);
  });
});

describe('the memory usage store', () => {
  it('is bounded: the oldest periods go first; a period expires after its time', async () => {
    const clock = new FixedClock(NOW);
    const store = new InMemoryUsageStore(clock, 4, 2);
    await store.add('a', NOW, { x: 1, y: 1, z: 1 }); // z is past maxCounters
    expect((await store.read('a', NOW)).day).toEqual({ x: 1, y: 1 });
    await store.add('b', NOW, { x: 1 });
    await store.add('c', NOW, { x: 1 }); // 6 periods wanted, 4 kept: a's go
    expect(await store.read('a', NOW)).toEqual({ day: {}, month: {} });
    expect((await store.read('c', NOW)).day).toEqual({ x: 1 });
    clock.advance(3 * 86_400_000);
    expect(await store.read('c', NOW)).toEqual({ day: {}, month: { x: 1 } });
  });
});

describe('a day quota in the usage store', () => {
  const takeAndRelease = async (store: UsageStore, tenant: string) => {
    expect(await store.take(tenant, NOW, 'quota:x', 2)).toBe(true);
    expect(await store.take(tenant, NOW, 'quota:x', 2)).toBe(true);
    expect(await store.take(tenant, NOW, 'quota:x', 2)).toBe(false);
    await store.release(tenant, NOW, 'quota:x');
    expect(await store.take(tenant, NOW, 'quota:x', 2)).toBe(true);
    expect(await store.take(`${tenant}-other`, NOW, 'quota:x', 2)).toBe(true);
    expect(await store.take(tenant, new Date(NOW.getTime() + 86_400_000), 'quota:x', 2)).toBe(true); // next day
    expect((await store.read(tenant, NOW)).month).not.toHaveProperty('quota:x'); // a day counter only
  };

  it('memory', async () => {
    await takeAndRelease(new InMemoryUsageStore(new FixedClock(NOW)), 'acme');
  });

  it('Redis: two instances share it', async (ctx) => {
    const redis = await redisForTests();
    if ('skip' in redis) return ctx.skip(redis.skip);
    const [a, b] = [new Redis(redis.url), new Redis(redis.url)];
    try {
      const prefix = `usage-test-${randomUUID()}:`;
      await takeAndRelease(new RedisUsageStore(a, prefix), 'acme');
      const other = new RedisUsageStore(b, prefix);
      expect(await other.take('acme', NOW, 'quota:x', 2)).toBe(false);
      const ttl = await a.ttl(`${prefix}acme:2026-11-21`);
      expect(ttl).toBeGreaterThan(2 * 86_400);
      expect(ttl).toBeLessThanOrEqual(3 * 86_400);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });
});

describe('the usage metrics', () => {
  it('label at most N tenants; the rest are "other"', async () => {
    const metrics = new GatewayMetrics();
    const usage = new TenantUsageMetrics(metrics, 1);
    const call = (tenant: string) =>
      countedCall({ tenant, tool: 'crm_createContact', group: 'crm' }, ok(), [{ vendor: 'hubspot' }]);
    usage.count(call('acme'));
    usage.count(call('globex'));
    usage.count(call('initech'));
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'gateway_tenant_usage_tool_calls_total{tenant="acme",tool="crm_createContact",outcome="ok"} 1',
    );
    expect(text).toContain(
      'gateway_tenant_usage_tool_calls_total{tenant="other",tool="crm_createContact",outcome="ok"} 2',
    );
    expect(text).toContain('gateway_tenant_vendor_calls_total{tenant="other",vendor="hubspot"} 2');
    usage.count(countedCall({ tenant: 'acme', tool: 't', group: 'crm' }, ok(), [{ vendor: 'hubspot', bytes: 10 }]));
    expect(await metrics.registry.metrics()).toContain(
      'gateway_tenant_vendor_bytes_total{tenant="acme",direction="in"} 10',
    );
    expect(text).not.toContain('globex');
  });
});

describe('the skip trace cap', () => {
  const tool = { declaration: { group: 'skiptrace' } } as unknown as RegisteredTool;
  const context = {} as CallContext;
  const settings = configuredTenantSettings(
    { humanApproval: 'off', toolSearchAbove: 0 },
    { acme: { skip_traces_per_day: 1 } },
  );

  it('takes one per lookup, gives it back when the lookup fails, and leaves other tenants and tools alone', async () => {
    const store = new InMemoryUsageStore(new FixedClock(NOW));
    const cap = usageQuotas({ store, clock: new FixedClock(NOW), settings });
    let fails = true;
    const useCase = {
      execute: () => () => Promise.resolve(fails ? E.left(invalidInput('no', 'street', 'string')) : E.right('found')),
      preview: () => 'previewed',
    };
    const capped = cap(tool, 'acme', useCase);
    expect((capped as unknown as { preview(): string }).preview()).toBe('previewed');
    expect(E.isLeft(await capped.execute({}, context)())).toBe(true); // failed: given back
    fails = false;
    expect(await capped.execute({}, context)()).toEqual(E.right('found'));
    const refused = await capped.execute({}, context)();
    expect(E.isLeft(refused) && refused.left).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 50_400 });
    expect(cap(tool, 'globex', useCase)).toBe(useCase);
    const crm = { declaration: { group: 'crm' } } as unknown as RegisteredTool;
    expect(cap(crm, 'acme', useCase)).toBe(useCase);
  });

  it('refuses with 503 when the store cannot answer (a cap on spending fails closed)', async () => {
    const errors: unknown[] = [];
    const store = { take: () => Promise.reject(new Error('down')) } as unknown as UsageStore;
    const capped = usageQuotas({ store, clock: new FixedClock(NOW), settings, onError: (e) => errors.push(e) })(
      tool,
      'acme',
      { execute: () => () => Promise.resolve(E.right('found')) },
    );
    const answer = await capped.execute({}, context)();
    expect(E.isLeft(answer) && answer.left).toMatchObject({ _tag: 'Unavailable' });
    expect(errors).toHaveLength(1);
  });
});

describe('TENANT_SETTINGS skip_traces_per_day', () => {
  it('is a whole number of at least 0', () => {
    const of = (v: unknown) => loadConfig({ TENANT_SETTINGS: JSON.stringify({ acme: { skip_traces_per_day: v } }) });
    const ok = of(500);
    expect(E.isRight(ok) && ok.right.tenantSettings.of('acme').skipTracesPerDay).toBe(500);
    expect(E.isRight(ok) && ok.right.tenantSettings.of('globex').skipTracesPerDay).toBeUndefined();
    expect(E.isLeft(of(-1))).toBe(true);
    expect(E.isLeft(of(1.5))).toBe(true);
  });
});
