import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { verifyApiKeyWith } from '../application/identity/sign-in.js';
import type { ToolRegistry } from '../application/runtime/registry.js';
import { createAuthorizationServer, type AuthorizationServer } from '../adapters/inbound/oauth/authorization-server.js';
import { guardedFetch } from '../adapters/inbound/oauth/guarded-fetch.js';
import type { AuthorizationEvent } from '../adapters/inbound/oauth/interaction-routes.js';
import { serverKeys } from '../adapters/inbound/oauth/signing-keys.js';
import type { ConnectionStorage } from '../adapters/outbound/persistence/connection-storage.js';
import { sqlOAuthStore, type OAuthStore } from '../adapters/outbound/persistence/oauth-store.js';
import type { AuditEntry, AuditLog } from '../ports/audit-log.js';
import { DEFAULT_TENANT } from '../ports/authenticator.js';
import type { ApiKeyAuthenticator } from '../adapters/outbound/auth/api-key-authenticator.js';
import { configuredAccountStanding } from '../application/identity/account-standing.js';
import { UrlFetchGuard } from '../adapters/outbound/http/url-fetch-guard.js';
import type { GatewayConfig } from './config.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { LimitedRequest } from '../adapters/inbound/oauth/limits.js';

/** The largest Client ID Metadata Document read. */
const METADATA_DOCUMENT_BYTES = 64 * 1024;

/** How often expired codes, tokens and sessions are deleted from the store. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

export interface IdentityDeps {
  readonly config: GatewayConfig;
  readonly registry: ToolRegistry;
  /** The gateway's public base URL: the issuer. */
  readonly base: string;
  /**
   * The API keys in force (the demo token among them): what the sign-in form accepts, and what says whether an
   * account that signed in is still configured, and with which permissions.
   */
  readonly keys: ApiKeyAuthenticator;
  readonly storage: ConnectionStorage;
  readonly audit: AuditLog;
  readonly logger: Logger;
  /** The gateway's rate limiter (Redis when configured): the authorization server's limits per address and client. */
  readonly limiter?: RateLimiter;
  /** Memory mode with the printed demo token: the sign-in page says the demo token signs in. */
  readonly demo: boolean;
}

/** An authorization event as an audit row: who, which client (as the target), and what happened. */
const auditEntryOf = (event: AuthorizationEvent, at: Date): AuditEntry => {
  const who =
    'principalId' in event && event.principalId
      ? { tenant: 'tenant' in event ? event.tenant : DEFAULT_TENANT, principal: event.principalId }
      : { tenant: DEFAULT_TENANT, principal: 'anonymous' };
  const targets = [
    ...('clientId' in event ? [event.clientId] : []),
    ...('grantId' in event ? [`grant:${event.grantId}`] : []),
  ];
  const refused = event.type === 'sign_in_refused' || event.type === 'consent_denied';
  const status =
    event.type === 'account_gone' ? 401 : refused ? 403 : event.type === 'refresh_token_reused' ? 400 : 200;
  return {
    at,
    ...who,
    tool: `oauth.${event.type}`,
    targets,
    status,
    requestId: randomUUID(),
  };
};

/** A request the authorization server's limits refused, as an audit row (issue 38). */
const limitedEntryOf = (refused: LimitedRequest, at: Date): AuditEntry => ({
  at,
  tenant: DEFAULT_TENANT,
  principal: 'anonymous',
  tool: `oauth.${refused.endpoint}_limited`,
  targets: [
    `address:${refused.address}`,
    `limit:${refused.scope}`,
    ...(refused.clientId ? [refused.clientId] : []),
    ...(refused.refusals > 1 ? [`refusals:${refused.refusals}`] : []),
  ],
  status: 429,
  code: 'RATE_LIMITED',
  requestId: randomUUID(),
});

/**
 * The gateway's own OAuth 2.1 authorization server (adapters/inbound/oauth, on oidc-provider, loaded on its
 * first request), or undefined when OAUTH_SERVER=false. Its tokens are for the MCP endpoint (`{base}/mcp`,
 * their audience); clients, grants and refresh tokens live in the connections' database, sealed.
 */
export const authorizationServerFor = (
  deps: IdentityDeps,
): { readonly server: AuthorizationServer; readonly store: OAuthStore; close(): Promise<void> } | undefined => {
  const settings = deps.config.oauth;
  if (!settings.enabled) return undefined;
  // Client ID Metadata Documents come through the one URL guard (public addresses only, pinned, bounded),
  // made on the first document fetched.
  let guard: UrlFetchGuard | undefined;
  const documents = () =>
    (guard ??= new UrlFetchGuard({ maxBytes: METADATA_DOCUMENT_BYTES, timeoutMs: 5000, allowPrivate: false }));
  const { storage, logger } = deps;
  const store = sqlOAuthStore({
    database: storage.database,
    box: () => storage.secretBox('oauth-store'),
    unusedClientTtlSeconds: settings.unusedClientTtlSeconds,
    maxUnusedClients: settings.maxUnusedClients,
  });
  const record = (entry: AuditEntry) =>
    deps.audit.record(entry).catch((error: unknown) => {
      logger.error({ err: error }, 'audit log unavailable: an authorization event was not recorded');
    });
  let purging = false;
  const startPurge = () => {
    if (purging) return;
    purging = true;
    setInterval(() => {
      store.purgeExpired().catch((error: unknown) => logger.warn({ err: error }, 'OAuth store purge failed'));
    }, PURGE_EVERY_MS).unref();
  };
  const secret = deps.config.storage.encryptionKey;
  const server = createAuthorizationServer({
    issuer: deps.base,
    resource: `${deps.base}/mcp`,
    scopes: [...new Set(deps.registry.tools.map((t) => t.permission))].sort(),
    verifyApiKey: verifyApiKeyWith(deps.keys),
    // A key removed from GATEWAY_API_KEYS ends its grants at the next refresh or token check; a narrowed one
    // narrows them. A grant revoked on any instance ends its access tokens on every one within 30 s.
    accountStanding: configuredAccountStanding((tenant, id) => deps.keys.principalOf(tenant, id)),
    grantExists: async (grantId) => {
      const row = await store.grant(grantId);
      return row !== undefined && (row.expiresAt === undefined || row.expiresAt.getTime() > Date.now());
    },
    // Derived from GATEWAY_ENCRYPTION_KEY, every instance signs with the same key; without it, a key of this
    // process (memory mode, one instance): its access tokens end with it, stored refresh tokens do not.
    ...serverKeys(secret ? Buffer.from(secret, 'base64') : undefined),
    // The purge starts with the store's first use: a gateway nobody signs in to never opens the database.
    adapter: (model: string) => {
      startPurge();
      return store.adapter(model);
    },
    accessTokenTtlSeconds: settings.accessTokenTtlSeconds,
    refreshTokenTtlSeconds: settings.refreshTokenTtlSeconds,
    registration: settings.dynamicRegistration,
    clients: settings.clients,
    ...(settings.clientIdMetadataDocuments
      ? { clientIdMetadataDocuments: { fetch: (input, init) => guardedFetch(documents())(input, init) } }
      : {}),
    demoHint: deps.demo,
    ...(settings.openIdProvider ? { openIdProvider: settings.openIdProvider } : {}),
    rememberedGrants: async (account, client) => (await store.grants(account, client)).map((g) => g.grantId),
    onEvent: (event) => void record(auditEntryOf(event, new Date())),
    ...(deps.limiter ? { limits: { limiter: deps.limiter, ...settings.limits } } : {}),
    onLimited: (refused) => void record(limitedEntryOf(refused, new Date())),
    onError: (error) => logger.error({ err: error }, 'authorization server error'),
  });
  return { server, store, close: async () => guard?.close?.() };
};
