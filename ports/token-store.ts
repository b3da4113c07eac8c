import type { ServiceIdentifier } from 'inversify';

/** A vendor connection's OAuth tokens. */
export interface StoredTokens {
  readonly accessToken: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
  readonly refreshToken: string;
}

/**
 * Where upstream OAuth tokens live, shared by every gateway instance when the store is shared, with a
 * lock so that one instance at a time refreshes a connection.
 */
export interface TokenStore {
  get(connection: string): Promise<StoredTokens | undefined>;
  put(connection: string, tokens: StoredTokens): Promise<void>;
  /**
   * Runs `work` while holding the connection's refresh lock; waits (up to `waitMs`) while another holder
   * has it. Resolves to undefined when the lock could not be had in time.
   */
  withLock<A>(connection: string, waitMs: number, work: () => Promise<A>): Promise<A | undefined>;
}

export const TokenStore = Symbol.for('TokenStore') as ServiceIdentifier<TokenStore>;
