import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { StoredTokens, TokenStore } from '../../../ports/token-store.js';
import { RedisUnavailable, TOKEN_READ_BUDGET_MS, withinBudget } from './redis-availability.js';

// When Redis is slow or gone (see redis-availability.ts), this store degrades to the instance's own
// copy: a read waits at most TOKEN_READ_BUDGET_MS and then answers from the local copy, a write keeps the
// local copy and reports the failure, and the refresh lock falls back to an in-process lock (so this
// instance still refreshes once, though other instances may refresh too while Redis is away).

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Longest a lock release or a token write may take (both off the caller's critical path of a read). */
const WRITE_BUDGET_MS = 1000;

export interface RedisTokenStoreOptions {
  /** This instance's own copy and lock (an in-process store), used while Redis is away. */
  readonly local: TokenStore;
  readonly prefix?: string;
  readonly lockTtlMs?: number;
  /** Told when Redis could not be used and the local copy or lock stood in. */
  readonly onFallback?: (error: unknown) => void;
}

/**
 * Upstream tokens shared by every instance through Redis, with a lock (SET NX PX and a token-checked
 * release) so that one instance at a time refreshes a connection.
 */
export class RedisTokenStore implements TokenStore {
  private readonly local: TokenStore;
  private readonly prefix: string;
  private readonly lockTtlMs: number;
  private readonly onFallback: (error: unknown) => void;

  constructor(
    private readonly redis: Redis,
    options: RedisTokenStoreOptions,
  ) {
    this.local = options.local;
    this.prefix = options.prefix ?? 'tg:tok:';
    this.lockTtlMs = options.lockTtlMs ?? 30_000;
    this.onFallback = options.onFallback ?? (() => {});
    redis.defineCommand('tgRelease', { numberOfKeys: 1, lua: RELEASE });
  }

  async get(connection: string): Promise<StoredTokens | undefined> {
    try {
      const raw = await withinBudget(this.redis, TOKEN_READ_BUDGET_MS, 'a token read', () =>
        this.redis.get(this.prefix + connection),
      );
      if (!raw) return this.local.get(connection);
      const tokens = JSON.parse(raw) as StoredTokens;
      await this.local.put(connection, tokens);
      return tokens;
    } catch (error) {
      this.onFallback(error);
      return this.local.get(connection);
    }
  }

  async put(connection: string, tokens: StoredTokens): Promise<void> {
    await this.local.put(connection, tokens);
    try {
      await withinBudget(this.redis, WRITE_BUDGET_MS, 'a token write', () =>
        this.redis.set(this.prefix + connection, JSON.stringify(tokens)),
      );
    } catch (error) {
      this.onFallback(error);
    }
  }

  async withLock<A>(connection: string, waitMs: number, work: () => Promise<A>): Promise<A | undefined> {
    const lockKey = `${this.prefix}${connection}:lock`;
    const owner = randomUUID();
    const deadline = Date.now() + waitMs;
    try {
      for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
        const taken = await withinBudget(this.redis, TOKEN_READ_BUDGET_MS, 'taking a token lock', () =>
          this.redis.set(lockKey, owner, 'PX', this.lockTtlMs, 'NX'),
        );
        if (taken === 'OK') break;
        if (Date.now() >= deadline) return undefined;
        await new Promise((r) => setTimeout(r, delay));
      }
    } catch (error) {
      if (!(error instanceof RedisUnavailable)) throw error;
      this.onFallback(error);
      return this.local.withLock(connection, waitMs, work);
    }
    try {
      return await work();
    } finally {
      const release = (
        this.redis as unknown as { tgRelease: (key: string, owner: string) => Promise<number> }
      ).tgRelease.bind(this.redis);
      // A lock that cannot be released expires after lockTtlMs.
      await withinBudget(this.redis, WRITE_BUDGET_MS, 'releasing a token lock', () => release(lockKey, owner)).catch(
        (error: unknown) => this.onFallback(error),
      );
    }
  }
}
