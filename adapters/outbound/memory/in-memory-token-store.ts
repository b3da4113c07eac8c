import type { StoredTokens, TokenStore } from '../../../ports/token-store.js';

/** Upstream tokens held in this process; the lock serialises refreshes within it. */
export class InMemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, StoredTokens>();
  private readonly locks = new Map<string, Promise<unknown>>();

  get(connection: string): Promise<StoredTokens | undefined> {
    return Promise.resolve(this.tokens.get(connection));
  }

  put(connection: string, tokens: StoredTokens): Promise<void> {
    this.tokens.set(connection, tokens);
    return Promise.resolve();
  }

  async withLock<A>(connection: string, _waitMs: number, work: () => Promise<A>): Promise<A | undefined> {
    while (this.locks.has(connection)) await this.locks.get(connection)!.catch(() => undefined);
    const running = work();
    this.locks.set(connection, running);
    try {
      return await running;
    } finally {
      this.locks.delete(connection);
    }
  }
}
