import type * as t from 'io-ts';
import { invalidInput, upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { VendorConnector } from '../../../ports/vendor-connector.js';
import type { RefreshedTokens, Refresher } from '../http/stored-refreshing-token.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import { errorMessageOf, SfToken } from './sharefile-codecs.js';
import { recordConnectedApp } from './sharefile-connected-app.js';
import type { Resilience } from '../http/resilience.js';

const VENDOR = 'ShareFile';
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/**
 * The control planes ShareFile's redirect may name. The callback's `subdomain`, `apicp` and `appcp` decide
 * where the gateway sends its client secret and the code: only ShareFile's own hosts are accepted, so a
 * forged callback cannot send them elsewhere.
 */
const APP_CONTROL_PLANES = new Set(['sharefile.com', 'sharefile.eu', 'securevdr.com']);
const API_CONTROL_PLANES = new Set(['sf-api.com', 'sf-api.eu', 'sf-apivdr.com']);
const SUBDOMAIN = /^[a-z0-9][a-z0-9-]{0,62}$/i;

export interface ShareFileConnectorOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Where a person authorizes: https://secure.sharefile.com. */
  readonly authorizeBaseUrl: string;
  /** Fixed hosts (a proxy or a stand-in: SHAREFILE_OAUTH_URL, SHAREFILE_API_URL) instead of the callback's. */
  readonly oauthBaseUrl?: string;
  readonly apiBaseUrl?: string;
  readonly timeoutMs: number;
  /** Retries and breaker settings (the gateway's); without them, the fallback's (resilience.ts). */
  readonly resilience?: Resilience;
  readonly clock: Clock;
  /**
   * The name the gateway's app is registered under at ShareFile (SHAREFILE_APP_NAME), matched against a
   * ConnectedApp's `Name` only when no ConnectedApp's `Id` is the client id.
   */
  readonly appName?: string;
}

/** The hosts of one ShareFile account, from the callback (checked) or the configured overrides. */
export const shareFileHosts = (
  o: Pick<ShareFileConnectorOptions, 'oauthBaseUrl' | 'apiBaseUrl'>,
  details: Readonly<Record<string, string>>,
): { oauthBaseUrl: string; apiBaseUrl: string } => ({
  oauthBaseUrl: o.oauthBaseUrl ?? `https://${details['subdomain']}.${details['appcp']}`,
  apiBaseUrl: o.apiBaseUrl ?? `https://${details['subdomain']}.${details['apicp']}/sf/v3`,
});

const tokenRequest = async (
  baseURL: string,
  form: URLSearchParams,
  timeoutMs: number,
  resilience: Resilience | undefined,
): Promise<Either<GatewayError, { tokens: RefreshedTokens; body: SfToken }>> => {
  const http = createVendorHttp({ vendor: VENDOR, baseURL, timeoutMs, resilience });
  let res;
  try {
    // requirev3=true on the token URL, as the .NET SDK sends with every grant (OAuthService.CreateOAuthTokenRequestQuery).
    res = await http.post('/oauth/token', form.toString(), { params: { requirev3: 'true' }, headers: FORM });
  } catch (error) {
    return E.left(transportFailure(VENDOR, error));
  }
  if (res.status === 400 || res.status === 401)
    return E.left(
      upstreamFailure(VENDOR, `ShareFile refused the grant (${errorMessageOf(res.data) ?? res.status}).`, {
        retryable: false,
        reauthorize: true,
        status: res.status,
      }),
    );
  if (res.status !== 200)
    return E.left(
      upstreamFailure(VENDOR, `ShareFile's token endpoint answered ${res.status}. Try again shortly.`, {
        retryable: res.status >= 500 || res.status === 429,
        status: res.status,
      }),
    );
  const decoded = SfToken.decode(res.data);
  if (E.isLeft(decoded))
    return E.left(upstreamFailure(VENDOR, 'ShareFile answered without an access_token.', { retryable: false }));
  const body = decoded.right;
  const seconds = Number(body.expires_in ?? 28_800);
  return E.right({
    body,
    tokens: {
      accessToken: body.access_token,
      ...(body.refresh_token ? { refreshToken: body.refresh_token } : {}),
      expiresInSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 28_800,
    },
  });
};
type SfToken = t.TypeOf<typeof SfToken>;

/** The refresh of one account's tokens (form fields as the .NET SDK sends them). */
export const shareFileRefresher =
  (o: ShareFileConnectorOptions, oauthBaseUrl: string): Refresher =>
  async (refreshToken) => {
    const outcome = await tokenRequest(
      oauthBaseUrl,
      new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: o.clientId,
        client_secret: o.clientSecret,
      }),
      o.timeoutMs,
      o.resilience,
    );
    return E.isLeft(outcome) ? outcome : E.right(outcome.right.tokens);
  };

/**
 * Connects ShareFile by OAuth (authorization code; ShareFile documents no PKCE): the person signs in at
 * secure.sharefile.com, the redirect names the account's subdomain and control planes, and the code is
 * exchanged at https://{subdomain}.{appcp}/oauth/token with exactly the four fields of the .NET SDK.
 */
export const shareFileConnector = (o: ShareFileConnectorOptions): VendorConnector => ({
  vendor: 'sharefile',
  label: VENDOR,
  oauth: {
    authorizeUrl: ({ state, redirectUri }) => {
      const url = new URL('/oauth/authorize', o.authorizeBaseUrl);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', o.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      return url.toString();
    },
    exchange: async ({ code, query }) => {
      const details = { subdomain: query['subdomain'] ?? '', apicp: query['apicp'] ?? '', appcp: query['appcp'] ?? '' };
      if (
        !o.oauthBaseUrl &&
        (!SUBDOMAIN.test(details.subdomain) ||
          !APP_CONTROL_PLANES.has(details.appcp) ||
          !API_CONTROL_PLANES.has(details.apicp))
      )
        return E.left(
          invalidInput(
            "The ShareFile redirect named an account host that is not ShareFile's; nothing was sent there.",
            'subdomain',
            'a ShareFile subdomain with a ShareFile apicp and appcp',
          ),
        );
      const hosts = shareFileHosts(o, details);
      const outcome = await tokenRequest(
        hosts.oauthBaseUrl,
        new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          client_id: o.clientId,
          client_secret: o.clientSecret,
        }),
        o.timeoutMs,
        o.resilience,
      );
      if (E.isLeft(outcome)) return outcome;
      const { tokens } = outcome.right;
      // the gateway's ConnectedApp and its ShareFile user, so that a delete revokes that app, and not while
      // another connection of the same user is kept (issue 42)
      const app = await recordConnectedApp(o, hosts.apiBaseUrl, tokens.accessToken);
      return E.right({
        secret: {
          accessToken: tokens.accessToken,
          ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
          expiresAt: o.clock.now().getTime() + tokens.expiresInSeconds * 1000,
        },
        label: `ShareFile account ${details.subdomain || 'of the configured host'}`,
        details: { ...details, ...app },
      });
    },
  },
});
