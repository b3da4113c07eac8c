import { E } from '../../../domain/shared/fp.js';
import type { ConnectionSecret } from '../../../ports/connection-store.js';
import { APP_ID, connectedApps, gatewayApp, USER_ID } from './sharefile-connected-app.js';
import { shareFileHosts, shareFileRefresher, type ShareFileConnectorOptions } from './sharefile-connector.js';

/** Where the outcome of a revoke is told (the gateway's logger). */
export interface RevokeLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface ShareFileRevokeOptions extends ShareFileConnectorOptions {
  readonly log?: RevokeLog;
}

/** A token still good for this long is used as it is; an older one is refreshed first. */
const FRESH_MARGIN_MS = 60_000;

/**
 * Revokes the gateway's app for the connected user when a ShareFile connection is deleted, best effort:
 * `GET Apps` (ShareFile-NET AppsEntity.Get, "Get Apps for Current User", a feed of ConnectedApp), the app
 * recorded at connect (`app_id`), else the one ConnectedApp whose `Id` is the client id, else (only when no
 * app has the client id) the one whose `Name` is `appName`; then `DELETE Apps(id)` (AppsEntity.Delete,
 * "Revoke App access for Current User"). That ends the app's grant for the whole ShareFile user, so while
 * another stored connection belongs to the same ShareFile user (`sameAccount`: in any tenant; without it,
 * `others`: the tenant's other connections), nothing is revoked. Never throws; answers what happened, in a sentence for the caller,
 * and logs it. The connection is forgotten either way.
 */
export const shareFileRevoker =
  (o: ShareFileRevokeOptions) =>
  async (
    secret: ConnectionSecret,
    details: Readonly<Record<string, string>> = {},
    others: readonly Readonly<Record<string, string>>[] = [],
    sameAccount?: (key: string, value: string) => Promise<number>,
  ): Promise<string> => {
    const log = o.log;
    const notRevoked = (why: string, fields: Record<string, unknown> = {}) => {
      log?.warn({ vendor: 'sharefile', ...fields }, `ShareFile grant not revoked: ${why}`);
      return `The gateway's access at ShareFile was not revoked: ${why}.`;
    };
    try {
      const hosts = shareFileHosts(o, details);
      if (!o.apiBaseUrl && !(details['subdomain'] && details['apicp']))
        return notRevoked('the connection names no account host');
      const token = await accessToken(o, secret, hosts.oauthBaseUrl);
      if (!token) return notRevoked('no usable access or refresh token');
      const { client, apps: listed } = connectedApps(hosts.apiBaseUrl, token, o.timeoutMs);
      const apps = await listed();
      if (E.isLeft(apps)) return notRevoked('GET Apps failed', { error: apps.left.message });
      const recorded = details[APP_ID];
      const found = recorded
        ? { app: apps.right.value.find((a) => a.Id === recorded), matched: 1 }
        : gatewayApp(apps.right.value, o.clientId, o.appName);
      const app = found.app;
      if (!app)
        return recorded
          ? notRevoked(`the connected app ${recorded} recorded at connect is no longer connected`, { app: recorded })
          : notRevoked('no single connected app is the gateway', {
              connected_apps: apps.right.value.length,
              matched: found.matched,
            });
      const user = app.UserId ?? details[USER_ID];
      // every tenant's stored connections when the store can say (sameAccount), else the tenant's (others)
      const sharing = !user
        ? 0
        : sameAccount
          ? await sameAccount(USER_ID, user)
          : others.filter((d) => d[USER_ID] === user).length;
      if (sharing > 0)
        return notRevoked(
          `${sharing} other connection${sharing === 1 ? '' : 's'} of the gateway use${sharing === 1 ? 's' : ''} the same ShareFile user, whose access a revoke would end too`,
          { app: app.Id, other_connections: sharing },
        );
      const gone = await client.send({ method: 'DELETE', path: `/Apps(${encodeURIComponent(app.Id)})` });
      if (E.isLeft(gone)) return notRevoked(`DELETE Apps(${app.Id}) failed`, { app: app.Id, error: gone.left.message });
      log?.info({ vendor: 'sharefile', app: app.Id }, 'ShareFile grant revoked');
      return `The gateway's access at ShareFile (connected app ${app.Id}) was revoked.`;
    } catch (error) {
      return notRevoked('the revoke failed', { error: String(error) });
    }
  };

/** The stored access token while it is fresh, else one refreshed with the stored refresh token. */
const accessToken = async (
  o: ShareFileRevokeOptions,
  secret: ConnectionSecret,
  oauthBaseUrl: string,
): Promise<string | undefined> => {
  const now = o.clock.now().getTime();
  if (secret.accessToken && (secret.expiresAt === undefined || secret.expiresAt > now + FRESH_MARGIN_MS))
    return secret.accessToken;
  if (!secret.refreshToken) return secret.apiKey;
  const refreshed = await shareFileRefresher(o, oauthBaseUrl)(secret.refreshToken);
  return E.isRight(refreshed) ? refreshed.right.accessToken : undefined;
};
