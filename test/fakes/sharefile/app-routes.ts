import type { Json, SfRoute } from './exchange.js';

// ShareFile's connected apps on the stand-in (ShareFile-NET Entities/AppsEntity.cs): `GET Apps`, the feed of
// the current user's ConnectedApp objects, and `DELETE Apps(id)`, "Revoke App access for Current User",
// answered 204 with no data.

export const APP_ROUTES: readonly SfRoute[] = [
  {
    method: 'GET',
    path: /^\/Apps$/,
    handle: ({ api, apps, reply }, { res }) =>
      reply.send(res, 200, {
        'odata.metadata': `${api}/$metadata#ConnectedApps`,
        'odata.count': apps.connected.length,
        value: apps.connected.map((a) => ({
          'odata.type': 'ShareFile.Api.Models.ConnectedApp',
          url: `${api}/Apps(${String(a['Id'])})`,
          ...a,
        })),
      }),
  },
  {
    method: 'DELETE',
    path: /^\/Apps\(([^)]+)\)$/,
    handle: ({ apps, reply }, { res, match }) => {
      const at = apps.connected.findIndex((a) => a['Id'] === match[1]);
      if (at < 0) return reply.sfError(res, 404, 'NotFound', `No app ${match[1]}`);
      apps.revoked.push(String(apps.connected[at]!['Id']));
      apps.connected.splice(at, 1);
      return reply.send(res, 204);
    },
  },
];

/** The apps a stand-in user has connected: the gateway's (its id is the client id) and ShareFile's sync app. */
export const defaultConnectedApps = (clientId: string): Json[] => [
  { Id: clientId, Name: 'Tool Gateway', AppCode: 'ThirdParty', Active: true, UserId: 'u-1' },
  { Id: 'a-sync-desktop', Name: 'ShareFile Sync', AppCode: 'Sync2Win', Active: true, UserId: 'u-1' },
];
