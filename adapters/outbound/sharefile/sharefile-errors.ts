import {
  conflict,
  forbidden,
  invalidInput,
  notFound,
  rateLimited,
  upstreamFailure,
  type GatewayError,
} from '../../../domain/shared/errors.js';
import { waitInWords } from '../http/retry-after.js';
import { retryAfterSeconds } from '../http/vendor-http.js';
import { errorMessageOf } from './sharefile-codecs.js';

const VENDOR = 'ShareFile';
/** The wait a 429 without a readable Retry-After asks for. */
const DEFAULT_WAIT_SECONDS = 30;

/** A ShareFile error answer, with what the request was about. */
export interface ShareFileErrorAnswer {
  readonly status: number;
  readonly data: unknown;
  /** The Retry-After header, read on a 429. */
  readonly retryAfter: unknown;
  /** When the answer came, for a Retry-After given as a date (default: now). */
  readonly now?: Date;
  readonly path: string;
  /** What the call is about, for not-found messages: ["item", "fo123"]. */
  readonly subject?: readonly [resource: string, id: string];
}

/** ShareFile's error answer as the gateway's error. */
export const shareFileError = (answer: ShareFileErrorAnswer): GatewayError => {
  const said = errorMessageOf(answer.data);
  const detail = said ? ` ShareFile said: ${said}` : '';
  switch (answer.status) {
    case 400:
      return invalidInput(`ShareFile refused the request.${detail}`, undefined, undefined, { upstream_status: 400 });
    case 401:
      return upstreamFailure(
        VENDOR,
        `ShareFile refused the gateway's credentials.${detail} An operator must authorise the connection again.`,
        { retryable: false, reauthorize: true, status: 401 },
      );
    case 403:
      return forbidden(`The ShareFile account behind the gateway may not do this.${detail}`, { upstream_status: 403 });
    case 404: {
      const [resource, id] = answer.subject ?? ['item', answer.path];
      return notFound(
        resource,
        id,
        `No ${resource} with id "${id}" in ShareFile.${detail} Find ids with ${resource === 'share' ? 'files_listShares' : 'files_listChildren or files_searchItems'}.`,
      );
    }
    case 409:
      return conflict(
        `ShareFile reports a conflict.${detail} Pass overwrite=true to replace the existing item, or choose another name.`,
      );
    case 429: {
      // Retry-After read by the one shared reader (seconds or an HTTP date); without one, the gateway's guess
      const said = retryAfterSeconds(answer.retryAfter, answer.now);
      const seconds = said ?? DEFAULT_WAIT_SECONDS;
      return rateLimited(
        `ShareFile's rate limit was reached.${detail} Wait ${waitInWords(seconds)} before calling ShareFile again${said === undefined ? " (ShareFile did not say how long; this is the gateway's estimate)" : ''}.`,
        seconds,
      );
    }
    default:
      return upstreamFailure(
        VENDOR,
        `ShareFile failed with status ${answer.status}.${detail}${answer.status >= 500 ? ' Retrying later is safe for reads.' : ''}`,
        {
          retryable: answer.status >= 500,
          status: answer.status,
        },
      );
  }
};
