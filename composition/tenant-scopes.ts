import { DocumentReader } from '../ports/document-reader.js';
import type { Container, ServiceIdentifier } from 'inversify';
import { UrlFetcher } from '../ports/url-fetcher.js';
import { Hono } from 'hono';
import {
  CONNECTION_IDLE_MS,
  CONNECTIONS_HELD,
  type HeldConnection,
} from '../application/connections/connection-resolver.js';
import { ScopeCache } from '../application/tenancy/scope-cache.js';
import type { TenantScope } from '../application/tenancy/tenancy.js';
import type { Clock } from '../ports/clock.js';
import type { GatewayConfig } from './config.js';

/** The one cache of the adapters calls run on: each memory-mode tenant's scope and each connection's container. */
export const scopeCache = (
  config: GatewayConfig,
  clock: Clock,
): ScopeCache<TenantScope<Hono>, HeldConnection<Promise<Container>>> =>
  new ScopeCache({
    tenants: config.tenantScopes.max,
    tenantIdleMs: config.tenantScopes.idleSeconds * 1000,
    connections: CONNECTIONS_HELD,
    connectionIdleMs: CONNECTION_IDLE_MS,
    clock,
  });

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
