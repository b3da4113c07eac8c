import { describe, expect, it } from 'vitest';
import type { Container } from 'inversify';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import type { UseCase } from '../../application/runtime/define-tool.js';
import type { RegisteredTool } from '../../application/runtime/registry.js';
import { Tenancy, type TenantScope } from '../../application/tenancy/tenancy.js';
import { ScopeCache } from '../../application/tenancy/scope-cache.js';
import { DEFAULT_TENANT, type Principal } from '../../ports/authenticator.js';

// Issue 39: the executor's one lookup from (tool, principal) to the use case: a vendor-backed group's tool has
// one use case (it finds the connection as it runs) and makes no tenant scope; a memory-mode group's runs on
// its tenant's scope, made on the first call and kept in the bounded tenant cache.

const tool = (group: string) => ({ name: `${group}_x`, declaration: { group } }) as unknown as RegisteredTool;
const useCaseFor = (label: string) => ({ label }) as unknown as UseCase<unknown, unknown>;
const scope = (label: string): TenantScope => ({
  container: {} as Container,
  http: () => undefined,
  useCase: () => useCaseFor(label),
});

const caller = (tenant: string): Principal => ({
  id: `key:${tenant}-user`,
  name: 'user',
  tenant,
  permissions: new Set(['*']),
});

const setup = () => {
  const made: string[] = [];
  const connected = useCaseFor('connected');
  const tenancy = new Tenancy(
    scope('root'),
    (tenant) => (made.push(tenant), scope(tenant)),
    (t) => (t.declaration.group === 'crm' ? connected : undefined),
    new ScopeCache({
      tenants: 10,
      connections: 100,
      tenantIdleMs: 60_000,
      connectionIdleMs: 60_000,
      clock: new FixedClock(new Date('2026-11-29T00:00:00Z')),
    }),
  );
  return { tenancy, made, connected };
};

describe('the tenancy lookup', () => {
  it("a vendor-backed tool's use case is the connected one, for every tenant, without a tenant scope", () => {
    const { tenancy, made, connected } = setup();
    expect(tenancy.useCase(tool('crm'), caller('acme'))).toBe(connected);
    expect(made).toEqual([]);
    expect(tenancy.existing('acme')).toBeUndefined();
  });

  it("a memory-mode tool runs on the tenant's scope, made once; the default tenant's is the root", () => {
    const { tenancy, made } = setup();
    expect((tenancy.useCase(tool('files'), caller('acme')) as unknown as { label: string }).label).toBe('acme');
    expect((tenancy.useCase(tool('files'), caller('acme')) as unknown as { label: string }).label).toBe('acme');
    expect((tenancy.useCase(tool('files'), caller(DEFAULT_TENANT)) as unknown as { label: string }).label).toBe('root');
    expect(made).toEqual(['acme']);
    expect(tenancy.size).toBe(1);
    expect(tenancy.existing('globex')).toBeUndefined();
  });
});
