import type { AxiosInstance, AxiosResponse } from 'axios';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../../domain/shared/fp.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import { batchDataError } from './batchdata-errors.js';
import type { Resilience } from '../http/resilience.js';

const VENDOR = 'BatchData';
const SKIP_TRACE_PATH = '/api/v1/property/skip-trace';

export interface BatchDataClientOptions {
  /** Scheme and host only, such as https://api.batchdata.com. */
  readonly baseUrl: string;
  readonly apiToken: string;
  readonly timeoutMs: number;
  /** Retries and breaker settings (the gateway's); without them, the fallback's (resilience.ts). */
  readonly resilience?: Resilience;
}

/** BatchData's API with the gateway's API token as bearer token; every status comes back as an answer. */
export class BatchDataClient {
  readonly #http: AxiosInstance;
  readonly #token: string;
  readonly #endpoint: string;

  constructor(options: BatchDataClientOptions) {
    const baseURL = options.baseUrl
      .trim()
      .replace(/\/+$/, '')
      .replace(/\/api\/v1$/, '');
    this.#token = options.apiToken.trim();
    this.#endpoint = `${baseURL}${SKIP_TRACE_PATH}`;
    this.#http = createVendorHttp({
      vendor: VENDOR,
      baseURL,
      timeoutMs: options.timeoutMs,
      resilience: options.resilience,
      headers: {
        Authorization: `Bearer ${this.#token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
    });
  }

  get hasToken(): boolean {
    return this.#token !== '';
  }

  /** `POST /api/v1/property/skip-trace`. */
  skipTrace(body: unknown): TaskEither<GatewayError, AxiosResponse<unknown>> {
    return TE.tryCatch(
      () => this.#http.post<unknown>(SKIP_TRACE_PATH, body),
      (e) => transportFailure(VENDOR, e),
    );
  }

  /** An error of status `code` (HTTP, or the body's `status.code`) in `res` as the gateway's error. */
  failure(code: number, res: AxiosResponse<unknown>): GatewayError {
    return batchDataError(code, {
      data: res.data,
      retryAfter: res.headers['retry-after'],
      token: this.#token,
      endpoint: this.#endpoint,
    });
  }
}
