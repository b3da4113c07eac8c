import type { AxiosInstance, AxiosResponse } from 'axios';
import { upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, pipe, TE, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import { shareFileError } from './sharefile-errors.js';
import type { ShareFileTokenProvider } from './sharefile-tokens.js';
import type { Resilience } from '../http/resilience.js';

export const SHAREFILE = 'ShareFile';
const VENDOR = SHAREFILE;

export interface ShareFileClientOptions {
  /** https://{subdomain}.{apicp}/sf/v3 */
  readonly apiBaseUrl: string;
  readonly tokens: ShareFileTokenProvider;
  readonly timeoutMs: number;
  /** Retries and breaker settings (the gateway's); without them, the fallback's (resilience.ts). */
  readonly resilience?: Resilience;
}

export interface SfRequest {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Relative to the API base; an absolute URL (a Location on the API's own host) is sent as it is. */
  readonly path: string;
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly body?: unknown;
  /** What the call is about, for not-found messages: ["item", "fo123"]. */
  readonly subject?: readonly [resource: string, id: string];
  /** A 3xx answer is passed to the decoder (its Location is the answer) instead of being an error. */
  readonly acceptRedirect?: boolean;
}

/** One authenticated ShareFile v3 call: bearer token, one retry after a 401 with a fresh token, errors mapped to ours. */
export class ShareFileClient {
  readonly #http: AxiosInstance;
  readonly #tokens: ShareFileTokenProvider;
  /** The account's API base, without a trailing slash. */
  readonly apiBaseUrl: string;

  constructor(o: ShareFileClientOptions) {
    this.apiBaseUrl = o.apiBaseUrl.replace(/\/+$/, '');
    this.#http = createVendorHttp({
      vendor: VENDOR,
      baseURL: this.apiBaseUrl,
      timeoutMs: o.timeoutMs,
      resilience: o.resilience,
    });
    this.#tokens = o.tokens;
  }

  async send(r: SfRequest): Promise<Either<GatewayError, AxiosResponse>> {
    if (!this.#ownHost(r.path))
      return E.left(
        upstreamFailure(
          VENDOR,
          `The gateway sends ShareFile's token to the account's API host only, not to ${r.path}.`,
          {
            retryable: false,
          },
        ),
      );
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await this.#tokens.accessToken();
      if (E.isLeft(token)) return token;
      let res: AxiosResponse;
      try {
        res = await this.#http.request({
          method: r.method,
          url: r.path,
          params: r.query ? Object.fromEntries(Object.entries(r.query).filter(([, v]) => v !== undefined)) : undefined,
          // A POST without a body goes out as the official .NET SDK sends it: `new StringContent("")`, an
          // empty text/plain body (citrix/ShareFile-NET @ 679b331, Requests/Providers/BaseRequestProvider.cs),
          // never axios's default form content type.
          data: r.body ?? (r.method === 'POST' ? '' : undefined),
          headers: {
            Authorization: `Bearer ${token.right}`,
            ...(r.body !== undefined
              ? { 'Content-Type': 'application/json' }
              : r.method === 'POST'
                ? { 'Content-Type': 'text/plain; charset=utf-8' }
                : {}),
          },
        });
      } catch (e) {
        return E.left(transportFailure(VENDOR, e));
      }
      if (res.status === 401 && attempt === 0) {
        // the rejected token itself: a stored token (the token store) is then refreshed, not reused
        this.#tokens.invalidate(token.right);
        continue;
      }
      return res.status < 300 || (r.acceptRedirect === true && res.status < 400)
        ? E.right(res)
        : E.left(
            shareFileError({
              status: res.status,
              data: res.data,
              retryAfter: res.headers['retry-after'],
              path: r.path,
              subject: r.subject,
            }),
          );
    }
    return E.left(
      upstreamFailure(VENDOR, 'ShareFile kept refusing the access token.', {
        retryable: false,
        reauthorize: true,
        status: 401,
      }),
    );
  }

  /** A relative path, or an absolute URL on the API base's own origin (the bearer token goes nowhere else). */
  #ownHost(path: string): boolean {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(path) && !path.startsWith('//')) return true;
    try {
      return new URL(path).origin === new URL(this.apiBaseUrl).origin;
    } catch {
      return false;
    }
  }

  /** `send`, then `decode` the answer, as a TaskEither. */
  call<A>(r: SfRequest, decode: (res: AxiosResponse) => Either<GatewayError, A>): TaskEither<GatewayError, A> {
    return pipe(
      () => this.send(r),
      TE.chain((res) => TE.fromEither(decode(res))),
    );
  }
}

/** `Items(id)` with the id quoted as OData wants it; aliases stay bare words. */
export const itemPath = (id: string): string => `/Items(${encodeURIComponent(id)})`;
export const sharePath = (id: string): string => `/Shares(${encodeURIComponent(id)})`;
