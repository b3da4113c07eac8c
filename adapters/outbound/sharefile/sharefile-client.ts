import type { AxiosInstance, AxiosResponse } from 'axios';
import { conflict, forbidden, invalidInput, notFound, rateLimited, upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import { createVendorHttp, retryAfterSeconds, transportFailure } from '../http/vendor-http.js';
import { errorMessageOf } from './sharefile-codecs.js';
import type { ShareFileTokenProvider } from './sharefile-tokens.js';

const VENDOR = 'ShareFile';

export interface ShareFileClientOptions {
  /** https://{subdomain}.{apicp}/sf/v3 */
  readonly apiBaseUrl: string;
  readonly tokens: ShareFileTokenProvider;
  readonly timeoutMs: number;
}

export interface SfRequest {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly body?: unknown;
  /** What the call is about, for not-found messages: ["item", "fo123"]. */
  readonly subject?: readonly [resource: string, id: string];
}

/** One authenticated ShareFile v3 call: bearer token, one retry after a 401 with a fresh token, errors mapped to ours. */
export class ShareFileClient {
  readonly #http: AxiosInstance;
  readonly #tokens: ShareFileTokenProvider;

  constructor(o: ShareFileClientOptions) {
    this.#http = createVendorHttp({ vendor: VENDOR, baseURL: o.apiBaseUrl.replace(/\/+$/, ''), timeoutMs: o.timeoutMs });
    this.#tokens = o.tokens;
  }

  async send(r: SfRequest): Promise<Either<GatewayError, AxiosResponse>> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await this.#tokens.accessToken();
      if (E.isLeft(token)) return token;
      let res: AxiosResponse;
      try {
        res = await this.#http.request({
          method: r.method,
          url: r.path,
          params: r.query ? Object.fromEntries(Object.entries(r.query).filter(([, v]) => v !== undefined)) : undefined,
          data: r.body,
          headers: { Authorization: `Bearer ${token.right}`, ...(r.body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        });
      } catch (e) {
        return E.left(transportFailure(VENDOR, e));
      }
      if (res.status === 401 && attempt === 0) {
        this.#tokens.invalidate();
        continue;
      }
      return res.status < 300 ? E.right(res) : E.left(this.#error(res, r));
    }
    return E.left(upstreamFailure(VENDOR, 'ShareFile kept refusing the access token.', { retryable: false, reauthorize: true, status: 401 }));
  }

  #error(res: AxiosResponse, r: SfRequest): GatewayError {
    const said = errorMessageOf(res.data);
    const detail = said ? ` ShareFile said: ${said}` : '';
    switch (res.status) {
      case 400:
        return invalidInput(`ShareFile refused the request.${detail}`, undefined, undefined, { upstream_status: 400 });
      case 401:
        return upstreamFailure(VENDOR, `ShareFile refused the gateway's credentials.${detail} An operator must authorise the connection again.`, { retryable: false, reauthorize: true, status: 401 });
      case 403:
        return forbidden(`The ShareFile account behind the gateway may not do this.${detail}`, { upstream_status: 403 });
      case 404: {
        const [resource, id] = r.subject ?? ['item', r.path];
        return notFound(resource, id, `No ${resource} with id "${id}" in ShareFile.${detail} Find ids with ${resource === 'share' ? 'files_listShares' : 'files_listChildren or files_searchItems'}.`);
      }
      case 409:
        return conflict(`ShareFile reports a conflict.${detail} Pass overwrite=true to replace the existing item, or choose another name.`);
      case 429:
        return rateLimited(`ShareFile is limiting the gateway's requests.${detail}`, retryAfterSeconds(res.headers['retry-after']) ?? 30);
      default:
        return upstreamFailure(VENDOR, `ShareFile failed with status ${res.status}.${detail}${res.status >= 500 ? ' Retrying later is safe for reads.' : ''}`, {
          retryable: res.status >= 500,
          status: res.status,
        });
    }
  }
}

/** `Items(id)` with the id quoted as OData wants it; aliases stay bare words. */
export const itemPath = (id: string): string => `/Items(${encodeURIComponent(id)})`;
export const sharePath = (id: string): string => `/Shares(${encodeURIComponent(id)})`;
