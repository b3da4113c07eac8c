import { upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { VendorConnector } from '../../../ports/vendor-connector.js';
import type { RefreshedTokens, Refresher } from '../http/stored-refreshing-token.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import { decodePodio, PODIO, PodioTokenResponse } from './podio-codecs.js';
import type { Resilience } from '../http/resilience.js';

const TOKEN_PATH = '/oauth/token/v2';

export interface PodioConnectorOptions {
  readonly apiBaseUrl: string;
  /** Where a person authorizes the app: https://podio.com. */
  readonly authorizeBaseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly timeoutMs: number;
  /** Retries and breaker settings (the gateway's); without them, the fallback's (resilience.ts). */
  readonly resilience?: Resilience;
  readonly clock: Clock;
}

const tokenRequest = async (
  o: PodioConnectorOptions,
  fields: Record<string, string>,
): Promise<Either<GatewayError, { tokens: RefreshedTokens; userId?: number }>> => {
  const http = createVendorHttp({
    vendor: PODIO,
    baseURL: o.apiBaseUrl,
    timeoutMs: o.timeoutMs,
    resilience: o.resilience,
    headers: { 'Content-Type': 'application/json' },
  });
  let res;
  try {
    res = await http.post(TOKEN_PATH, { ...fields, client_id: o.clientId, client_secret: o.clientSecret });
  } catch (error) {
    return E.left(transportFailure(PODIO, error));
  }
  if (res.status === 400 || res.status === 401)
    return E.left(
      upstreamFailure(PODIO, `Podio refused the grant (HTTP ${res.status}).`, {
        retryable: false,
        reauthorize: true,
        status: res.status,
      }),
    );
  if (res.status !== 200 && res.status !== 201)
    return E.left(
      upstreamFailure(PODIO, `Podio's token endpoint answered ${res.status}. Try again shortly.`, {
        retryable: res.status >= 500 || res.status === 420 || res.status === 429,
        status: res.status,
      }),
    );
  const decoded = decodePodio(PodioTokenResponse, res.data, res.status, 'the token request');
  if (E.isLeft(decoded)) return decoded;
  const body = decoded.right;
  return E.right({
    tokens: {
      accessToken: body.access_token,
      ...(body.refresh_token ? { refreshToken: body.refresh_token } : {}),
      expiresInSeconds: body.expires_in,
    },
    ...(body.ref?.type === 'user' && body.ref.id !== undefined ? { userId: body.ref.id } : {}),
  });
};

export const podioRefresher =
  (o: PodioConnectorOptions): Refresher =>
  async (refreshToken) => {
    const outcome = await tokenRequest(o, { grant_type: 'refresh_token', refresh_token: refreshToken });
    return E.isLeft(outcome) ? outcome : E.right(outcome.right.tokens);
  };

/**
 * Connects Podio by OAuth (server-side flow: podio.com/oauth/authorize, then the code at
 * /oauth/token/v2 with the same redirect_uri). Podio documents no PKCE. The connection acts as the user
 * who approved it.
 */
export const podioConnector = (o: PodioConnectorOptions): VendorConnector => ({
  vendor: 'podio',
  label: 'Podio',
  oauth: {
    authorizeUrl: ({ state, redirectUri }) => {
      const url = new URL('/oauth/authorize', o.authorizeBaseUrl);
      url.searchParams.set('client_id', o.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('state', state);
      return url.toString();
    },
    exchange: async ({ code, redirectUri }) => {
      const outcome = await tokenRequest(o, { grant_type: 'authorization_code', code, redirect_uri: redirectUri });
      if (E.isLeft(outcome)) return outcome;
      const { tokens, userId } = outcome.right;
      return E.right({
        secret: {
          accessToken: tokens.accessToken,
          ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
          expiresAt: o.clock.now().getTime() + tokens.expiresInSeconds * 1000,
        },
        label: userId !== undefined ? `Podio user ${userId}` : 'Podio user',
        details: userId !== undefined ? { userId: String(userId) } : ({} as Record<string, string>),
      });
    },
  },
});
