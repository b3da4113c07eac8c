import { describe, expect, it } from 'vitest';
import type { Container } from 'inversify';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import type { UseCase } from '../../application/runtime/define-tool.js';
import type { RegisteredTool } from '../../application/runtime/registry.js';
import { Tenancy, type TenantScope } from '../../application/tenancy/tenancy.js';
import { DEFAULT_TENANT } from '../../ports/authenticator.js';

// Issue 39: the executor's one lookup from (tool, tenant) to the use case: a vendor-backed group's tool has
// one use case (it finds the connection as it runs) and makes no tenant scope; a memory-mode group's runs on
// its tenant's scope, made on the first call and kept in the bounded tenant cache.

const tool = (group: string) => ({ name: `${group}_x`, declaration: { group } }) as unknown as RegisteredTool;
const useCaseFor = (label: string) => ({ label }) as unknown as UseCase<unknown, unknown>;
const scope = (label: string): TenantScope => ({
  container: {} as Container,
  http: () => undefined,
  useCase: () => useCaseFor(label),
});

const setup = () => {
  const made: string[] = [];
  const connected = useCaseFor('connected');
  const tenancy = new Tenancy(
    scope('root'),
    (tenant) => (made.push(tenant), scope(tenant)),
    (t) => (t.declaration.group === 'crm' ? connected : undefined),
    { max: 10, idleSeconds: 60, clock: new FixedClock(new Date('2026-11-29T00:00:00Z')) },
  );
  return { tenancy, made, connected };
};

describe('the tenancy lookup', () => {
  it("a vendor-backed tool's use case is the connected one, for every tenant, without a tenant scope", () => {
    const { tenancy, made, connected } = setup();
    expect(tenancy.useCase(tool('crm'), 'acme')).toBe(connected);
    expect(made).toEqual([]);
    expect(tenancy.existing('acme')).toBeUndefined();
  });

  it("a memory-mode tool runs on the tenant's scope, made once; the default tenant's is the root", () => {
    const { tenancy, made } = setup();
    expect((tenancy.useCase(tool('files'), 'acme') as unknown as { label: string }).label).toBe('acme');
    expect((tenancy.useCase(tool('files'), 'acme') as unknown as { label: string }).label).toBe('acme');
    expect((tenancy.useCase(tool('files'), DEFAULT_TENANT) as unknown as { label: string }).label).toBe('root');
    expect(made).toEqual(['acme']);
    expect(tenancy.size).toBe(1);
    expect(tenancy.existing('globex')).toBeUndefined();
  });
});
