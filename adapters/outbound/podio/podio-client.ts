/**
 * The one HTTP client every Podio adapter (records, workspaces) goes through.
 *
 *   const podio = new PodioClient({ baseUrl, auth, timeoutMs, clock });
 *   const r = await podio.request('GET', `/space/${id}`, { codec: PodioSpace });          // Either<GatewayError, PodioSpace>
 *   await podio.request('PUT', `/space/${id}`, { body: { name }, codec: t.unknown });      // 204: decodes `undefined`
 *   await podio.request('POST', `/item/app/${appId}/`, { query: { hook: true, silent: false }, body, codec: Created });
 *
 * - Sends `Authorization: OAuth2 <access token>` from `auth` and JSON bodies; `query` values that are
 *   undefined are left out, booleans and numbers are written as text.
 * - A 2xx answer is decoded with `codec`; an empty body (204, or a 200 with nothing in it) is decoded
 *   as `undefined`, so pass `t.unknown`, `t.undefined` or `t.void` for such calls. A shape the codec
 *   rejects is an UpstreamFailure (not retryable) naming where it failed.
 * - Errors, from Podio's body `{error, error_description, error_detail, error_parameters, ...}`:
 *   400 InvalidInput (Podio's description; `details.podio_error`, `details.error_parameters`),
 *   401 invalid_token / expired_token: the token is invalidated and the call repeated once, any other
 *   401 (or a second one) UpstreamFailure with `reauthorize`, 403 Forbidden with Podio's message
 *   (e.g. a space's user limit), 404 NotFound, 409 Conflict, 410 NotFound saying the object was deleted,
 *   420 (Podio's rate limit) and 429 RateLimited with `rateLimitWaitSeconds` (default 300: Podio counts
 *   per hour and tells nobody when the counter resets; a 429's Retry-After wins), 5xx retryable
 *   UpstreamFailure, no answer at all via `transportFailure`. Messages never contain the token.
 * - `options.resource` names the object for NotFound messages (`{ kind: 'space', id: 42 }`); without it
 *   the first path segment and the first number in the path are used.
 */
import type { AxiosInstance, AxiosResponse } from 'axios';
import type * as t from 'io-ts';
import { upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import { decodePodio, PODIO, PodioErrorBody } from './podio-codecs.js';
import { podioError } from './podio-errors.js';
import type { PodioAuth } from './podio-tokens.js';
import type { Resilience } from '../http/resilience.js';

export const PODIO_BASE_URL = 'https://api.podio.com';

export type PodioMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type PodioQuery = Record<string, string | number | boolean | undefined>;

export interface PodioRequestOptions<A> {
  readonly query?: PodioQuery;
  readonly body?: unknown;
  /** A body sent as it is instead of JSON (a multipart file upload), with its Content-Type. */
  readonly raw?: { readonly contentType: string; readonly data: Uint8Array };
  readonly codec: t.Type<A, unknown, unknown>;
  /** The object the path addresses, for NotFound messages and `resource`/`id` of the error. */
  readonly resource?: { readonly kind: string; readonly id: string | number };
  /** A POST that only reads (the item filter): retried like a GET on 5xx. */
  readonly idempotent?: boolean;
}

export interface PodioClientOptions {
  readonly baseUrl?: string;
  readonly auth: PodioAuth;
  readonly timeoutMs: number;
  /** Retries and breaker settings (the gateway's); without them, the fallback's (resilience.ts). */
  readonly resilience?: Resilience;
  readonly clock: Clock;
  /** The retry hint of a 420 (Podio's rate limit carries no reset time). Default 300 seconds. */
  readonly rateLimitWaitSeconds?: number;
}

const isEmpty = (data: unknown): boolean =>
  data === undefined || data === null || (typeof data === 'string' && data.trim() === '');

const queryParams = (query: PodioQuery | undefined): URLSearchParams | undefined => {
  if (!query) return undefined;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.append(k, String(v));
  return params;
};

export class PodioClient {
  readonly #http: AxiosInstance;
  readonly #auth: PodioAuth;
  readonly #clock: Clock;
  readonly #rateLimitWait: number;

  constructor(options: PodioClientOptions) {
    this.#http = createVendorHttp({
      vendor: PODIO,
      baseURL: options.baseUrl ?? PODIO_BASE_URL,
      timeoutMs: options.timeoutMs,
      resilience: options.resilience,
      headers: { 'Content-Type': 'application/json' },
    });
    this.#auth = options.auth;
    this.#clock = options.clock;
    this.#rateLimitWait = options.rateLimitWaitSeconds ?? 300;
  }

  /** `request` as a TaskEither, for adapters that compose calls with fp-ts. */
  task<A>(method: PodioMethod, path: string, options: PodioRequestOptions<A>): TaskEither<GatewayError, A> {
    return () => this.request(method, path, options);
  }

  async request<A>(
    method: PodioMethod,
    path: string,
    options: PodioRequestOptions<A>,
  ): Promise<Either<GatewayError, A>> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.#auth.accessToken();
      if (E.isLeft(token)) return token;
      let res: AxiosResponse;
      try {
        res = await this.#http.request({
          method,
          url: path,
          ...(options.idempotent ? { idempotent: true } : {}),
          params: queryParams(options.query),
          data: options.raw
            ? Buffer.from(options.raw.data)
            : options.body === undefined
              ? undefined
              : JSON.stringify(options.body),
          headers: {
            Authorization: `OAuth2 ${token.right}`,
            ...(options.raw ? { 'Content-Type': options.raw.contentType } : {}),
          },
          responseType: 'text',
          transformResponse: (raw: unknown) => raw,
        });
      } catch (error) {
        return E.left(transportFailure(PODIO, error));
      }
      const data = parseJson(res.data);
      if (res.status >= 200 && res.status < 300) {
        if (isEmpty(res.data)) return decodePodio(options.codec, undefined, res.status, `${method} ${path}`);
        if (data === NOT_JSON)
          return E.left(
            upstreamFailure(
              PODIO,
              `Podio answered ${method} ${path} with something other than JSON (HTTP ${res.status}). Retrying will not help.`,
              { retryable: false, status: res.status },
            ),
          );
        return decodePodio(options.codec, data, res.status, `${method} ${path}`);
      }
      const body = PodioErrorBody.decode(data === NOT_JSON ? {} : data);
      const error = E.isRight(body) ? body.right : {};
      if (
        res.status === 401 &&
        attempt === 0 &&
        (error.error === 'invalid_token' || error.error_description === 'expired_token')
      ) {
        // the rejected token itself: a stored token (the token store) is then refreshed, not reused
        this.#auth.invalidate(token.right);
        continue;
      }
      const answer = {
        method,
        path,
        status: res.status,
        retryAfter: res.headers['retry-after'],
        rateLimitLimit: res.headers['x-rate-limit-limit'],
        body: error,
        token: token.right,
        resource: options.resource,
      };
      return E.left(podioError(answer, { clock: this.#clock, rateLimitWaitSeconds: this.#rateLimitWait }));
    }
  }
}

const NOT_JSON = Symbol('not JSON');

const parseJson = (raw: unknown): unknown => {
  if (typeof raw !== 'string') return raw;
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return NOT_JSON;
  }
};
