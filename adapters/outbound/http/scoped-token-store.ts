import { createHash } from 'node:crypto';
import type { StoredTokens, TokenStore } from '../../../ports/token-store.js';

/**
 * One connection configured by environment (a refresh token in PODIO_REFRESH_TOKEN or SHAREFILE_REFRESH_TOKEN)
 * as the single-connection store StoredRefreshingToken reads: its tokens live in the shared TokenStore (Redis
 * when configured) under a key named after the vendor, the client id and a hash of the configured refresh
 * token, so every instance uses and refreshes the same access token, and a rotated refresh token is kept.
 * Until anything is stored, the configured refresh token is the starting point.
 */
export const environmentConnectionStore = (
  store: TokenStore,
  vendor: string,
  clientId: string,
  refreshToken: string,
): TokenStore => {
  const seed = createHash('sha256').update(refreshToken).digest('hex').slice(0, 16);
  const key = `env:${vendor}:${clientId}:${seed}`;
  const initial: StoredTokens = { accessToken: '', expiresAt: 0, refreshToken };
  return {
    get: async () => (await store.get(key)) ?? initial,
    put: (_connection, tokens) => store.put(key, tokens),
    withLock: (_connection, waitMs, work) => store.withLock(key, waitMs, work),
  };
};
