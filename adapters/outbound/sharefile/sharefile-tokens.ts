import type { AxiosInstance } from 'axios';
import { upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import { StaticAccessToken, type AccessTokenSource } from '../http/access-token.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import { errorMessageOf, SfToken } from './sharefile-codecs.js';

const VENDOR = 'ShareFile';

export type ShareFileTokenProvider = AccessTokenSource & { invalidate(): void };
export { StaticAccessToken as StaticShareFileToken };

export interface ShareFileOAuthOptions {
  /** https://{subdomain}.{appcp}: the token endpoint is {oauthBaseUrl}/oauth/token. */
  readonly oauthBaseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly refreshToken: string;
  readonly clock: Clock;
  readonly timeoutMs: number;
  readonly refreshMarginSeconds?: number;
  readonly onRefreshTokenRotated?: (token: string) => void;
}

/**
 * Access tokens from a refresh token: `POST https://{subdomain}.{appcp}/oauth/token`, form-encoded
 * grant_type=refresh_token, refresh_token, client_id, client_secret. Refreshed ahead of `expires_in`;
 * concurrent callers share one refresh; a rotated refresh token is kept.
 */
export class ShareFileOAuthToken implements ShareFileTokenProvider {
  readonly #http: AxiosInstance;
  readonly #o: ShareFileOAuthOptions;
  #refreshToken: string;
  #cached: { value: string; refreshAt: number } | undefined;
  #inFlight: Promise<Either<GatewayError, string>> | undefined;

  constructor(options: ShareFileOAuthOptions) {
    this.#o = options;
    this.#refreshToken = options.refreshToken;
    this.#http = createVendorHttp({ vendor: VENDOR, baseURL: options.oauthBaseUrl, timeoutMs: options.timeoutMs });
  }

  accessToken(): Promise<Either<GatewayError, string>> {
    const c = this.#cached;
    if (c && this.#o.clock.now().getTime() < c.refreshAt) return Promise.resolve(E.right(c.value));
    this.#inFlight ??= this.#refresh().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  invalidate(): void {
    this.#cached = undefined;
  }

  async #refresh(): Promise<Either<GatewayError, string>> {
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: this.#refreshToken,
      client_id: this.#o.clientId,
      client_secret: this.#o.clientSecret,
    });
    const started = this.#o.clock.now().getTime();
    let res;
    try {
      // The .NET SDK adds requirev3=true to the token URL of every grant (OAuthService.CreateOAuthTokenRequestQuery).
      res = await this.#http.post('/oauth/token', form.toString(), {
        params: { requirev3: 'true' },
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
    } catch (e) {
      return E.left(transportFailure(VENDOR, e));
    }
    if (res.status === 400 || res.status === 401) {
      return E.left(
        upstreamFailure(
          VENDOR,
          `ShareFile refused the gateway's refresh token (${errorMessageOf(res.data) ?? res.status}). An operator must authorise the ShareFile connection again (SHAREFILE_REFRESH_TOKEN).`,
          {
            retryable: false,
            reauthorize: true,
            status: res.status,
          },
        ),
      );
    }
    if (res.status >= 300)
      return E.left(
        upstreamFailure(VENDOR, `ShareFile's token endpoint answered ${res.status}. Try again shortly.`, {
          retryable: res.status >= 500,
          status: res.status,
        }),
      );
    const decoded = SfToken.decode(res.data);
    if (E.isLeft(decoded))
      return E.left(
        upstreamFailure(VENDOR, 'ShareFile answered the token refresh without an access_token.', { retryable: false }),
      );
    const tok = decoded.right;
    const seconds = Number(tok.expires_in ?? 28_800);
    const margin = (this.#o.refreshMarginSeconds ?? 300) * 1000;
    this.#cached = {
      value: tok.access_token,
      refreshAt: started + Math.max(0, (Number.isFinite(seconds) ? seconds : 28_800) * 1000 - margin),
    };
    if (tok.refresh_token && tok.refresh_token !== this.#refreshToken) {
      this.#refreshToken = tok.refresh_token;
      this.#o.onRefreshTokenRotated?.(tok.refresh_token);
    }
    return E.right(tok.access_token);
  }
}
