import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { StoredTokens, TokenStore } from '../../../ports/token-store.js';

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * Upstream tokens shared by every instance through Redis, with a lock (SET NX PX and a token-checked
 * release) so that one instance at a time refreshes a connection.
 */
export class RedisTokenStore implements TokenStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'tg:tok:',
    private readonly lockTtlMs = 30_000,
  ) {
    redis.defineCommand('tgRelease', { numberOfKeys: 1, lua: RELEASE });
  }

  async get(connection: string): Promise<StoredTokens | undefined> {
    const raw = await this.redis.get(this.prefix + connection);
    return raw ? (JSON.parse(raw) as StoredTokens) : undefined;
  }

  async put(connection: string, tokens: StoredTokens): Promise<void> {
    await this.redis.set(this.prefix + connection, JSON.stringify(tokens));
  }

  async withLock<A>(connection: string, waitMs: number, work: () => Promise<A>): Promise<A | undefined> {
    const lockKey = `${this.prefix}${connection}:lock`;
    const owner = randomUUID();
    const deadline = Date.now() + waitMs;
    for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
      if ((await this.redis.set(lockKey, owner, 'PX', this.lockTtlMs, 'NX')) === 'OK') break;
      if (Date.now() >= deadline) return undefined;
      await new Promise((r) => setTimeout(r, delay));
    }
    try {
      return await work();
    } finally {
      await (this.redis as unknown as { tgRelease: (...a: unknown[]) => Promise<number> }).tgRelease(lockKey, owner);
    }
  }
}
