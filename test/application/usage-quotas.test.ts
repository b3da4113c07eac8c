import { describe, expect, it } from 'vitest';
import { InMemoryUsageStore } from '../../adapters/outbound/memory/in-memory-usage-store.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import type { CallContext } from '../../application/runtime/define-tool.js';
import type { RegisteredTool } from '../../application/runtime/registry.js';
import { quotaResetOf, SKIP_TRACE_QUOTA, TOOL_CALL_QUOTA, usageQuotas } from '../../application/runtime/usage-cap.js';
import { loadConfig } from '../../composition/config.js';
import { invalidInput } from '../../domain/shared/errors.js';
import { E } from '../../domain/shared/fp.js';
import { configuredTenantSettings } from '../../ports/tenant-settings.js';
import type { UsageStore } from '../../ports/usage-store.js';

// Issue 32: the quotas of TENANT_SETTINGS around a tool's use case: tool_calls_per_day (taken as a call starts,
// never given back), skip_traces_per_day and skip_traces_per_month (given back when the lookup fails); a call
// refused by one quota gives back what it took of the others; the message names the quota and its reset.

const NOW = new Date('2026-11-21T10:00:00.000Z');
const context = {} as CallContext;
const skipTrace = { declaration: { group: 'skiptrace' } } as unknown as RegisteredTool;
const crm = { declaration: { group: 'crm' } } as unknown as RegisteredTool;
const defaults = { humanApproval: 'off', toolSearchAbove: 0 } as const;

const useCase = (fails: () => boolean) => ({
  runs: 0,
  execute(this: { runs: number }) {
    return () => {
      this.runs++;
      return Promise.resolve(fails() ? E.left(invalidInput('no', 'street', 'string')) : E.right('done'));
    };
  },
});

describe('the usage quotas', () => {
  it('tool_calls_per_day: one a call, a failed call keeps it; past it 429 naming the quota and midnight UTC', async () => {
    const store = new InMemoryUsageStore(new FixedClock(NOW));
    const settings = configuredTenantSettings(defaults, { acme: { tool_calls_per_day: 2 } });
    const wrap = usageQuotas({ store, clock: new FixedClock(NOW), settings });
    let fails = true;
    const inner = useCase(() => fails);
    const quota = wrap(crm, 'acme', inner);
    expect(E.isLeft(await quota.execute({}, context)())).toBe(true); // ran and failed: counted
    fails = false;
    expect(await quota.execute({}, context)()).toEqual(E.right('done'));
    const refused = await quota.execute({}, context)();
    expect(inner.runs).toBe(2);
    expect(E.isLeft(refused) && refused.left).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 50_400 });
    expect(E.isLeft(refused) && refused.left.message).toBe(
      "This workspace's 2 tool calls a day are used up (TENANT_SETTINGS tool_calls_per_day). Nothing was run. The quota resets at midnight UTC (2026-11-22T00:00:00.000Z), in 50400 s.",
    );
    expect((await store.read('acme', NOW)).day[TOOL_CALL_QUOTA]).toBe(2);
    // Another tenant, or a tool of a tenant with no quota, is left as it is.
    expect(wrap(crm, 'globex', inner)).toBe(inner);
  });

  it('formats the limit ("1,000 tool calls a day")', async () => {
    const store = { take: () => Promise.resolve(false), release: () => Promise.resolve() } as unknown as UsageStore;
    const settings = configuredTenantSettings(defaults, { acme: { tool_calls_per_day: 1000 } });
    const refused = await usageQuotas({ store, clock: new FixedClock(NOW), settings })(
      crm,
      'acme',
      useCase(() => false),
    ).execute({}, context)();
    expect(E.isLeft(refused) && refused.left.message).toContain("This workspace's 1,000 tool calls a day are used up");
  });

  it('skip_traces_per_month: past it 429 until the first of next month; a failed lookup gives day and month back', async () => {
    const store = new InMemoryUsageStore(new FixedClock(NOW));
    const settings = configuredTenantSettings(defaults, {
      acme: { skip_traces_per_day: 5, skip_traces_per_month: 1 },
    });
    let fails = true;
    const quota = usageQuotas({ store, clock: new FixedClock(NOW), settings })(
      skipTrace,
      'acme',
      useCase(() => fails),
    );
    expect(E.isLeft(await quota.execute({}, context)())).toBe(true);
    const counts = await store.read('acme', NOW);
    expect(counts.day[SKIP_TRACE_QUOTA]).toBe(0);
    expect(counts.month[SKIP_TRACE_QUOTA]).toBe(0);
    fails = false;
    expect(await quota.execute({}, context)()).toEqual(E.right('done'));
    const refused = await quota.execute({}, context)();
    expect(E.isLeft(refused) && refused.left).toMatchObject({
      _tag: 'RateLimited',
      retryAfterSeconds: 9 * 86_400 + 14 * 3600,
    });
    expect(E.isLeft(refused) && refused.left.message).toContain(
      'monthly cap of 1 skip traces is reached (TENANT_SETTINGS skip_traces_per_month). Nothing was looked up. The cap resets on the first of next month, 00:00 UTC (2026-12-01T00:00:00.000Z)',
    );
    // Refused by the month: what the day gave is given back.
    expect((await store.read('acme', NOW)).day[SKIP_TRACE_QUOTA]).toBe(1);
  });

  it('a call refused by one quota gives back what it took of the others', async () => {
    const store = new InMemoryUsageStore(new FixedClock(NOW));
    const settings = configuredTenantSettings(defaults, {
      acme: { skip_traces_per_day: 0, tool_calls_per_day: 10 },
    });
    const quota = usageQuotas({ store, clock: new FixedClock(NOW), settings })(
      skipTrace,
      'acme',
      useCase(() => false),
    );
    const refused = await quota.execute({}, context)();
    expect(E.isLeft(refused) && refused.left.message).toContain('daily cap of 0 skip traces');
    const day = (await store.read('acme', NOW)).day;
    expect(day[TOOL_CALL_QUOTA] ?? 0).toBe(0);
    expect(day[SKIP_TRACE_QUOTA] ?? 0).toBe(0);
  });

  it('refuses with 503 when the store cannot answer, giving back what it took', async () => {
    const released: string[] = [];
    let takes = 0;
    const store = {
      take: () => (takes++ === 0 ? Promise.resolve(true) : Promise.reject(new Error('down'))),
      release: (_t: string, _a: Date, name: string, period: string) => (
        released.push(`${name}/${period}`),
        Promise.resolve()
      ),
    } as unknown as UsageStore;
    const errors: unknown[] = [];
    const settings = configuredTenantSettings(defaults, { acme: { skip_traces_per_day: 3, tool_calls_per_day: 3 } });
    const inner = useCase(() => false);
    const answer = await usageQuotas({ store, clock: new FixedClock(NOW), settings, onError: (e) => errors.push(e) })(
      skipTrace,
      'acme',
      inner,
    ).execute({}, context)();
    expect(E.isLeft(answer) && answer.left).toMatchObject({ _tag: 'Unavailable', retryAfterSeconds: 5 });
    expect(inner.runs).toBe(0);
    expect(errors).toHaveLength(1);
    expect(released).toEqual([`${SKIP_TRACE_QUOTA}/day`]);
  });

  it('the reset of a day and a month, in UTC', () => {
    expect(quotaResetOf(new Date('2026-12-31T23:59:59Z'), 'day').toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(quotaResetOf(new Date('2026-12-31T23:59:59Z'), 'month').toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(quotaResetOf(new Date('2026-02-01T00:00:00Z'), 'month').toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
});

describe('TENANT_SETTINGS tool_calls_per_day and skip_traces_per_month', () => {
  it('are whole numbers of at least 0', () => {
    const of = (o: unknown) => loadConfig({ TENANT_SETTINGS: JSON.stringify({ acme: o }) });
    const ok = of({ tool_calls_per_day: 1000, skip_traces_per_month: 5000 });
    expect(E.isRight(ok) && ok.right.tenantSettings.of('acme')).toMatchObject({
      toolCallsPerDay: 1000,
      skipTracesPerMonth: 5000,
    });
    expect(E.isLeft(of({ tool_calls_per_day: -1 }))).toBe(true);
    expect(E.isLeft(of({ skip_traces_per_month: 2.5 }))).toBe(true);
  });
});
