import {
  conflict,
  forbidden,
  invalidInput,
  notFound,
  rateLimited,
  upstreamFailure,
  type GatewayError,
} from '../../../domain/shared/errors.js';
import type { Clock } from '../../../ports/clock.js';
import { waitInWords } from '../http/retry-after.js';
import { retryAfterSeconds } from '../http/vendor-http.js';
import { PODIO, type PodioErrorBody } from './podio-codecs.js';

/** A Podio error answer, as the client received it. */
export interface PodioErrorAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** The Retry-After header, read on a 429 only. */
  readonly retryAfter: unknown;
  /**
   * The X-Rate-Limit-Limit header: the hourly budget the call counts against (PODIO-DOCS /index/limits: 1,000
   * calls an hour, 250 for calls marked "Rate limited").
   */
  readonly rateLimitLimit?: unknown;
  readonly body: PodioErrorBody;
  /** The access token the request carried, kept out of every message. */
  readonly token: string;
  /** The object the path addresses; without it the path is read for one. */
  readonly resource?: { readonly kind: string; readonly id: string | number };
}

export interface PodioErrorContext {
  readonly clock: Clock;
  /** The retry hint of a 420 (Podio's rate limit carries no reset time). */
  readonly rateLimitWaitSeconds: number;
}

const clip = (text: string, max = 500): string => (text.length > max ? `${text.slice(0, max)}…` : text);

const resourceOf = (path: string): { kind: string; id: string } => {
  const segments = path.split('?')[0]!.split('/').filter(Boolean);
  return { kind: segments[0] ?? 'object', id: segments.find((s) => /^\d+$/.test(s)) ?? path };
};

/**
 * Podio's error answer as the gateway's error (the statuses are listed on PodioClient). The 401 that
 * the client repeats with a fresh token never gets here.
 */
export const podioError = (answer: PodioErrorAnswer, context: PodioErrorContext): GatewayError => {
  const { method, path, status, body: error, token, resource } = answer;
  const redact = (text: string) => (token ? text.split(token).join('[redacted]') : text);
  const said = error.error_description ? clip(redact(error.error_description)) : undefined;
  const what = resource ? { kind: resource.kind, id: String(resource.id) } : resourceOf(path);
  switch (true) {
    case status === 400:
      return invalidInput(
        said ? `Podio rejected the request: ${said}` : `Podio rejected ${method} ${path} as invalid.`,
        undefined,
        undefined,
        {
          ...(error.error ? { podio_error: error.error } : {}),
          ...(error.error_parameters && Object.keys(error.error_parameters).length
            ? { error_parameters: error.error_parameters }
            : {}),
        },
      );
    case status === 401:
      return upstreamFailure(
        PODIO,
        `Podio refused the gateway's access token${said ? ` (${said})` : ''}. An operator has to check the Podio credentials (PODIO_* variables); retrying will not help.`,
        { retryable: false, reauthorize: true, status },
      );
    case status === 403:
      return forbidden(
        said ? `Podio refused: ${said}` : `Podio does not allow the gateway's Podio user to ${method} ${path}.`,
        error.error ? { podio_error: error.error } : undefined,
      );
    case status === 404:
      return notFound(
        what.kind,
        what.id,
        `Podio has no ${what.kind} ${what.id}, or the gateway's Podio user cannot see it.${said ? ` Podio said: ${said}` : ''}`,
      );
    case status === 409:
      return conflict(
        said
          ? `Podio reported a conflict: ${said}`
          : `Podio reported a conflict with the current state of ${what.kind} ${what.id}.`,
        error.error ? { podio_error: error.error } : undefined,
      );
    case status === 410:
      return notFound(what.kind, what.id, `${what.kind} ${what.id} was deleted in Podio and can no longer be used.`);
    case status === 420 || status === 429: {
      const seconds =
        (status === 429 ? retryAfterSeconds(answer.retryAfter, context.clock.now()) : undefined) ??
        context.rateLimitWaitSeconds;
      const limit = typeof answer.rateLimitLimit === 'string' ? answer.rateLimitLimit.trim() : '';
      const budget = /^\d{1,9}$/.test(limit)
        ? `this call counts against Podio's budget of ${Number(limit).toLocaleString('en-US')} calls an hour${Number(limit) <= 250 ? ' (the budget of calls Podio marks "Rate limited"; other calls have 1,000)' : ''}`
        : 'Podio allows about 1,000 calls an hour, 250 for calls it marks "Rate limited"';
      return rateLimited(
        `Podio's rate limit was reached (${budget}; Podio does not say when the counter resets). Wait ${waitInWords(seconds)} before calling Podio again.`,
        seconds,
      );
    }
    case status >= 500:
      return upstreamFailure(
        PODIO,
        `Podio failed to answer ${method} ${path} (HTTP ${status}). Try again shortly; for writes, check first whether the change was made.`,
        {
          retryable: true,
          status,
        },
      );
    default:
      return upstreamFailure(PODIO, `Podio answered ${method} ${path} with HTTP ${status}${said ? `: ${said}` : ''}.`, {
        retryable: false,
        status,
      });
  }
};
