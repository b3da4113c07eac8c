import { Container, type ServiceIdentifier } from 'inversify';
import type { Redis } from 'ioredis';
import { boundTools } from '../application/tools.js';
import { ApiKeyAuthenticator, type ApiKey } from '../adapters/outbound/auth/api-key-authenticator.js';
import { CompositeAuthenticator } from '../adapters/outbound/auth/composite-authenticator.js';
import { JwtAuthenticator } from '../adapters/outbound/auth/jwt-authenticator.js';
import { InMemoryIdempotencyStore } from '../adapters/outbound/memory/in-memory-idempotency-store.js';
import { InMemoryRateLimiter } from '../adapters/outbound/memory/in-memory-rate-limiter.js';
import { InMemoryTokenStore } from '../adapters/outbound/memory/in-memory-token-store.js';
import { RedisIdempotencyStore } from '../adapters/outbound/redis/redis-idempotency-store.js';
import { RedisRateLimiter } from '../adapters/outbound/redis/redis-rate-limiter.js';
import { RedisTokenStore } from '../adapters/outbound/redis/redis-token-store.js';
import { RedisSharedCache } from '../adapters/outbound/redis/redis-shared-cache.js';
import { InMemorySharedCache } from '../adapters/outbound/memory/in-memory-shared-cache.js';
import { SharedCache } from '../ports/shared-cache.js';
import { OneTimeMarks } from '../ports/one-time-marks.js';
import { InMemoryOneTimeMarks } from '../adapters/outbound/memory/in-memory-one-time-marks.js';
import { RedisOneTimeMarks } from '../adapters/outbound/redis/redis-one-time-marks.js';
import { BatchOutcomes } from '../application/records/batch-results.js';
import { Authenticator } from '../ports/authenticator.js';
import { withOwnAccessTokens, type VerifyOwnAccessToken } from '../application/identity/oauth-bearer.js';
import { Clock } from '../ports/clock.js';
import { ContactBook } from '../ports/contact-book.js';
import { IdempotencyStore } from '../ports/idempotency-store.js';
import { RateLimiter } from '../ports/rate-limiter.js';
import { SkipTracer } from '../ports/skip-tracer.js';
import { TokenStore } from '../ports/token-store.js';
import type { GatewayConfig } from './config.js';
import { bindOnce, type SharedServices } from './group-module.js';
import { groupModules } from './groups/index.js';
import { throttledWarn } from './store-faults.js';
import { inheritShared, lazyRoutes } from './tenant-scopes.js';
import { scopeOf, type TenantScope } from '../application/tenancy/tenancy.js';
import type { Hono } from 'hono';

/** Replacements for tests and embedders: any port bound here wins over what the configuration says. */
export interface ContainerOverrides {
  readonly clock?: Clock;
  readonly contactBook?: ContactBook;
  readonly skipTracer?: SkipTracer;
  readonly authenticator?: Authenticator;
  /** Any other port: [its token, the adapter to use]. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each pair has its own service type
  readonly ports?: readonly (readonly [ServiceIdentifier<any>, unknown])[];
}

/** The API keys in force: the configured ones plus the demo token (every permission). */
export const apiKeysFor = (config: GatewayConfig, demoToken: string | undefined): ApiKey[] => [
  ...config.apiKeys,
  ...(demoToken ? [{ name: 'demo', token: demoToken, permissions: ['*'], kind: 'demo' as const }] : []),
];

/**
 * Wires one set of adapters into an Inversify container: overrides first; then the trust ports (in
 * process, or shared through Redis when it is configured); then each group binds the adapters its
 * configuration names to the ports still unbound; then every tool's use case.
 */
export const buildContainer = (
  config: GatewayConfig,
  demoToken: string | undefined,
  shared: SharedServices,
  overrides: ContainerOverrides = {},
  redis?: Redis,
  /** The gateway's own authorization server's tokens: `iss` names it, `verify` checks one (composition/identity.ts). */
  ownTokens?: { readonly issuer: string; readonly verify: VerifyOwnAccessToken },
): Container => {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(Clock).toConstantValue(shared.clock);
  if (overrides.contactBook) container.bind(ContactBook).toConstantValue(overrides.contactBook);
  if (overrides.skipTracer) container.bind(SkipTracer).toConstantValue(overrides.skipTracer);
  if (overrides.authenticator) container.bind(Authenticator).toConstantValue(overrides.authenticator);
  for (const [id, value] of overrides.ports ?? []) container.bind(id).toConstantValue(value);

  bindOnce(container, Authenticator, () => {
    const composite = new CompositeAuthenticator(
      new ApiKeyAuthenticator(apiKeysFor(config, demoToken)),
      config.jwt ? new JwtAuthenticator(config.jwt) : undefined,
    );
    // This server's tokens go to its verifier only (their principal is the signed-in key's own id).
    return ownTokens ? withOwnAccessTokens(composite, ownTokens.issuer, ownTokens.verify) : composite;
  });
  // Every Redis key starts with REDIS_KEY_PREFIX (empty by default: the names of earlier versions).
  const keys = config.redisKeyPrefix ?? '';
  bindOnce(container, RateLimiter, () =>
    redis ? new RedisRateLimiter(redis, `${keys}tg:rl:`) : new InMemoryRateLimiter(shared.clock),
  );
  bindOnce(container, IdempotencyStore, () =>
    redis
      ? new RedisIdempotencyStore(redis, `${keys}tg:idem:`)
      : new InMemoryIdempotencyStore(shared.clock, config.idempotencyMemory),
  );
  bindOnce(container, TokenStore, () => {
    if (!redis) return new InMemoryTokenStore();
    const warn = throttledWarn(shared.logger);
    return new RedisTokenStore(redis, {
      local: new InMemoryTokenStore(),
      prefix: `${keys}tg:tok:`,
      onFallback: (error) =>
        warn(
          'token-store',
          { err: { message: error instanceof Error ? error.message : String(error) } },
          "token store unavailable: using this instance's own copy and lock",
        ),
    });
  });

  bindOnce(container, SharedCache, () => {
    if (!redis) return new InMemorySharedCache();
    const warn = throttledWarn(shared.logger);
    return new RedisSharedCache(
      redis,
      (error) =>
        warn(
          'shared-cache',
          { err: { message: error instanceof Error ? error.message : String(error) } },
          'shared cache unavailable: answering without it',
        ),
      `${keys}cache:`,
    );
  });

  // Used OAuth states, marked once for every instance (fails closed while Redis is away).
  bindOnce(container, OneTimeMarks, () =>
    redis ? new RedisOneTimeMarks(redis, `${keys}tg:once:`) : new InMemoryOneTimeMarks(shared.clock),
  );

  for (const group of groupModules) group.bind(container, config.groups[group.name], shared);
  for (const tool of boundTools) container.bind(tool.useCase as never).toSelf();
  // finished batches, kept for records_getBatchResults in the shared cache (one for every tenant's scope)
  bindOnce(container, BatchOutcomes, () => new BatchOutcomes(container.get(SharedCache)));
  return container;
};

/** The ports an override binds, so that a tenant's (and a connection's) container uses the same replacement. */
export const overriddenPorts = (overrides: ContainerOverrides) =>
  [
    ...(overrides.contactBook ? [[ContactBook, overrides.contactBook] as const] : []),
    ...(overrides.skipTracer ? [[SkipTracer, overrides.skipTracer] as const] : []),
    ...(overrides.ports ?? []),
  ] as const;

/** The tenant's prefix in the gateway's own links (file transfers, share pages): `/t/{tenant}`. */
export const tenantPath = (tenant: string): string => `/t/${encodeURIComponent(tenant)}`;

/**
 * A tenant's own container, a child of the root (whose trust ports, clock and shared adapters it
 * inherits), for its memory-mode groups: each binds fresh adapters in it, an account of its own seeded
 * with the demo data. A group backed by a vendor has no adapters here: its tools run on the caller's
 * connection (`connected`, the same for every tenant).
 */
export const buildTenantScope = (
  root: Container,
  config: GatewayConfig,
  shared: SharedServices,
  overrides: ContainerOverrides,
  tenant: string,
): TenantScope<Hono> => {
  const child = new Container({ parent: root, defaultScope: 'Singleton' });
  for (const [id, value] of overriddenPorts(overrides)) child.bind(id).toConstantValue(value);
  inheritShared(child, root);
  const own: SharedServices = { ...shared, tenant, publicBaseUrl: `${shared.publicBaseUrl}${tenantPath(tenant)}` };
  const served = groupModules.filter((g) => g.tenantScoped !== false && g.describe(config.groups[g.name]) === 'memory');
  for (const group of served) group.bind(child, config.groups[group.name], own);
  const names = new Set(served.map((g) => g.name));
  for (const tool of boundTools) if (names.has(tool.group)) child.bind(tool.useCase as never).toSelf();
  const http = lazyRoutes((app) => {
    for (const group of served) group.routes?.(app, child, config.groups[group.name], own);
    return served.some((g) => g.routes);
  });
  return scopeOf(child, http);
};
