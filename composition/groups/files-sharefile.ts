import type { Container } from 'inversify';
import { ShareFileClient } from '../../adapters/outbound/sharefile/sharefile-client.js';
import { ShareFileItemStore } from '../../adapters/outbound/sharefile/sharefile-item-store.js';
import {
  ShareFileShareNotifier,
  ShareFileShareStore,
} from '../../adapters/outbound/sharefile/sharefile-share-store.js';
import { StaticShareFileToken } from '../../adapters/outbound/sharefile/sharefile-tokens.js';
import { ItemStore } from '../../ports/item-store.js';
import { ShareNotifier } from '../../ports/share-notifier.js';
import { ShareStore } from '../../ports/share-store.js';
import { bindOnce, type ConnectionBinding, type EnvironmentConnection, type SharedServices } from '../group-module.js';
import {
  shareFileConnector,
  shareFileHosts,
  shareFileRefresher,
} from '../../adapters/outbound/sharefile/sharefile-connector.js';
import { UrlFetchGuard } from '../../adapters/outbound/http/url-fetch-guard.js';
import { shareFileRevoker } from '../../adapters/outbound/sharefile/sharefile-revoke.js';
import { SYMLINK_FEED_MAX_BYTES } from '../../adapters/outbound/sharefile/sharefile-symlink.js';
import { ShareFileFileContents } from '../../adapters/outbound/sharefile/sharefile-file-contents.js';
import { READ_MAX_BYTES } from '../../application/files/read-file.js';
import { FileContents } from '../../ports/file-contents.js';
import { StoredRefreshingToken } from '../../adapters/outbound/http/stored-refreshing-token.js';
import type { Resilience } from '../../adapters/outbound/http/resilience.js';

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

/** Binds the item, share and notifier ports on one ShareFile client. */
const bindShareFileClient = (
  container: Container,
  client: ShareFileClient,
  o: {
    maxUploadBytes: number;
    apiBaseUrl: string;
    fetchAllowPrivate: boolean;
    timeoutMs: number;
    resilience?: Resilience | undefined;
  },
): void => {
  let store: ShareFileItemStore | undefined;
  const items = () =>
    (store ??= new ShareFileItemStore({
      client,
      maxUploadBytes: o.maxUploadBytes,
      // a symbolic-link folder's listing redirected off the API host is fetched through the one URL guard,
      // without the token, and is not redirected further (sharefile-symlink.ts)
      fetcher: new UrlFetchGuard({
        maxBytes: SYMLINK_FEED_MAX_BYTES,
        timeoutMs: o.timeoutMs,
        allowPrivate: o.fetchAllowPrivate,
        maxRedirects: 0,
        privateHint: "ShareFile's redirect of a symbolic-link folder is not followed there.",
      }),
    }));
  bindOnce(container, ItemStore, items);
  bindOnce(
    container,
    FileContents,
    () =>
      new ShareFileFileContents(
        items(),
        // downloads of file contents go through the one URL guard, as every URL the gateway fetches
        new UrlFetchGuard({ maxBytes: READ_MAX_BYTES, timeoutMs: 30_000, allowPrivate: o.fetchAllowPrivate }),
        {
          apiBaseUrl: o.apiBaseUrl,
          timeoutMs: o.timeoutMs,
          resilience: o.resilience,
          allowHttpUploads: o.fetchAllowPrivate,
        },
      ),
  );
  bindOnce(container, ShareStore, () => new ShareFileShareStore(client));
  bindOnce(container, ShareNotifier, () => new ShareFileShareNotifier(client));
};

const connectorOptions = (config: ShareFileConfig, shared: SharedServices) =>
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
  const found = connectorOptions(config, shared);
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

/**
 * The one place ShareFile adapters are made, on one connection: the account's own hosts, a static token
 * as given, or tokens refreshed with the gateway's app through the binding's token store.
 */
export const bindShareFileConnection = (
  container: Container,
  config: ShareFileConfig & { maxUploadBytes: number },
  shared: SharedServices,
  { connection, tokens }: ConnectionBinding,
): void => {
  const options = connectorOptions(config, shared);
  const hosts = shareFileHosts(
    {
      ...(config.apiOverride ? { apiBaseUrl: config.apiOverride } : {}),
      ...(config.oauthOverride ? { oauthBaseUrl: config.oauthOverride } : {}),
    },
    connection.details,
  );
  const refreshable = connection.kind === 'oauth' && options;
  const client = new ShareFileClient({
    apiBaseUrl: hosts.apiBaseUrl,
    timeoutMs: shared.upstreamTimeoutMs,
    resilience: shared.resilience,
    tokens: refreshable
      ? new StoredRefreshingToken({
          vendor: 'ShareFile',
          store: tokens,
          refresh: shareFileRefresher(options, hosts.oauthBaseUrl),
          clock: shared.clock,
          lockWaitMs: shared.upstreamTimeoutMs,
        })
      : new StaticShareFileToken(connection.secret.apiKey ?? connection.secret.accessToken ?? ''),
  });
  bindShareFileClient(container, client, {
    maxUploadBytes: config.maxUploadBytes,
    apiBaseUrl: hosts.apiBaseUrl,
    fetchAllowPrivate: config.fetchAllowPrivate,
    timeoutMs: shared.upstreamTimeoutMs,
    resilience: shared.resilience,
  });
};
