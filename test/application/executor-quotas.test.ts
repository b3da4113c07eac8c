import { describe, expect, it } from 'vitest';
import { InMemoryUsageStore } from '../../adapters/outbound/memory/in-memory-usage-store.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { ToolExecutor, type UseCaseResolver } from '../../application/runtime/executor.js';
import { TOOL_CALL_QUOTA, usageQuotas } from '../../application/runtime/usage-cap.js';
import { configuredTenantSettings } from '../../ports/tenant-settings.js';
import { everyone, testGateway } from '../support/gateway.js';

// Issue 39: the tenant's quotas are a step of the executor (its `quotas` option), not wrapped into the resolver:
// taken as the use case starts, so a call refused before it (arguments) takes none.

const NOW = new Date('2026-11-21T10:00:00.000Z');

const setup = () => {
  const g = testGateway();
  const resolve = (g.executor as unknown as { resolve: UseCaseResolver }).resolve;
  const store = new InMemoryUsageStore(new FixedClock(NOW));
  const settings = configuredTenantSettings(
    { humanApproval: 'off', toolSearchAbove: 0 },
    { [everyone.tenant]: { tool_calls_per_day: 1 } },
  );
  const executor = new ToolExecutor(g.executor.registry, resolve, {
    quotas: usageQuotas({ store, clock: new FixedClock(NOW), settings }),
  });
  const call = (args: unknown) =>
    executor.run({
      tool: executor.registry.get('crm_getContact')!,
      args,
      principal: everyone,
      requestId: 'r-quota',
    });
  return { call, store };
};

describe('the executor takes the tenant quota', () => {
  it('one a call as the use case runs; past it 429 RATE_LIMITED; a call refused for its arguments takes none', async () => {
    const { call, store } = setup();
    const refused = await call({ contact_id: '101', bogus: 1 });
    expect(refused.ok || refused.error.code).toBe('INVALID_PARAMETER');
    expect((await store.read(everyone.tenant, NOW)).day[TOOL_CALL_QUOTA] ?? 0).toBe(0);
    expect((await call({ contact_id: '101' })).ok).toBe(true);
    const past = await call({ contact_id: '101' });
    expect(past.ok).toBe(false);
    if (past.ok) return;
    expect(past.error.status).toBe(429);
    expect(past.error.code).toBe('RATE_LIMITED');
    expect(past.error.message).toContain('tool calls a day are used up');
    expect((await store.read(everyone.tenant, NOW)).day[TOOL_CALL_QUOTA]).toBe(1);
  });
});

describe("the executor's resolve", () => {
  it('is the use case under the quotas, for those that run use cases through it (the job engine)', async () => {
    const g = testGateway();
    const find = (g.executor as unknown as { resolve: UseCaseResolver }).resolve;
    const store = new InMemoryUsageStore(new FixedClock(NOW));
    const settings = configuredTenantSettings(
      { humanApproval: 'off', toolSearchAbove: 0 },
      { [everyone.tenant]: { tool_calls_per_day: 0 } },
    );
    const executor = new ToolExecutor(g.executor.registry, find, {
      quotas: usageQuotas({ store, clock: new FixedClock(NOW), settings }),
    });
    const tool = executor.registry.get('crm_getContact')!;
    const outcome = await executor.resolve(tool, everyone).execute(
      { contact_id: '101' },
      {
        principal: everyone,
        requestId: 'r-job',
      },
    )();
    expect(outcome._tag === 'Left' && outcome.left._tag).toBe('RateLimited');
  });
});
