import type { AxiosInstance } from 'axios';
import { rateLimited, upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import { StaticAccessToken, type AccessTokenSource } from '../http/access-token.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import { decodePodio, PODIO, PodioErrorBody, PodioTokenResponse } from './podio-codecs.js';
import type { Resilience } from '../http/resilience.js';

/** Where the Podio client gets the access token of each request. */
export type PodioAuth = AccessTokenSource & { invalidate(rejected?: string): void };

/** A fixed access token (tests, or an embedder that manages tokens itself). It cannot be renewed. */
export { StaticAccessToken as StaticPodioToken };

/**
 * How the gateway proves who it is to Podio:
 * - `app`: app authentication (app_id + app_token) acts as one app; it can only reach that app's data.
 * - `password`: a user's username and password (development only; Podio recommends against it in production).
 * - `refresh_token`: a refresh token from an earlier authorisation-code flow; acts as that user.
 */
export type PodioGrant =
  | { readonly kind: 'app'; readonly appId: string; readonly appToken: string }
  | { readonly kind: 'password'; readonly username: string; readonly password: string }
  | { readonly kind: 'refresh_token'; readonly refreshToken: string };

export interface PodioOAuthOptions {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly grant: PodioGrant;
  readonly clock: Clock;
  readonly timeoutMs: number;
  /** Retries and breaker settings (the gateway's); without them, the fallback's (resilience.ts). */
  readonly resilience?: Resilience;
  /** Renew this long before `expires_in` runs out (default 600 s; Podio's tokens live 8 hours). */
  readonly refreshMarginSeconds?: number;
  /** Called when Podio answers with a refresh token other than the one held; persist it. */
  readonly onRefreshTokenRotated?: (refreshToken: string) => void;
}

interface CachedToken {
  readonly value: string;
  readonly renewAt: number;
}

const TOKEN_PATH = '/oauth/token/v2';
const RATE_LIMIT_WAIT_SECONDS = 300;

const grantHint: Record<PodioGrant['kind'], string> = {
  app: 'check PODIO_CLIENT_ID, PODIO_CLIENT_SECRET, PODIO_APP_ID and PODIO_APP_TOKEN',
  password: 'check PODIO_CLIENT_ID, PODIO_CLIENT_SECRET, PODIO_USERNAME and PODIO_PASSWORD',
  refresh_token:
    'check PODIO_CLIENT_ID and PODIO_CLIENT_SECRET, and authorise the gateway again to get a new PODIO_REFRESH_TOKEN',
};

/**
 * Podio OAuth 2 access tokens from `POST /oauth/token/v2` (JSON body; the older form-encoded
 * `/oauth/token` is not used). The token is cached until `expires_in` minus a margin; concurrent
 * callers share one request. Every answer's refresh token is kept: later renewals use the refresh
 * grant, and the app and password grants fall back to their own credentials when it is refused.
 */
export class PodioOAuth implements PodioAuth {
  readonly #http: AxiosInstance;
  readonly #options: PodioOAuthOptions;
  readonly #marginMs: number;
  readonly #secrets: string[];
  #refreshToken: string | undefined;
  #cached: CachedToken | undefined;
  #inFlight: Promise<Either<GatewayError, string>> | undefined;

  constructor(options: PodioOAuthOptions) {
    this.#options = options;
    this.#marginMs = (options.refreshMarginSeconds ?? 600) * 1000;
    this.#refreshToken = options.grant.kind === 'refresh_token' ? options.grant.refreshToken : undefined;
    this.#http = createVendorHttp({
      vendor: PODIO,
      baseURL: options.baseUrl,
      timeoutMs: options.timeoutMs,
      resilience: options.resilience,
      headers: { 'Content-Type': 'application/json' },
    });
    const g = options.grant;
    this.#secrets = [
      options.clientSecret,
      ...(g.kind === 'app' ? [g.appToken] : g.kind === 'password' ? [g.password] : [g.refreshToken]),
    ].filter((s) => s.length >= 4);
  }

  accessToken(): Promise<Either<GatewayError, string>> {
    const cached = this.#cached;
    if (cached && this.#options.clock.now().getTime() < cached.renewAt) return Promise.resolve(E.right(cached.value));
    if (!this.#inFlight) {
      this.#inFlight = this.#obtain().finally(() => {
        this.#inFlight = undefined;
      });
    }
    return this.#inFlight;
  }

  invalidate(): void {
    this.#cached = undefined;
  }

  async #obtain(): Promise<Either<GatewayError, string>> {
    const grant = this.#options.grant;
    if (this.#refreshToken) {
      const refreshed = await this.#request({ grant_type: 'refresh_token', refresh_token: this.#refreshToken });
      if (E.isRight(refreshed) || grant.kind === 'refresh_token') return refreshed;
      const refused = refreshed.left._tag === 'UpstreamFailure' && refreshed.left.reauthorize === true;
      if (!refused) return refreshed;
      this.#refreshToken = undefined;
    }
    return grant.kind === 'app'
      ? this.#request({ grant_type: 'app', app_id: grant.appId, app_token: grant.appToken })
      : grant.kind === 'password'
        ? this.#request({ grant_type: 'password', username: grant.username, password: grant.password })
        : E.left(this.#refused(400, undefined));
  }

  async #request(fields: Record<string, string>): Promise<Either<GatewayError, string>> {
    const startedAt = this.#options.clock.now().getTime();
    let res;
    try {
      res = await this.#http.post(TOKEN_PATH, {
        ...fields,
        client_id: this.#options.clientId,
        client_secret: this.#options.clientSecret,
      });
    } catch (error) {
      return E.left(transportFailure(PODIO, error));
    }
    if (res.status === 200 || res.status === 201) {
      const decoded = decodePodio(PodioTokenResponse, res.data, res.status, 'the token request');
      if (E.isLeft(decoded)) return decoded;
      const body = decoded.right;
      const lifetimeMs = body.expires_in * 1000;
      const usableMs = lifetimeMs > 2 * this.#marginMs ? lifetimeMs - this.#marginMs : lifetimeMs / 2;
      this.#cached = { value: body.access_token, renewAt: startedAt + usableMs };
      if (body.refresh_token) {
        const rotated =
          this.#options.grant.kind === 'refresh_token' &&
          this.#refreshToken !== undefined &&
          body.refresh_token !== this.#refreshToken;
        this.#refreshToken = body.refresh_token;
        if (rotated) this.#options.onRefreshTokenRotated?.(body.refresh_token);
      }
      return E.right(body.access_token);
    }
    this.#cached = undefined;
    const error = PodioErrorBody.decode(res.data);
    const detail = E.isRight(error) ? (error.right.error_description ?? error.right.error) : undefined;
    if (res.status === 400 || res.status === 401 || res.status === 403)
      return E.left(this.#refused(res.status, detail));
    if (res.status === 420 || res.status === 429) {
      return E.left(
        rateLimited(
          `Podio's rate limit stopped the gateway from renewing its access token. Wait about ${RATE_LIMIT_WAIT_SECONDS / 60} minutes, then try again.`,
          RATE_LIMIT_WAIT_SECONDS,
        ),
      );
    }
    if (res.status >= 500) {
      return E.left(
        upstreamFailure(PODIO, `Podio could not issue an access token (HTTP ${res.status}). Try again shortly.`, {
          retryable: true,
          status: res.status,
        }),
      );
    }
    return E.left(
      upstreamFailure(PODIO, `Podio answered the token request with HTTP ${res.status}.`, {
        retryable: false,
        status: res.status,
      }),
    );
  }

  #refused(status: number, detail: string | undefined): GatewayError {
    const said = detail ? ` (Podio said: ${this.#redact(detail)})` : '';
    return upstreamFailure(
      PODIO,
      `Podio refused the gateway's credentials${said}. An operator has to fix the Podio connection: ${grantHint[this.#options.grant.kind]}. Retrying will not help.`,
      { retryable: false, reauthorize: true, status },
    );
  }

  #redact(text: string): string {
    return this.#secrets.reduce((acc, secret) => acc.split(secret).join('[redacted]'), text);
  }
}
