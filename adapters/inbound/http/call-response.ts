import type { Context } from 'hono';
import { errorEnvelope, type Presented } from '../../../application/runtime/envelope.js';
import type { CallMeta } from '../../../application/runtime/executor.js';
import type { ToolError } from '../../../application/runtime/tool-error.js';

// Writing an answer of the HTTP surface: the envelope as JSON, with the request id and the call's headers.

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The envelope as a JSON answer, with the request id and any extra headers. */
export const send = (c: Context, requestId: string, p: Presented, extra?: Record<string, string>): Response =>
  new Response(JSON.stringify(p.body), {
    status: p.status,
    headers: { 'content-type': JSON_TYPE, 'x-request-id': requestId, ...extra },
  });

/**
 * Rate-limit headers on every tool answer, Retry-After on a 429 or 503, and the replay marker: added to
 * `into` when given (the answer's own headers, so that no second object is made and copied), else to a
 * new object, which is returned when there is any.
 */
export const callHeaders = (
  meta: CallMeta | undefined,
  p: Presented,
  into?: Record<string, string>,
): Record<string, string> | undefined => {
  const headers: Record<string, string> = into ?? {};
  const rl = meta?.rateLimit;
  if (rl) {
    headers['ratelimit-limit'] = String(rl.limit);
    headers['ratelimit-remaining'] = String(rl.remaining);
    headers['ratelimit-reset'] = String(rl.resetSeconds);
  }
  const retryLater = p.status === 429 || p.status === 503;
  if (retryLater && !p.body.success) {
    const seconds = p.body.error.details['retry_after_seconds'];
    if (typeof seconds === 'number') headers['retry-after'] = String(Math.max(0, Math.ceil(seconds)));
  }
  if (meta?.replayed) headers['idempotent-replayed'] = 'true';
  return rl || meta?.replayed || retryLater ? headers : undefined;
};

export const sendError = (c: Context, requestId: string, e: ToolError, extra?: Record<string, string>): Response =>
  send(c, requestId, errorEnvelope(e), extra);
