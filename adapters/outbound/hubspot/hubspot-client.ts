import type { AxiosInstance, AxiosResponse } from 'axios';
import { upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import { hubspotError, type ErrorContext, type Operation } from './hubspot-errors.js';
import type { AccessTokenProvider } from './hubspot-tokens.js';

const VENDOR = 'HubSpot';

export interface HubSpotClientOptions {
  readonly baseUrl: string;
  readonly tokens: AccessTokenProvider;
  readonly timeoutMs: number;
  /** For Retry-After dates and daily-limit resets. */
  readonly clock: Clock;
}

export interface HubSpotRequest {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly url: string;
  readonly params?: URLSearchParams;
  readonly data?: unknown;
  /** A POST that only reads (a search): retried like a GET on 429 and 5xx. */
  readonly idempotent?: boolean;
}

/** An answer of any status, with the token it was sent with (to keep it out of error messages). */
export interface Sent {
  readonly res: AxiosResponse;
  readonly token: string;
}

/**
 * One authenticated HubSpot call: `Authorization: Bearer <token>` and JSON bodies. Every status comes
 * back as an answer (the adapter decides which are errors); `failure` turns an error answer into the
 * gateway's error and forgets a token HubSpot rejected.
 */
export class HubSpotClient {
  readonly #http: AxiosInstance;
  readonly #tokens: AccessTokenProvider;
  readonly #clock: Clock;
  /** The account's IANA time zone, once known: HubSpot's daily limit resets at midnight there. */
  timeZone: string | undefined;

  constructor(options: HubSpotClientOptions) {
    this.#http = createVendorHttp({ vendor: VENDOR, baseURL: options.baseUrl, timeoutMs: options.timeoutMs });
    this.#tokens = options.tokens;
    this.#clock = options.clock;
  }

  /**
   * Sends a request; on a 401 the rejected token is dropped everywhere, a fresh one is obtained (one
   * refresh for all concurrent callers) and the request is sent once more.
   */
  async send(request: HubSpotRequest): Promise<Either<GatewayError, Sent>> {
    const first = await this.#sendOnce(request);
    if (E.isLeft(first) || first.right.res.status !== 401 || !this.#tokens.refreshable) return first;
    this.#tokens.invalidate?.(first.right.token);
    return this.#sendOnce(request);
  }

  async #sendOnce(request: HubSpotRequest): Promise<Either<GatewayError, Sent>> {
    const token = await this.#tokens.accessToken();
    if (E.isLeft(token)) return token;
    try {
      const res = await this.#http.request({
        method: request.method,
        url: request.url,
        params: request.params,
        data: request.data,
        ...(request.idempotent ? { idempotent: true } : {}),
        headers: {
          Authorization: `Bearer ${token.right}`,
          ...(request.data !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
      });
      return E.right({ res, token: token.right });
    } catch (error) {
      return E.left(transportFailure(VENDOR, error));
    }
  }

  /** A HubSpot error answer as the gateway's error. */
  failure(op: Operation, sent: Sent, ctx: ErrorContext): GatewayError {
    const { res, token } = sent;
    // A 401 to a token refreshed a moment ago (send already retried once): the refresh itself was accepted,
    // so the connection needs no re-authorisation; only a refused refresh does (hubspot-tokens.ts).
    if (res.status === 401 && this.#tokens.refreshable) {
      this.#tokens.invalidate?.(token);
      return upstreamFailure(
        VENDOR,
        'HubSpot rejected a freshly issued access token (HTTP 401). The next call obtains another; try again shortly.',
        { retryable: true, status: 401 },
      );
    }
    const { error, invalidateToken } = hubspotError(
      op,
      { status: res.status, data: res.data, retryAfter: res.headers['retry-after'], token },
      { ...ctx, ...(this.timeZone ? { timeZone: this.timeZone } : {}) },
      this.#clock,
    );
    if (invalidateToken) this.#tokens.invalidate?.(token);
    return error;
  }
}
