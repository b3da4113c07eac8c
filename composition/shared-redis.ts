import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ConnectionChangeChannel } from '../adapters/outbound/redis/change-channel.js';
import { resilientRedisOptions } from '../adapters/outbound/redis/redis-availability.js';
import { RedisAnswerRelay } from '../adapters/outbound/redis/redis-answer-relay.js';
import type { GatewayConfig } from './config.js';
import { throttledWarn } from './store-faults.js';

// ioredis is loaded only when Redis is configured (start-up: bench/startup.ts); it is CommonJS, so require
// gives the same module a static import would.
const newRedis = (url: string, options: IORedis.RedisOptions = {}): Redis => {
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof IORedis;
  return new RedisClient(url, { ...resilientRedisOptions(), ...options });
};

/**
 * The gateway's Redis client when REDIS_URL is set: fail fast while Redis is away and reconnect within
 * seconds (redis-availability.ts says what each use does meanwhile); its problems are logged, throttled,
 * and the 'error' listener keeps them from ending the process. Also, when the connections are in
 * PostgreSQL (shared by every instance), the channel that tells every instance about a connection change
 * at once, on a subscriber connection of its own (the resolver's 30 s re-read stays the fallback). And the
 * relay that carries a 2025-era MCP client's answer (a person's approval) posted to any instance to the one
 * whose call awaits it, which subscribes on a connection of its own when it first awaits one.
 */
export const sharedRedis = (
  config: GatewayConfig,
  logger: Logger,
): { readonly redis?: Redis; readonly changes?: ConnectionChangeChannel; readonly answers?: RedisAnswerRelay } => {
  const url = config.redisUrl;
  if (!url) return {};
  const redis = newRedis(url);
  const warn = throttledWarn(logger);
  redis.on('error', (error: Error) => warn('redis', { err: { message: error.message } }, 'redis connection problem'));
  const answers = new RedisAnswerRelay({
    redis,
    subscriber: () => newRedis(url, { autoResubscribe: false }),
    prefix: config.redisKeyPrefix,
    onError: (what, error) =>
      warn(what, { err: { message: error instanceof Error ? error.message : String(error) } }, `${what} failed`),
  });
  if (!config.storage.databaseUrl) return { redis, answers };
  const changes = new ConnectionChangeChannel({
    publisher: redis,
    subscriber: () => newRedis(url, { autoResubscribe: false }),
    channel: `${config.redisKeyPrefix ?? ''}tg:connection-changes`,
    onError: (what, error) =>
      warn(what, { err: { message: error instanceof Error ? error.message : String(error) } }, `${what} failed`),
  });
  return { redis, changes, answers };
};
