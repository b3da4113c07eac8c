import type { ConnectionStore, Vendor } from '../../../ports/connection-store.js';
import type { Clock } from '../../../ports/clock.js';
import type { StoredTokens, TokenStore } from '../../../ports/token-store.js';

/**
 * One connection's OAuth tokens as a TokenStore: read from and written to the connection store (a
 * rotated refresh token is saved, durably, before the new access token is used), with the refresh lock
 * of the shared token store (Redis when configured), so that instances refresh a connection once.
 */
export class ConnectionTokenStore implements TokenStore {
  constructor(
    private readonly store: ConnectionStore,
    private readonly lock: TokenStore,
    private readonly row: { readonly tenant: string; readonly vendor: Vendor; readonly owner: string },
    private readonly clock: Clock,
  ) {}

  /** The lock's name: one per connection. */
  get name(): string {
    return `conn:${this.row.tenant}:${this.row.vendor}:${encodeURIComponent(this.row.owner)}`;
  }

  async get(): Promise<StoredTokens | undefined> {
    const found = await this.store.find(this.row.tenant, this.row.vendor, this.row.owner);
    const secret = found?.secret;
    if (!secret?.refreshToken) return undefined;
    return {
      accessToken: secret.accessToken ?? '',
      expiresAt: secret.expiresAt ?? 0,
      refreshToken: secret.refreshToken,
    };
  }

  async put(_connection: string, tokens: StoredTokens): Promise<void> {
    await this.store.saveSecret(
      this.row.tenant,
      this.row.vendor,
      this.row.owner,
      { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt },
      this.clock.now(),
    );
  }

  withLock<A>(_connection: string, waitMs: number, work: () => Promise<A>): Promise<A | undefined> {
    return this.lock.withLock(this.name, waitMs, work);
  }
}
