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
import { bindOnce, type ConnectionBinding, type SharedServices } from '../group-module.js';
import {
  shareFileConnector,
  shareFileHosts,
  shareFileRefresher,
} from '../../adapters/outbound/sharefile/sharefile-connector.js';
import { environmentConnectionStore } from '../../adapters/outbound/http/scoped-token-store.js';
import { tokenStoreOf } from '../token-store-of.js';
import { UrlFetchGuard } from '../../adapters/outbound/http/url-fetch-guard.js';
import { ShareFileFileContents } from '../../adapters/outbound/sharefile/sharefile-file-contents.js';
import { READ_MAX_BYTES } from '../../application/files/read-file.js';
import { FileContents } from '../../ports/file-contents.js';
import { StoredRefreshingToken } from '../../adapters/outbound/http/stored-refreshing-token.js';

export interface ShareFileConfig {
  readonly apiBaseUrl: string;
  readonly oauthBaseUrl: string;
  /** The hosts when set explicitly (SHAREFILE_API_URL, SHAREFILE_OAUTH_URL): tenants' connections use them too. */
  readonly apiOverride?: string;
  readonly oauthOverride?: string;
  /** The gateway's ShareFile app for connect flows (SHAREFILE_CLIENT_ID and SHAREFILE_CLIENT_SECRET). */
  readonly app?: { readonly clientId: string; readonly clientSecret: string };
  readonly authorizeUrl: string;
  /** File contents may be downloaded from loopback and private addresses (a local stand-in; FILES_FETCH_ALLOW_PRIVATE). */
  readonly fetchAllowPrivate: boolean;
  readonly auth:
    | { readonly kind: 'static'; readonly accessToken: string }
    | {
        readonly kind: 'oauth';
        readonly clientId: string;
        readonly clientSecret: string;
        readonly refreshToken: string;
      };
}

/** Binds the item, share and notifier ports on one ShareFile client. */
const bindShareFileClient = (
  container: Container,
  make: () => ShareFileClient,
  o: { maxUploadBytes: number; apiBaseUrl: string; fetchAllowPrivate: boolean; timeoutMs: number },
): void => {
  let store: ShareFileItemStore | undefined;
  const items = () => (store ??= new ShareFileItemStore({ client: make(), maxUploadBytes: o.maxUploadBytes }));
  bindOnce(container, ItemStore, items);
  bindOnce(
    container,
    FileContents,
    () =>
      new ShareFileFileContents(
        items(),
        // downloads of file contents go through the one URL guard, as every URL the gateway fetches
        new UrlFetchGuard({ maxBytes: READ_MAX_BYTES, timeoutMs: 30_000, allowPrivate: o.fetchAllowPrivate }),
        { apiBaseUrl: o.apiBaseUrl, timeoutMs: o.timeoutMs, allowHttpUploads: o.fetchAllowPrivate },
      ),
  );
  bindOnce(container, ShareStore, () => new ShareFileShareStore(make()));
  bindOnce(container, ShareNotifier, () => new ShareFileShareNotifier(make()));
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
        clock: shared.clock,
      }
    : undefined;

/** How tenants connect ShareFile: OAuth with the gateway's ShareFile app (none without one). */
export const shareFileTenantConnector = (config: ShareFileConfig, shared: SharedServices) => {
  const options = connectorOptions(config, shared);
  return options ? shareFileConnector(options) : undefined;
};

/** A tenant's ShareFile connection: the account's own hosts, its tokens refreshed through the connection store. */
export const bindShareFileConnection = (
  container: Container,
  config: ShareFileConfig & { maxUploadBytes: number },
  shared: SharedServices,
  { connection, tokens }: ConnectionBinding,
): void => {
  const options = connectorOptions(config, shared);
  if (!options) return;
  const hosts = shareFileHosts(options, connection.details);
  const client = new ShareFileClient({
    apiBaseUrl: hosts.apiBaseUrl,
    timeoutMs: shared.upstreamTimeoutMs,
    tokens: new StoredRefreshingToken({
      vendor: 'ShareFile',
      store: tokens,
      refresh: shareFileRefresher(options, hosts.oauthBaseUrl),
      clock: shared.clock,
      lockWaitMs: shared.upstreamTimeoutMs,
    }),
  });
  bindShareFileClient(container, () => client, {
    maxUploadBytes: config.maxUploadBytes,
    apiBaseUrl: hosts.apiBaseUrl,
    fetchAllowPrivate: config.fetchAllowPrivate,
    timeoutMs: shared.upstreamTimeoutMs,
  });
};

/** ShareFile binds the item, share and notifier ports; ShareFile serves the bytes and share pages itself. */
export const bindShareFile = (
  container: Container,
  config: ShareFileConfig & { maxUploadBytes: number },
  shared: SharedServices,
): void => {
  let client: ShareFileClient | undefined;
  const make = () =>
    (client ??= new ShareFileClient({
      apiBaseUrl: config.apiBaseUrl,
      timeoutMs: shared.upstreamTimeoutMs,
      tokens:
        config.auth.kind === 'static'
          ? new StaticShareFileToken(config.auth.accessToken)
          : new StoredRefreshingToken({
              vendor: 'ShareFile',
              // shared by every instance through the TokenStore (Redis when configured)
              store: environmentConnectionStore(
                tokenStoreOf(container),
                'sharefile',
                config.auth.clientId,
                config.auth.refreshToken,
              ),
              refresh: shareFileRefresher(
                {
                  clientId: config.auth.clientId,
                  clientSecret: config.auth.clientSecret,
                  authorizeBaseUrl: config.authorizeUrl,
                  timeoutMs: shared.upstreamTimeoutMs,
                  clock: shared.clock,
                },
                config.oauthBaseUrl,
              ),
              clock: shared.clock,
              lockWaitMs: shared.upstreamTimeoutMs,
            }),
    }));
  bindShareFileClient(container, make, {
    maxUploadBytes: config.maxUploadBytes,
    apiBaseUrl: config.apiBaseUrl,
    fetchAllowPrivate: config.fetchAllowPrivate,
    timeoutMs: shared.upstreamTimeoutMs,
  });
};
