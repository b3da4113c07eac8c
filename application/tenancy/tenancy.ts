import type { Container } from 'inversify';
import type { LRUCache } from 'lru-cache';
import { DEFAULT_TENANT } from '../../ports/authenticator.js';
import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../runtime/define-tool.js';
import type { RegisteredTool } from '../runtime/registry.js';
import { tenantCache } from './tenant-cache.js';

/** One tenant's memory-mode adapters: its container, the use cases resolved from it, and its own routes. */
export interface TenantScope<R = unknown> {
  readonly container: Container;
  /** The use case of each tool for this tenant (resolved on first use). */
  readonly useCase: (tool: RegisteredTool) => UseCase<unknown, unknown>;
  /** The tenant's own HTTP routes (the memory-mode file links), made on first use. */
  readonly http: () => R | undefined;
}

export interface TenancyLimits {
  /** The most tenants kept at once; the one used longest ago is dropped first. */
  readonly max: number;
  /** A tenant unused for this long is dropped. */
  readonly idleSeconds: number;
  readonly clock: Clock;
}

/**
 * Finding the use case of a call (issue 39): the executor's one lookup. A tool of a vendor-backed group has
 * one use case for every tenant, which finds the caller's connection as it runs (connectedUseCase and
 * ConnectionResolver in application/connections/); a tool of a memory-mode group runs on its tenant's own
 * adapters: the default tenant's are the root container, every other tenant gets a child container made on
 * its first call, kept in a tenant cache (bounded by count and idle time). A dropped tenant's memory-mode
 * data is gone; its next call starts from the demo data.
 */
export class Tenancy<R = unknown> {
  readonly #held: LRUCache<string, TenantScope<R>>;

  constructor(
    private readonly root: TenantScope<R>,
    private readonly make: (tenant: string) => TenantScope<R>,
    /** The use case of a vendor-backed group's tool (undefined for a memory-mode group's). */
    private readonly connected: (tool: RegisteredTool) => UseCase<unknown, unknown> | undefined,
    limits: TenancyLimits,
  ) {
    this.#held = tenantCache({ max: limits.max, idleMs: limits.idleSeconds * 1000, clock: limits.clock });
  }

  /** The use case that runs `tool` for `tenant` (the executor's resolver). */
  readonly useCase = (tool: RegisteredTool, tenant: string): UseCase<unknown, unknown> =>
    this.connected(tool) ?? this.scope(tenant).useCase(tool);

  /** The memory-mode scope of `tenant`, made if it does not exist yet. */
  scope(tenant: string): TenantScope<R> {
    if (tenant === DEFAULT_TENANT) return this.root;
    let scope = this.#held.get(tenant);
    if (!scope) {
      scope = this.make(tenant);
      this.#held.set(tenant, scope);
    }
    return scope;
  }

  /** The scope of `tenant` if it exists now (never makes one: for unauthenticated requests such as file links). */
  existing(tenant: string): TenantScope<R> | undefined {
    if (tenant === DEFAULT_TENANT) return this.root;
    return this.#held.peek(tenant);
  }

  /** How many tenants other than the default one are held (idle ones are dropped first). */
  get size(): number {
    this.#held.purgeStale();
    return this.#held.size;
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
