import type { EnvironmentConnection, SharedServices } from '../group-module.js';
import { shareFileConnector } from '../../adapters/outbound/sharefile/sharefile-connector.js';
import { shareFileRevoker } from '../../adapters/outbound/sharefile/sharefile-revoke.js';

export interface ShareFileConfig {
  /** The hosts when set explicitly (SHAREFILE_API_URL, SHAREFILE_OAUTH_URL): every connection uses them. */
  readonly apiOverride?: string;
  readonly oauthOverride?: string;
  /** The gateway's ShareFile app (SHAREFILE_CLIENT_ID and SHAREFILE_CLIENT_SECRET): refreshes and connect flows. */
  readonly app?: { readonly clientId: string; readonly clientSecret: string; readonly name?: string };
  readonly authorizeUrl: string;
  /** File contents may be downloaded from loopback and private addresses (a local stand-in; FILES_FETCH_ALLOW_PRIVATE). */
  readonly fetchAllowPrivate: boolean;
  /** The operator's own account (the default tenant's connection), when the environment gives one. */
  readonly account?: {
    /** Where the account lives: `subdomain`, `apicp`, `appcp` (as a tenant's connection records them). */
    readonly hosts: Readonly<Record<string, string>>;
    readonly credential:
      | { readonly kind: 'static'; readonly accessToken: string }
      | { readonly kind: 'oauth'; readonly refreshToken: string };
  };
}

/** The ShareFile app's settings for the connector and the refresher; none without the app. */
export const shareFileConnectorOptions = (config: ShareFileConfig, shared: SharedServices) =>
  config.app
    ? {
        clientId: config.app.clientId,
        clientSecret: config.app.clientSecret,
        authorizeBaseUrl: config.authorizeUrl,
        ...(config.oauthOverride ? { oauthBaseUrl: config.oauthOverride } : {}),
        ...(config.apiOverride ? { apiBaseUrl: config.apiOverride } : {}),
        timeoutMs: shared.upstreamTimeoutMs,
        resilience: shared.resilience,
        clock: shared.clock,
      }
    : undefined;

/** How tenants connect ShareFile: OAuth with the gateway's ShareFile app (none without one). */
export const shareFileTenantConnector = (config: ShareFileConfig, shared: SharedServices) => {
  const found = shareFileConnectorOptions(config, shared);
  const options = found && config.app?.name ? { ...found, appName: config.app.name } : found;
  // deleting a connection revokes the gateway's app for that user at ShareFile (best effort, logged)
  return options
    ? {
        ...shareFileConnector(options),
        revoke: shareFileRevoker({ ...options, log: shared.logger }),
      }
    : undefined;
};

/** The default tenant's ShareFile connection from the environment's account. */
export const shareFileEnvironmentConnection = (config: ShareFileConfig): EnvironmentConnection | undefined => {
  const account = config.account;
  if (!account) return undefined;
  // the client id names the shared token entry, as before connections came from one place
  const details = { ...account.hosts, ...(config.app ? { clientId: config.app.clientId } : {}) };
  return account.credential.kind === 'static'
    ? { kind: 'key', details, secret: { apiKey: account.credential.accessToken } }
    : { kind: 'oauth', details, secret: { refreshToken: account.credential.refreshToken } };
};
