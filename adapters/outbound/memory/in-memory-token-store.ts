import { LRUCache } from 'lru-cache';
import type { StoredTokens, TokenStore } from '../../../ports/token-store.js';

/**
 * Upstream tokens held in this process; the lock serialises refreshes within it. At most `maxConnections`
 * connections are kept, each for `ttlMs` after it was stored: a token pushed out is refreshed again.
 */
export class InMemoryTokenStore implements TokenStore {
  #tokens: LRUCache<string, StoredTokens> | undefined;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly maxConnections = 10_000,
    private readonly ttlMs = 24 * 3600_000,
  ) {}

  /**
   * The tokens. lru-cache allocates all `max` slots when a cache is made (about 2.7 MB for 100,000), so the cache is made on
   * first use rather than with the gateway.
   */
  private get tokens(): LRUCache<string, StoredTokens> {
    return (this.#tokens ??= new LRUCache<string, StoredTokens>({ max: this.maxConnections, ttl: this.ttlMs }));
  }

  get(connection: string): Promise<StoredTokens | undefined> {
    return Promise.resolve(this.tokens.get(connection));
  }

  put(connection: string, tokens: StoredTokens): Promise<void> {
    this.tokens.set(connection, tokens);
    return Promise.resolve();
  }

  async withLock<A>(connection: string, _waitMs: number, work: () => Promise<A>): Promise<A | undefined> {
    for (let held = this.locks.get(connection); held; held = this.locks.get(connection))
      await held.catch(() => undefined);
    const running = work();
    this.locks.set(connection, running);
    try {
      return await running;
    } finally {
      this.locks.delete(connection);
    }
  }
}
