import type { Hono } from 'hono';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { countedCall, UsageMeter } from '../application/runtime/usage.js';
import { usageQuotas } from '../application/runtime/usage-cap.js';
import type { ToolResult } from '../application/runtime/executor-types.js';
import { mountUsageRoutes } from '../adapters/inbound/http/usage-routes.js';
import { InMemoryUsageStore } from '../adapters/outbound/memory/in-memory-usage-store.js';
import type { GatewayMetrics } from '../adapters/outbound/observability/gateway-metrics.js';
import { TenantUsageMetrics } from '../adapters/outbound/observability/usage-metrics.js';
import type { OpenDatabase } from '../adapters/outbound/persistence/databases.js';
import { SqlUsageStore } from '../adapters/outbound/persistence/sql-usage-store.js';
import { RedisUsageStore } from '../adapters/outbound/redis/redis-usage-store.js';
import type { UpstreamCall } from '../adapters/outbound/http/upstream-calls.js';
import type { Authenticator } from '../ports/authenticator.js';
import type { ObservedCall } from '../ports/call-observer.js';
import type { Clock } from '../ports/clock.js';
import type { UsageStore } from '../ports/usage-store.js';
import type { GatewayConfig } from './config.js';
import { throttledWarn } from './store-faults.js';

/**
 * Where the usage counters are kept (issue 32; operations.md says it too):
 * - DATABASE_URL: PostgreSQL, shared by every instance and durable (Redis, if any, keeps none of it);
 * - else REDIS_URL: Redis, shared by the instances (each has its own embedded database, if any);
 * - else the embedded SQLite, when the gateway keeps one (any vendor backend), durable;
 * - else (memory mode) the instance's memory.
 */
export const usageStoreFor = (deps: {
  readonly config: GatewayConfig;
  readonly redis?: Redis;
  readonly database?: () => Promise<OpenDatabase>;
  readonly clock: Clock;
  readonly logger: Logger;
}): UsageStore => {
  const { config, redis, database } = deps;
  const sql = () =>
    new SqlUsageStore(async () => (await database!()).db, {
      onPurgeError: (error) => deps.logger.warn({ err: error }, 'purging old usage counters failed'),
    });
  if (config.storage.databaseUrl && database) return sql();
  if (redis) return new RedisUsageStore(redis, `${config.redisKeyPrefix ?? ''}tg:usage:`);
  if (database) return sql();
  return new InMemoryUsageStore(deps.clock);
};

/**
 * Usage per tenant (issue 32): counted from every finished call (the call observer), kept where
 * `usageStoreFor` says, shown as metrics with a bounded tenant label and by GET /v1/usage; the tenants'
 * quotas (TENANT_SETTINGS) are taken from the same store.
 */
export const usageMetering = (deps: {
  readonly config: GatewayConfig;
  readonly redis?: Redis;
  /** The gateway's database, when it keeps one (vendor-access.ts): PostgreSQL or the embedded SQLite. */
  readonly database?: () => Promise<OpenDatabase>;
  readonly metrics: GatewayMetrics;
  readonly clock: Clock;
  readonly logger: Logger;
}) => {
  const { config, clock, logger } = deps;
  const warn = throttledWarn(logger);
  const store = usageStoreFor(deps);
  const meter = new UsageMeter({
    store,
    clock,
    onError: (error) =>
      warn(
        'usage',
        { err: { message: error instanceof Error ? error.message : String(error) } },
        'usage store unavailable: these usage counts were dropped',
      ),
  });
  const labelled = new TenantUsageMetrics(deps.metrics, config.usageTenantLabels);
  return {
    meter,
    /**
     * A use case under its tenant's quotas (TENANT_SETTINGS tool_calls_per_day, skip_traces_per_day,
     * skip_traces_per_month); one no quota applies to as it is.
     */
    capped: usageQuotas({
      store,
      clock,
      settings: config.tenantSettings,
      onError: (error) => logger.error({ err: error }, 'usage store unavailable: a usage quota was not checked'),
    }),
    /** The call observer's hook: counts a finished call (never throws into it). */
    onFinished: (call: ObservedCall, result: unknown, upstream: readonly UpstreamCall[]) => {
      try {
        const counted = countedCall(call, result as ToolResult, upstream);
        meter.count(counted);
        labelled.count(counted);
      } catch (error) {
        logger.error({ err: error }, 'usage counting failed');
      }
    },
    mount: (app: Hono, authenticator: Authenticator) =>
      mountUsageRoutes(app, {
        authenticator,
        usage: meter,
        onStoreError: (error) => logger.error({ err: error }, 'usage store unavailable'),
      }),
    /** Adds the last counts (before the database closes) and waits for a purge under way. */
    close: async () => {
      await meter.close();
      if (store instanceof SqlUsageStore) await store.settled();
    },
  };
};
