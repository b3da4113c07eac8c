import * as t from 'io-ts';
import { E } from '../../../domain/shared/fp.js';
import { ShareFileClient } from './sharefile-client.js';
import { decodeShareFile, SfFeed } from './sharefile-codecs.js';
import { StaticShareFileToken } from './sharefile-tokens.js';

/** ShareFile-NET Models/ConnectedApp.cs: `Id` (ODataObject), `Name`, `AppCode`, `UserId`, `Active`. */
export const SfConnectedApp = t.intersection([
  t.type({ Id: t.string }),
  t.partial({
    Name: t.union([t.string, t.null]),
    Active: t.union([t.boolean, t.null]),
    UserId: t.union([t.string, t.null]),
  }),
]);
export type SfConnectedApp = t.TypeOf<typeof SfConnectedApp>;

/** The connection details that name the gateway's ConnectedApp and the ShareFile user (recorded at connect). */
export const APP_ID = 'app_id';
export const USER_ID = 'user_id';

/**
 * The one ConnectedApp that is the gateway's (issue 42): an app whose `Id` is the client id wins; `Name`
 * (SHAREFILE_APP_NAME) is looked at only when no app has the client id as its id. Two candidates of the same
 * kind is no match: another app of the user (their sync client, another vendor's app) must never be revoked.
 */
export const gatewayApp = (
  apps: readonly SfConnectedApp[],
  clientId: string,
  appName: string | undefined,
): { app?: SfConnectedApp; matched: number } => {
  const byId = apps.filter((a) => a.Id.toLowerCase() === clientId.toLowerCase());
  const candidates = byId.length > 0 || appName === undefined ? byId : apps.filter((a) => a.Name === appName);
  return candidates.length === 1 ? { app: candidates[0]!, matched: 1 } : { matched: candidates.length };
};

/** `GET Apps` (ShareFile-NET AppsEntity.Get, "Get Apps for Current User") with one access token. */
export const connectedApps = (apiBaseUrl: string, token: string, timeoutMs: number) => {
  const client = new ShareFileClient({ apiBaseUrl, tokens: new StaticShareFileToken(token), timeoutMs });
  return {
    client,
    apps: client.call({ method: 'GET', path: '/Apps' }, (res) =>
      decodeShareFile(SfFeed(SfConnectedApp), res.data, 'the connected apps'),
    ),
  };
};

/**
 * At connect time, best effort: the gateway's ConnectedApp id and its ShareFile user, recorded in the
 * connection's details so that the revoke targets that app and can tell connections of one user apart.
 * Nothing when ShareFile does not say (the connection is made either way).
 */
export const recordConnectedApp = async (
  o: { readonly clientId: string; readonly appName?: string; readonly timeoutMs: number },
  apiBaseUrl: string,
  token: string,
): Promise<Record<string, string>> => {
  try {
    const got = await connectedApps(apiBaseUrl, token, o.timeoutMs).apps();
    if (E.isLeft(got)) return {};
    const { app } = gatewayApp(got.right.value, o.clientId, o.appName);
    if (!app) return {};
    return { [APP_ID]: app.Id, ...(app.UserId ? { [USER_ID]: app.UserId } : {}) };
  } catch {
    return {};
  }
};
