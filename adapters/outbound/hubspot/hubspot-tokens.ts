import type { AxiosInstance } from 'axios';
import { upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { StoredTokens, TokenStore } from '../../../ports/token-store.js';
import { StaticAccessToken, type AccessTokenSource } from '../http/access-token.js';
import { createVendorHttp, failedBeforeAnswer, transportFailure } from '../http/vendor-http.js';
import { decodeTokenAnswer } from './hubspot-codecs.js';
import type { Resilience } from '../http/resilience.js';

const VENDOR = 'HubSpot';

/** Where the HubSpot adapter gets the bearer token of each request. */
export type AccessTokenProvider = AccessTokenSource;
export { StaticAccessToken };

export interface OAuthRefreshingAccessTokenOptions {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly refreshToken: string;
  readonly clock: Clock;
  readonly timeoutMs: number;
  /** Retries and breaker settings (the gateway's); without them, the fallback's (resilience.ts). */
  readonly resilience?: Resilience;
  /** Refresh this long before HubSpot's `expires_in` runs out. */
  readonly refreshMarginSeconds?: number;
  /** Called when HubSpot answers a refresh with a different refresh token. */
  readonly onRefreshTokenRotated?: (newRefreshToken: string) => void;
  /**
   * Where the tokens are kept between instances. With a shared store (Redis) one instance refreshes
   * under the store's lock and the others read its result; a rotated refresh token is saved there.
   */
  readonly store?: TokenStore;
  /** The store's name for this connection. */
  readonly connection?: string;
}

interface CachedToken {
  readonly value: string;
  readonly refreshAt: number;
}

/**
 * OAuth access tokens from a refresh token (`POST /oauth/2026-03/token`, grant_type=refresh_token).
 * HubSpot access tokens live 30 minutes: the token is refreshed ahead of `expires_in`, concurrent callers
 * share one refresh, and a token HubSpot rejected (401) is never used again, from the cache or the shared
 * store, so that the next call refreshes at once.
 */
export class OAuthRefreshingAccessToken implements AccessTokenProvider {
  readonly refreshable = true;
  readonly #http: AxiosInstance;
  readonly #options: OAuthRefreshingAccessTokenOptions;
  readonly #marginMs: number;
  #refreshToken: string;
  #cached: CachedToken | undefined;
  /** The last access token HubSpot answered 401 to: never handed out again. */
  #rejected: string | undefined;
  #inFlight: Promise<Either<GatewayError, string>> | undefined;

  constructor(options: OAuthRefreshingAccessTokenOptions) {
    this.#options = options;
    this.#refreshToken = options.refreshToken;
    this.#marginMs = (options.refreshMarginSeconds ?? 300) * 1000;
    this.#http = createVendorHttp({
      vendor: VENDOR,
      baseURL: options.baseUrl,
      timeoutMs: options.timeoutMs,
      resilience: options.resilience,
    });
  }

  accessToken(): Promise<Either<GatewayError, string>> {
    const cached = this.#cached;
    if (cached && this.#options.clock.now().getTime() < cached.refreshAt) return Promise.resolve(E.right(cached.value));
    if (!this.#inFlight) {
      this.#inFlight = (this.#options.store ? this.#viaStore(this.#options.store) : this.#refresh()).finally(() => {
        this.#inFlight = undefined;
      });
    }
    return this.#inFlight;
  }

  invalidate(rejected?: string): void {
    if (rejected !== undefined) this.#rejected = rejected;
    this.#cached = undefined;
  }

  get #connection(): string {
    return this.#options.connection ?? `hubspot:${this.#options.clientId}`;
  }

  #usable(tokens: StoredTokens | undefined): StoredTokens | undefined {
    return tokens !== undefined &&
      tokens.accessToken !== this.#rejected &&
      this.#options.clock.now().getTime() < tokens.expiresAt - this.#marginMs
      ? tokens
      : undefined;
  }

  #adopt(tokens: StoredTokens): Either<GatewayError, string> {
    this.#refreshToken = tokens.refreshToken;
    this.#cached = { value: tokens.accessToken, refreshAt: tokens.expiresAt - this.#marginMs };
    return E.right(tokens.accessToken);
  }

  /** Reads the shared token; refreshes under the store's lock only when nobody else has just done so. */
  async #viaStore(store: TokenStore): Promise<Either<GatewayError, string>> {
    const stored = this.#usable(await store.get(this.#connection));
    if (stored) return this.#adopt(stored);
    const outcome = await store.withLock(this.#connection, this.#options.timeoutMs, async () => {
      const latest = await store.get(this.#connection);
      const fresh = this.#usable(latest);
      if (fresh) return this.#adopt(fresh);
      if (latest) this.#refreshToken = latest.refreshToken;
      const refreshed = await this.#refresh();
      if (E.isRight(refreshed) && this.#cached) {
        await store.put(this.#connection, {
          accessToken: refreshed.right,
          expiresAt: this.#cached.refreshAt + this.#marginMs,
          refreshToken: this.#refreshToken,
        });
      }
      return refreshed;
    });
    return (
      outcome ??
      E.left(
        upstreamFailure(
          VENDOR,
          'Another gateway instance is refreshing the HubSpot token and did not finish in time. Try again shortly.',
          { retryable: true },
        ),
      )
    );
  }

  /**
   * A refresh whose connection failed before any answer (reset, "socket hang up") is sent once more. HubSpot
   * keeps the refresh token: "store the refresh token you get when initiating your OAuth integration and use
   * it to generate a new access token" (the token endpoint's description: HubSpot/hubspot-api-nodejs
   * codegen/oauth/apis/TokensApi.ts; developers.hubspot.com post-oauth-v1-token), so repeating the exchange
   * loses nothing. Should an answer ever carry another refresh token, it is kept (onRefreshTokenRotated, and
   * the shared store).
   */
  async #refresh(): Promise<Either<GatewayError, string>> {
    const first = await this.#refreshOnce();
    return E.isLeft(first) && failedBeforeAnswer(first.left) ? this.#refreshOnce() : first;
  }

  async #refreshOnce(): Promise<Either<GatewayError, string>> {
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: this.#options.clientId,
      client_secret: this.#options.clientSecret,
      refresh_token: this.#refreshToken,
    });
    const startedAt = this.#options.clock.now().getTime();
    let res;
    try {
      // The dated token endpoint; /oauth/v1/token is deprecated (HubSpot's changelog: fully on 2027-02-16).
      res = await this.#http.post('/oauth/2026-03/token', form.toString(), {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=utf-8' },
      });
    } catch (error) {
      return E.left(transportFailure(VENDOR, error));
    }
    if (res.status === 400 || res.status === 401) {
      this.#cached = undefined;
      return E.left(
        upstreamFailure(
          VENDOR,
          'The HubSpot connection must be re-authorised: the refresh token was rejected. An operator has to connect the gateway to HubSpot again; retrying will not help.',
          {
            retryable: false,
            reauthorize: true,
            status: res.status,
          },
        ),
      );
    }
    if (res.status === 429 || res.status >= 500) {
      return E.left(
        upstreamFailure(
          VENDOR,
          `HubSpot could not refresh the gateway's access token (HTTP ${res.status}). Try again shortly.`,
          { retryable: true, status: res.status },
        ),
      );
    }
    if (res.status !== 200) {
      return E.left(
        upstreamFailure(VENDOR, `HubSpot answered the token refresh with HTTP ${res.status}.`, {
          retryable: false,
          status: res.status,
        }),
      );
    }
    const decoded = decodeTokenAnswer(res.data, res.status);
    if (E.isLeft(decoded)) return decoded;
    const body = decoded.right;
    const lifetimeMs = body.expires_in * 1000;
    const usableMs = lifetimeMs > this.#marginMs ? lifetimeMs - this.#marginMs : lifetimeMs / 2;
    this.#cached = { value: body.access_token, refreshAt: startedAt + usableMs };
    if (body.refresh_token && body.refresh_token !== this.#refreshToken) {
      this.#refreshToken = body.refresh_token;
      this.#options.onRefreshTokenRotated?.(body.refresh_token);
    }
    return E.right(body.access_token);
  }
}
