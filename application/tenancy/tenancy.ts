import type { Container } from 'inversify';
import { DEFAULT_TENANT, type Principal } from '../../ports/authenticator.js';
import type { UseCase } from '../runtime/define-tool.js';
import type { RegisteredTool } from '../runtime/registry.js';
import type { TenantScopes } from './scope-cache.js';

/** One tenant's memory-mode adapters: its container, the use cases resolved from it, and its own routes. */
export interface TenantScope<R = unknown> {
  readonly container: Container;
  /** The use case of each tool for this tenant (resolved on first use). */
  readonly useCase: (tool: RegisteredTool) => UseCase<unknown, unknown>;
  /** The tenant's own HTTP routes (the memory-mode file links), made on first use. */
  readonly http: () => R | undefined;
}

/**
 * Finding the use case of a call (issue 39): the executor's one lookup. A tool of a vendor-backed group has
 * one use case for every tenant, which finds the caller's connection as it runs (connectedUseCase and
 * ConnectionResolver in application/connections/); a tool of a memory-mode group runs on its tenant's own
 * adapters: the default tenant's are the root container, every other tenant gets a child container made on
 * its first call, kept in the gateway's one scope cache as a connection of kind memory, beside the vendor
 * connections' adapters (scope-cache.ts: bounded by weight and idle time). A dropped tenant's memory-mode
 * data is gone; its next call starts from the demo data.
 */
export class Tenancy<R = unknown> {
  constructor(
    private readonly root: TenantScope<R>,
    private readonly make: (tenant: string) => TenantScope<R>,
    /** The use case of a vendor-backed group's tool (undefined for a memory-mode group's). */
    private readonly connected: (tool: RegisteredTool) => UseCase<unknown, unknown> | undefined,
    /** The one scope cache (its memory-mode side; the connection resolver keeps its side). */
    private readonly held: TenantScopes<TenantScope<R>>,
  ) {}

  /** The use case that runs `tool` for `principal` (the executor's resolver). */
  readonly useCase = (tool: RegisteredTool, principal: Principal): UseCase<unknown, unknown> =>
    this.connected(tool) ?? this.scope(principal.tenant).useCase(tool);

  /** The memory-mode scope of `tenant`, made if it does not exist yet. */
  scope(tenant: string): TenantScope<R> {
    if (tenant === DEFAULT_TENANT) return this.root;
    let scope = this.held.tenant(tenant);
    if (!scope) {
      scope = this.make(tenant);
      this.held.setTenant(tenant, scope);
    }
    return scope;
  }

  /** The scope of `tenant` if it exists now (never makes one: for unauthenticated requests such as file links). */
  existing(tenant: string): TenantScope<R> | undefined {
    if (tenant === DEFAULT_TENANT) return this.root;
    return this.held.peekTenant(tenant);
  }

  /** How many tenants other than the default one are held (idle ones are dropped first). */
  get size(): number {
    return this.held.count('memory');
  }
}

/** A scope over one container: each tool's use case resolved from it once. */
export const scopeOf = <R>(container: Container, http: () => R | undefined): TenantScope<R> => {
  const useCases = new Map<string, UseCase<unknown, unknown>>();
  return {
    container,
    http,
    useCase: (tool) => {
      let useCase = useCases.get(tool.name);
      if (!useCase) {
        useCase = container.get(tool.declaration.useCase) as UseCase<unknown, unknown>;
        useCases.set(tool.name, useCase);
      }
      return useCase;
    },
  };
};
