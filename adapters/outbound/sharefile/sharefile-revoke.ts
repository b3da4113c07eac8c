import * as t from 'io-ts';
import { E } from '../../../domain/shared/fp.js';
import type { ConnectionSecret } from '../../../ports/connection-store.js';
import { ShareFileClient } from './sharefile-client.js';
import { decodeShareFile, SfFeed } from './sharefile-codecs.js';
import { shareFileHosts, shareFileRefresher, type ShareFileConnectorOptions } from './sharefile-connector.js';
import { StaticShareFileToken } from './sharefile-tokens.js';

/** Where the outcome of a revoke is told (the gateway's logger). */
export interface RevokeLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface ShareFileRevokeOptions extends ShareFileConnectorOptions {
  /**
   * The name the gateway's app is registered under at ShareFile, matched against a ConnectedApp's `Name`
   * when no ConnectedApp's `Id` is the client id (no document says which of the two names the OAuth client).
   */
  readonly appName?: string;
  readonly log?: RevokeLog;
}

/** ShareFile-NET Models/ConnectedApp.cs: `Id` (ODataObject), `Name`, `AppCode`, `UserId`, `Active`. */
const SfConnectedApp = t.intersection([
  t.type({ Id: t.string }),
  t.partial({ Name: t.union([t.string, t.null]), Active: t.union([t.boolean, t.null]) }),
]);
type SfConnectedApp = t.TypeOf<typeof SfConnectedApp>;

/** A token still good for this long is used as it is; an older one is refreshed first. */
const FRESH_MARGIN_MS = 60_000;

/**
 * Revokes the gateway's app for the connected user when a ShareFile connection is deleted, best effort:
 * `GET Apps` (ShareFile-NET AppsEntity.Get, "Get Apps for Current User": a feed of ConnectedApp), the one
 * ConnectedApp whose `Id` is the gateway's client id (or, given `appName`, whose `Name` is it), then
 * `DELETE Apps(id)` (AppsEntity.Delete(Uri appUrl), "Revoke App access for Current User", "no data on
 * success"). With no single match nothing is revoked: another app of the user (their sync client) must never
 * be. Never throws; every outcome is logged, and the connection is forgotten either way.
 */
export const shareFileRevoker =
  (o: ShareFileRevokeOptions) =>
  async (secret: ConnectionSecret, details: Readonly<Record<string, string>> = {}): Promise<void> => {
    const log = o.log;
    try {
      const hosts = shareFileHosts(o, details);
      if (!o.apiBaseUrl && !(details['subdomain'] && details['apicp'])) {
        log?.warn({ vendor: 'sharefile' }, 'ShareFile grant not revoked: the connection names no account host');
        return;
      }
      const token = await accessToken(o, secret, hosts.oauthBaseUrl);
      if (!token) {
        log?.warn({ vendor: 'sharefile' }, 'ShareFile grant not revoked: no usable access or refresh token');
        return;
      }
      const client = new ShareFileClient({
        apiBaseUrl: hosts.apiBaseUrl,
        tokens: new StaticShareFileToken(token),
        timeoutMs: o.timeoutMs,
      });
      const apps = await client.call({ method: 'GET', path: '/Apps' }, (res) =>
        decodeShareFile(SfFeed(SfConnectedApp), res.data, 'the connected apps'),
      )();
      if (E.isLeft(apps)) {
        log?.warn({ vendor: 'sharefile', error: apps.left.message }, 'ShareFile grant not revoked: GET Apps failed');
        return;
      }
      const ours = apps.right.value.filter((a) => isOurs(o, a));
      if (ours.length !== 1) {
        log?.warn(
          { vendor: 'sharefile', connected_apps: apps.right.value.length, matched: ours.length },
          'ShareFile grant not revoked: no single connected app is the gateway',
        );
        return;
      }
      const app = ours[0]!;
      const gone = await client.send({ method: 'DELETE', path: `/Apps(${encodeURIComponent(app.Id)})` });
      if (E.isLeft(gone))
        log?.warn({ vendor: 'sharefile', app: app.Id, error: gone.left.message }, 'ShareFile grant not revoked');
      else log?.info({ vendor: 'sharefile', app: app.Id }, 'ShareFile grant revoked');
    } catch (error) {
      log?.warn({ vendor: 'sharefile', error: String(error) }, 'ShareFile grant not revoked');
    }
  };

const isOurs = (o: ShareFileRevokeOptions, a: SfConnectedApp): boolean =>
  a.Id.toLowerCase() === o.clientId.toLowerCase() || (o.appName !== undefined && a.Name === o.appName);

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
