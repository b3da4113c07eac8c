import type { AxiosInstance, AxiosResponse } from 'axios';
import { upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import { knownTimeZone } from '../http/zoned-day.js';
import { hubspotError, type ErrorContext, type Operation } from './hubspot-errors.js';
import type { AccessTokenProvider } from './hubspot-tokens.js';
import type { Resilience } from '../http/resilience.js';

const VENDOR = 'HubSpot';

export interface HubSpotClientOptions {
  readonly baseUrl: string;
  readonly tokens: AccessTokenProvider;
  readonly timeoutMs: number;
  /** Retries and breaker settings (the gateway's); without them, the fallback's (resilience.ts). */
  readonly resilience?: Resilience;
  /** For Retry-After dates and daily-limit resets. */
  readonly clock: Clock;
  /** Where the client says that it counts HubSpot's day in UTC because the account's time zone is not known. */
  readonly warn?: (fields: Record<string, unknown>, message: string) => void;
}

export interface HubSpotRequest {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly url: string;
  readonly params?: URLSearchParams;
  readonly data?: unknown;
  /** A POST that only reads (a search): retried like a GET on 429 and 5xx. */
  readonly idempotent?: boolean;
  /** Sent even while the daily quota is down to its reserve (the account details, to learn the day's zone). */
  readonly quotaExempt?: boolean;
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
  /** Reads the account's details (and so its time zone): set by the contact book (hubspot-account.ts). */
  learnTimeZone: (() => Promise<void>) | undefined;
  readonly #warn: HubSpotClientOptions['warn'];
  /** The daily quota went low while the zone was unknown: the account is read before the call answers. */
  #zoneWanted = false;
  #warnedUtc = false;

  constructor(options: HubSpotClientOptions) {
    // HubSpot's day runs midnight to midnight in the account's time zone (changelog 2018-11-06), so the daily
    // reserve counts its day there; UTC only until the zone is known (zoned-day.ts, quota.ts).
    this.#http = createVendorHttp({
      vendor: VENDOR,
      baseURL: options.baseUrl,
      timeoutMs: options.timeoutMs,
      resilience: options.resilience,
      day: {
        timeZone: () => this.timeZone,
        unknown: () => {
          this.#zoneWanted = true;
        },
      },
    });
    this.#tokens = options.tokens;
    this.#clock = options.clock;
    this.#warn = options.warn;
  }

  /**
   * Sends a request; on a 401 the rejected token is dropped everywhere, a fresh one is obtained (one
   * refresh for all concurrent callers) and the request is sent once more.
   */
  async send(request: HubSpotRequest): Promise<Either<GatewayError, Sent>> {
    const first = await this.#sendOnce(request);
    await this.#zoneIfWanted();
    if (E.isLeft(first) || first.right.res.status !== 401 || !this.#tokens.refreshable) return first;
    this.#tokens.invalidate?.(first.right.token);
    return this.#sendOnce(request);
  }

  /** When the daily quota went low with no known zone: the account is read once, or the UTC fallback is logged. */
  async #zoneIfWanted(): Promise<void> {
    if (!this.#zoneWanted) return;
    this.#zoneWanted = false;
    if (this.timeZone === undefined) await this.learnTimeZone?.();
    if (knownTimeZone(this.timeZone) || this.#warnedUtc) return;
    this.#warnedUtc = true;
    this.#warn?.(
      { vendor: VENDOR, timeZone: this.timeZone ?? null },
      "HubSpot's daily quota is nearly used up and the account's time zone is not known (GET /account-info/v3/details failed or named a zone this runtime does not know): the gateway counts HubSpot's day in UTC, so its wait until the daily reset may be off by the account's UTC offset",
    );
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
        ...(request.quotaExempt ? { quotaExempt: true } : {}),
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
      { status: res.status, data: res.data, retryAfter: res.headers['retry-after'], headers: res.headers, token },
      { ...ctx, ...(this.timeZone ? { timeZone: this.timeZone } : {}) },
      this.#clock,
    );
    if (invalidateToken) this.#tokens.invalidate?.(token);
    return error;
  }
}
