import type { Container } from 'inversify';
import { ShareFileClient } from '../../adapters/outbound/sharefile/sharefile-client.js';
import { shareFileHosts, shareFileRefresher } from '../../adapters/outbound/sharefile/sharefile-connector.js';
import { ShareFileItemStore } from '../../adapters/outbound/sharefile/sharefile-item-store.js';
import {
  ShareFileShareNotifier,
  ShareFileShareStore,
} from '../../adapters/outbound/sharefile/sharefile-share-store.js';
import { StaticShareFileToken } from '../../adapters/outbound/sharefile/sharefile-tokens.js';
import { SYMLINK_FEED_MAX_BYTES } from '../../adapters/outbound/sharefile/sharefile-symlink.js';
import { ShareFileFileContents } from '../../adapters/outbound/sharefile/sharefile-file-contents.js';
import { StoredRefreshingToken } from '../../adapters/outbound/http/stored-refreshing-token.js';
import { UrlFetchGuard } from '../../adapters/outbound/http/url-fetch-guard.js';
import type { Resilience } from '../../adapters/outbound/http/resilience.js';
import { READ_MAX_BYTES } from '../../application/files/read-file.js';
import { FileContents } from '../../ports/file-contents.js';
import { ItemStore } from '../../ports/item-store.js';
import { ShareNotifier } from '../../ports/share-notifier.js';
import { ShareStore } from '../../ports/share-store.js';
import { bindOnce, type ConnectionBinding, type SharedServices } from '../group-module.js';
import { shareFileConnectorOptions, type ShareFileConfig } from './files-sharefile.js';

// The files group's ShareFile adapters on one connection: imported by files.ts on the first ShareFile
// connection, so that the memory mode never loads them (issue 39).

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
  const options = shareFileConnectorOptions(config, shared);
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
