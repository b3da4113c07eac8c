import { invalidInput, rateLimited, upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E } from '../../../domain/shared/fp.js';
import { retryAfterSeconds } from '../http/vendor-http.js';
import { V1ErrorBody } from './batchdata-codecs.js';

// BatchData's error answers (an HTTP status, or a `status.code` of 400 and up in the body) as the
// gateway's errors.

const VENDOR = 'BatchData';
const DEFAULT_RETRY_AFTER_SECONDS = 60;

/** A BatchData error answer, with what the messages need to say. */
export interface BatchDataErrorAnswer {
  readonly data: unknown;
  /** The Retry-After header, read on a 429. */
  readonly retryAfter: unknown;
  /** The API token, kept out of every message. */
  readonly token: string;
  /** The skip-trace address, named when BatchData has no such endpoint. */
  readonly endpoint: string;
}

export const missingApiToken = (): GatewayError =>
  upstreamFailure(VENDOR, 'No BatchData API token is configured; an operator must set BATCHDATA_API_TOKEN.', {
    retryable: false,
    reauthorize: true,
  });

/** The error of status `code` (HTTP, or the body's `status.code`). */
export const batchDataError = (code: number, answer: BatchDataErrorAnswer): GatewayError => {
  const said = vendorMessage(answer.data, answer.token);
  const quoted = said ? ` (${said})` : ` (HTTP ${code})`;
  if (code === 401) {
    return upstreamFailure(
      VENDOR,
      `BatchData rejected the gateway's API token${quoted}; an operator must configure a valid BATCHDATA_API_TOKEN.`,
      {
        retryable: false,
        reauthorize: true,
        status: code,
      },
    );
  }
  if (code === 403) {
    return upstreamFailure(
      VENDOR,
      `BatchData refused the gateway's API token access to property skip trace${quoted}; an operator must configure a BATCHDATA_API_TOKEN that is valid and allowed to use skip trace.`,
      { retryable: false, reauthorize: true, status: code },
    );
  }
  if (code === 400 || code === 422) {
    return invalidInput(`BatchData rejected the property lookup: ${said ?? 'Bad Request'}`, undefined, undefined, {
      vendorStatus: code,
    });
  }
  if (code === 404) {
    return upstreamFailure(
      VENDOR,
      `BatchData has no skip-trace endpoint at ${answer.endpoint}${quoted}; an operator must check the BatchData base URL, BATCHDATA_BASE_URL (normally https://api.batchdata.com). Retrying will not help.`,
      { retryable: false, status: code },
    );
  }
  if (code === 429) {
    const wait = retryAfterSeconds(answer.retryAfter) ?? DEFAULT_RETRY_AFTER_SECONDS;
    return rateLimited(
      `BatchData's rate limit was reached${said ? ` (${said})` : ''}: it allows 3,000 requests per minute per API token and may block the token temporarily when that is exceeded. Wait ${wait} seconds before retrying, and back off further if it happens again.`,
      wait,
    );
  }
  if (code >= 500) {
    return upstreamFailure(
      VENDOR,
      `BatchData failed with HTTP ${code}${said ? ` (${said})` : ''}. A skip trace changes nothing, so retrying the same call is safe; try again shortly.`,
      { retryable: true, status: code },
    );
  }
  return upstreamFailure(
    VENDOR,
    `BatchData answered HTTP ${code}${said ? ` (${said})` : ''}, which the gateway does not expect from skip trace.`,
    {
      retryable: false,
      status: code,
    },
  );
};

/** BatchData's own words from an error body, without the token should it ever be echoed. */
const vendorMessage = (data: unknown, token: string): string | undefined => {
  const body = V1ErrorBody.decode(data);
  if (E.isLeft(body)) return undefined;
  const said = (body.right.status?.message ?? body.right.status?.text ?? body.right.message)?.trim();
  if (!said) return undefined;
  return said.split(token).join('[redacted]').slice(0, 300);
};

/** The body's `status.code`, when the body has one. */
export const bodyStatusCode = (data: unknown): number | undefined => {
  const body = V1ErrorBody.decode(data);
  return E.isRight(body) ? body.right.status?.code : undefined;
};
