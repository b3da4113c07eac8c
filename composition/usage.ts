import type { Hono } from 'hono';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { countedCall, UsageMeter } from '../application/runtime/usage.js';
import { skipTraceCap } from '../application/runtime/usage-cap.js';
import type { ToolResult } from '../application/runtime/executor-types.js';
import { mountUsageRoutes } from '../adapters/inbound/http/usage-routes.js';
import { InMemoryUsageStore } from '../adapters/outbound/memory/in-memory-usage-store.js';
import type { GatewayMetrics } from '../adapters/outbound/observability/gateway-metrics.js';
import { TenantUsageMetrics } from '../adapters/outbound/observability/usage-metrics.js';
import { RedisUsageStore } from '../adapters/outbound/redis/redis-usage-store.js';
import type { UpstreamCall } from '../adapters/outbound/http/upstream-calls.js';
import type { Authenticator } from '../ports/authenticator.js';
import type { ObservedCall } from '../ports/call-observer.js';
import type { Clock } from '../ports/clock.js';
import type { GatewayConfig } from './config.js';
import { throttledWarn } from './store-faults.js';

/**
 * Usage per tenant (issue 32): counted from every finished call (the call observer), kept in Redis when it is
 * configured (shared by every instance) or in memory, shown as metrics with a bounded tenant label and by
 * GET /v1/usage.
 */
export const usageMetering = (deps: {
  readonly config: GatewayConfig;
  readonly redis?: Redis;
  readonly metrics: GatewayMetrics;
  readonly clock: Clock;
  readonly logger: Logger;
}) => {
  const { config, redis, clock, logger } = deps;
  const warn = throttledWarn(logger);
  const store = redis
    ? new RedisUsageStore(redis, `${config.redisKeyPrefix ?? ''}tg:usage:`)
    : new InMemoryUsageStore(clock);
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
    /** A skip-trace use case under its tenant's daily cap (TENANT_SETTINGS skip_traces_per_day); others as they are. */
    capped: skipTraceCap({
      store,
      clock,
      settings: config.tenantSettings,
      onError: (error) => logger.error({ err: error }, 'usage store unavailable: skip trace cap not checked'),
    }),
    /** The call observer's hook: counts a finished call (never throws into it). */
    onFinished: (call: ObservedCall, result: unknown, upstream: readonly UpstreamCall[]) => {
      try {
        const counted = countedCall(
          call,
          result as ToolResult,
          upstream.map((u) => u.vendor),
        );
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
    close: () => meter.close(),
  };
};
