import { StaticAccessToken, type AccessTokenSource } from '../http/access-token.js';

// ShareFile's access tokens. A refresh token (SHAREFILE_REFRESH_TOKEN, or a tenant's connection) is turned
// into access tokens by the shared StoredRefreshingToken with shareFileRefresher (sharefile-connector.ts);
// SHAREFILE_ACCESS_TOKEN is used as given.

export type ShareFileTokenProvider = AccessTokenSource & { invalidate(rejected?: string): void };
export { StaticAccessToken as StaticShareFileToken };
