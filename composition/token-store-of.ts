import type { Container } from 'inversify';
import { InMemoryTokenStore } from '../adapters/outbound/memory/in-memory-token-store.js';
import { TokenStore } from '../ports/token-store.js';

/**
 * The container's TokenStore (Redis when configured, bound by the root container), or one of this process's
 * own for an embedder that binds none.
 */
export const tokenStoreOf = (container: Container): TokenStore =>
  container.isBound(TokenStore) ? container.get(TokenStore) : new InMemoryTokenStore(100, 24 * 3600_000);
