import type { Redis } from 'ioredis';
import type { Gauge } from 'prom-client';
import type { Readiness } from '../adapters/inbound/http/http-app.js';
import { withinBudget } from '../adapters/outbound/redis/redis-availability.js';

/** How long the Redis ping of a readiness check may take (the database probe has its own, also 1 s). */
const REDIS_PING_BUDGET_MS = 1000;

export interface ReadinessSources {
  /** False once the gateway drains on shutdown. */
  readonly accepting: () => boolean;
  readonly redis?: Redis;
  readonly database?: { check(): Promise<boolean> };
  /** `gateway_dependency_up{dependency}`, set on every check. */
  readonly dependencyUp: Gauge<'dependency'>;
}

/**
 * Readiness means "this instance can serve": it is accepting, its configuration is loaded, it is not
 * draining. Redis and PostgreSQL are shared by every instance, so a stall of either would fail every
 * instance's check at the same moment and a load balancer would take the whole fleet out; they are
 * reported (`ok` / `down`, and in `gateway_dependency_up`) and make the answer `degraded`, not 503. Each
 * check is bounded to about a second; concurrent callers (probes, scrapes) share one check.
 */
export const readinessCheck = (sources: ReadinessSources): (() => Promise<Readiness>) => {
  const { redis, database } = sources;
  const check = async (): Promise<Readiness> => {
    const [redisUp, databaseUp] = await Promise.all([
      redis
        ? withinBudget(redis, REDIS_PING_BUDGET_MS, 'the readiness ping', () => redis.ping()).then(
            (p) => p === 'PONG',
            () => false,
          )
        : undefined,
      database?.check().catch(() => false),
    ]);
    const shared: Record<string, 'ok' | 'down'> = {};
    if (redisUp !== undefined) shared['redis'] = redisUp ? 'ok' : 'down';
    if (databaseUp !== undefined) shared['database'] = databaseUp ? 'ok' : 'down';
    for (const [dependency, state] of Object.entries(shared))
      sources.dependencyUp.set({ dependency }, state === 'ok' ? 1 : 0);
    return { local: { accepting: sources.accepting() }, shared };
  };
  let running: Promise<Readiness> | undefined;
  return () =>
    (running ??= check().finally(() => {
      running = undefined;
    }));
};
