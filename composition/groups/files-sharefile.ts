import type { Container } from 'inversify';
import { ShareFileClient } from '../../adapters/outbound/sharefile/sharefile-client.js';
import { ShareFileItemStore } from '../../adapters/outbound/sharefile/sharefile-item-store.js';
import {
  ShareFileShareNotifier,
  ShareFileShareStore,
} from '../../adapters/outbound/sharefile/sharefile-share-store.js';
import { ShareFileOAuthToken, StaticShareFileToken } from '../../adapters/outbound/sharefile/sharefile-tokens.js';
import { ItemStore } from '../../ports/item-store.js';
import { ShareNotifier } from '../../ports/share-notifier.js';
import { ShareStore } from '../../ports/share-store.js';
import { bindOnce, type SharedServices } from '../group-module.js';

export interface ShareFileConfig {
  readonly apiBaseUrl: string;
  readonly oauthBaseUrl: string;
  readonly auth:
    | { readonly kind: 'static'; readonly accessToken: string }
    | {
        readonly kind: 'oauth';
        readonly clientId: string;
        readonly clientSecret: string;
        readonly refreshToken: string;
      };
}

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
          : new ShareFileOAuthToken({
              oauthBaseUrl: config.oauthBaseUrl,
              clientId: config.auth.clientId,
              clientSecret: config.auth.clientSecret,
              refreshToken: config.auth.refreshToken,
              clock: shared.clock,
              timeoutMs: shared.upstreamTimeoutMs,
              onRefreshTokenRotated: () =>
                shared.logger.warn('ShareFile rotated the refresh token; the new one is kept in memory only.'),
            }),
    }));
  bindOnce(
    container,
    ItemStore,
    () => new ShareFileItemStore({ client: make(), maxUploadBytes: config.maxUploadBytes }),
  );
  bindOnce(container, ShareStore, () => new ShareFileShareStore(make()));
  bindOnce(container, ShareNotifier, () => new ShareFileShareNotifier(make()));
};
