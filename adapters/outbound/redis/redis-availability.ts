import type { Redis, RedisOptions } from 'ioredis';

/*
 * What the gateway does when Redis is slow or gone, decided per use:
 *
 * - Rate limits fail OPEN. A decision waits at most RATE_LIMIT_BUDGET_MS; past that, or on any error,
 *   the call is allowed, a warning is logged (at most once per 10 s) and
 *   `gateway_rate_limit_fail_open_total` counts it. Availability of the tools outweighs a limit that
 *   cannot be enforced for a few seconds (Kong's `fault_tolerant`).
 * - Keyed writes (Idempotency-Key) fail CLOSED. Without the shared record a retry could run the write
 *   twice, so the call is refused at once with 503 UNAVAILABLE and Retry-After; the write does not run.
 *   A claim waits at most IDEMPOTENCY_BUDGET_MS. Storing a finished call's outcome is best-effort: a
 *   failure is logged and counted (`gateway_store_errors_total`), never thrown.
 * - Upstream OAuth tokens: a read waits at most TOKEN_READ_BUDGET_MS, then the instance falls back to its
 *   own copy and refreshes under an in-process lock; reads (and every other tool call) never wait on Redis
 *   for longer than that.
 * - The client never queues commands while disconnected (`enableOfflineQueue: false`); in-flight commands
 *   fail when the connection drops instead of being resent later; it reconnects with a back-off capped at
 *   RECONNECT_CAP_MS, so service comes back within a few seconds of Redis returning.
 */

export const RATE_LIMIT_BUDGET_MS = 250;
export const TOKEN_READ_BUDGET_MS = 250;
export const IDEMPOTENCY_BUDGET_MS = 500;
export const RECONNECT_CAP_MS = 2000;

/** Client options for the failure behaviour above (the URL and any other option come from the caller). */
export const resilientRedisOptions = (): RedisOptions => ({
  lazyConnect: false,
  enableOfflineQueue: false,
  // In-flight commands are rejected as soon as the connection drops, not resent on reconnect.
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  // A server that accepts the connection but does not answer.
  commandTimeout: 1000,
  connectTimeout: 2000,
  retryStrategy: (attempt: number) => Math.min(100 * 2 ** Math.min(attempt, 10), RECONNECT_CAP_MS),
});

/** Redis did not answer within its budget, or is not connected. */
export class RedisUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RedisUnavailable';
  }
}

const firstAttempt = new WeakMap<Redis, Promise<void>>();
/** Clients whose first connection attempt has ended, in success ('ready') or failure ('close'). */
const attempted = new WeakSet<Redis>();

/** Settles when the client's first connection attempt ends (shared by every caller, one listener each). */
const whenFirstAttemptEnds = (redis: Redis): Promise<void> => {
  let ended = firstAttempt.get(redis);
  if (!ended) {
    ended = new Promise<void>((resolve) => {
      const done = () => {
        attempted.add(redis);
        redis.off('ready', done);
        redis.off('close', done);
        resolve();
      };
      redis.on('ready', done);
      redis.on('close', done);
    });
    firstAttempt.set(redis, ended);
  }
  return ended;
};

/**
 * Runs a Redis command within `budgetMs`. Right after start the client may still be connecting: the
 * command then waits for that first attempt, within the same budget. After it (connected or refused), a
 * client that is not connected now fails at once: no queueing, no waiting.
 */
export const withinBudget = async <A>(
  redis: Redis,
  budgetMs: number,
  what: string,
  command: () => Promise<A>,
): Promise<A> => {
  const deadline = Date.now() + budgetMs;
  let timer: NodeJS.Timeout | undefined;
  const expired = (ms: number) =>
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new RedisUnavailable(`Redis did not answer ${what} within ${budgetMs} ms`)),
        Math.max(0, ms),
      );
    });
  try {
    if (redis.status === 'ready') attempted.add(redis);
    else {
      const notConnected = () => new RedisUnavailable(`Redis is not connected (${redis.status}); ${what} was not sent`);
      if (attempted.has(redis) || redis.status === 'end') throw notConnected();
      await Promise.race([whenFirstAttemptEnds(redis), expired(deadline - Date.now())]);
      clearTimeout(timer);
      // The status changed while waiting (TypeScript still holds the narrowed one).
      if ((redis.status as string) !== 'ready') throw notConnected();
    }
    return await Promise.race([command(), expired(deadline - Date.now())]);
  } catch (error) {
    if (error instanceof RedisUnavailable) throw error;
    throw new RedisUnavailable(`Redis failed ${what}: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
};
