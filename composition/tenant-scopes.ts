import { DocumentReader } from '../ports/document-reader.js';
import type { Container, ServiceIdentifier } from 'inversify';
import { UrlFetcher } from '../ports/url-fetcher.js';
import { Hono } from 'hono';
import type { LRUCache } from 'lru-cache';
import { tenantCache } from '../application/tenancy/tenant-cache.js';
import type { UseCase } from '../application/runtime/define-tool.js';
import type { RegisteredTool } from '../application/runtime/registry.js';
import { DEFAULT_TENANT } from '../ports/authenticator.js';
import type { Clock } from '../ports/clock.js';

/** One tenant's adapters: its container, the use cases resolved from it, and its data-plane routes. */
export interface TenantScope {
  readonly container: Container;
  /** The use case of each tool for this tenant (resolved on first use). */
  readonly useCase: (tool: RegisteredTool) => UseCase<unknown, unknown>;
  /** The tenant's own HTTP routes (the memory-mode file links), made on first use. */
  readonly http: () => Hono | undefined;
}

export interface TenantScopeLimits {
  /** The most tenants kept at once; the one used longest ago is dropped first. */
  readonly max: number;
  /** A tenant unused for this long is dropped. */
  readonly idleSeconds: number;
  readonly clock: Clock;
}

/**
 * Every tenant's memory-mode adapters. The default tenant's are the root container itself (what
 * `gateway.container` shows); every other tenant gets a child container made on its first call, with its
 * own in-memory demo account. Vendor-backed groups run on connections (composition/vendor-access.ts).
 *
 * The tenants are kept in a tenant cache (application/tenancy/tenant-cache.ts: bounded by count and idle
 * time). A dropped tenant's memory-mode data is gone; its next call starts from the demo data.
 */
export class TenantScopes {
  readonly #held: LRUCache<string, TenantScope>;

  constructor(
    private readonly root: TenantScope,
    private readonly make: (tenant: string) => TenantScope,
    limits: TenantScopeLimits,
  ) {
    this.#held = tenantCache({ max: limits.max, idleMs: limits.idleSeconds * 1000, clock: limits.clock });
  }

  /** The scope of `tenant`, made if it does not exist yet. */
  scope(tenant: string): TenantScope {
    if (tenant === DEFAULT_TENANT) return this.root;
    let scope = this.#held.get(tenant);
    if (!scope) {
      scope = this.make(tenant);
      this.#held.set(tenant, scope);
    }
    return scope;
  }

  /** The scope of `tenant` if it exists now (never makes one: for unauthenticated requests such as file links). */
  existing(tenant: string): TenantScope | undefined {
    if (tenant === DEFAULT_TENANT) return this.root;
    return this.#held.peek(tenant);
  }

  /** The use case of `tool` for `tenant` (the executor's resolver). */
  useCase(tool: RegisteredTool, tenant: string): UseCase<unknown, unknown> {
    return this.scope(tenant).useCase(tool);
  }

  /** How many tenants other than the default one are held (idle ones are dropped first). */
  get size(): number {
    this.#held.purgeStale();
    return this.#held.size;
  }
}

/** A scope over one container: each tool's use case resolved once, or the given stand-in for its group. */
export const scopeOf = (
  container: Container,
  http: () => Hono | undefined,
  standIn: (tool: RegisteredTool) => UseCase<unknown, unknown> | undefined = () => undefined,
): TenantScope => {
  const useCases = new Map<string, UseCase<unknown, unknown>>();
  return {
    container,
    http,
    useCase: (tool) => {
      let useCase = useCases.get(tool.name);
      if (!useCase) {
        useCase = standIn(tool) ?? (container.get(tool.declaration.useCase) as UseCase<unknown, unknown>);
        useCases.set(tool.name, useCase);
      }
      return useCase;
    },
  };
};

/** Routes for a tenant's own Hono app, made once on first use. */
export const lazyRoutes = (mount: (app: Hono) => boolean): (() => Hono | undefined) => {
  let app: Hono | undefined;
  let made = false;
  return () => {
    if (!made) {
      made = true;
      const candidate = new Hono();
      if (mount(candidate)) app = candidate;
    }
    return app;
  };
};

/**
 * Adapters every tenant shares with the root rather than making its own: the URL guard (a connection
 * pool the gateway closes at shutdown) and the document reader (its cache of extracted text is keyed by
 * the bytes' hash, so one per process serves every tenant safely, within one bound).
 */
const SHARED_PORTS: readonly ServiceIdentifier<unknown>[] = [UrlFetcher, DocumentReader];

export const inheritShared = (child: Container, parent: Container): void => {
  for (const id of SHARED_PORTS) if (parent.isBound(id)) child.bind(id).toConstantValue(parent.get(id));
};
