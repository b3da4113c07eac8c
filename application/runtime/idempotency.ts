import { createHash } from 'node:crypto';
import type { StoredOutcome } from '../../ports/idempotency-store.js';
import type { CallMeta, Settled } from './executor-types.js';
import type { RegisteredTool } from './registry.js';
import { toolError, type ToolError } from './tool-error.js';

// How the executor keeps and replays the outcome of a write with an Idempotency-Key.

/** JSON with keys in a fixed order, so that equal arguments give equal fingerprints. */
const canonical = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
};

/** What an Idempotency-Key may be. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** A call's identity under its key: the tool and its decoded arguments. */
export const fingerprintOf = (tool: string, params: unknown): string =>
  createHash('sha256')
    .update(`${tool}\n${canonical(params)}`)
    .digest('hex');

/** What a caller is told to wait before retrying a keyed write the store could not take. */
export const UNAVAILABLE_RETRY_SECONDS = 5;

/** The store could not take the key (Redis down or slow): the write was not run (fail closed). */
export const storeUnavailable = (key: string): ToolError =>
  toolError(
    503,
    'UNAVAILABLE',
    `Calls with an Idempotency-Key cannot be accepted right now: the gateway's idempotency store is unavailable. Nothing was changed. Retry the same request in ${UNAVAILABLE_RETRY_SECONDS} s.`,
    { retry_after_seconds: UNAVAILABLE_RETRY_SECONDS, idempotency_key: key, retryable: true },
  );

/** Only outcomes a retry could not change are kept: results and the caller's own mistakes, not 5xx. */
export const storable = (result: Settled, requestId?: string): StoredOutcome | undefined => {
  const ran = requestId === undefined ? {} : { requestId };
  if (result.ok) return { ok: true, payload: result.payload, text: result.text(), ...ran };
  if (result.error.status >= 500 || result.error.status === 429) return undefined;
  const { status, code, message, details } = result.error;
  return { ok: false, error: { status, code, message, details }, ...ran };
};

/** A stored outcome as the call's result, marked as a replay. */
export const replay = (tool: RegisteredTool, outcome: StoredOutcome, meta: CallMeta | undefined): Settled => {
  const replayMeta = {
    ...meta,
    replayed: true,
    ...(outcome.requestId === undefined ? {} : { replayOf: outcome.requestId }),
  };
  if (outcome.ok) return { ok: true, tool, payload: outcome.payload, text: () => outcome.text, meta: replayMeta };
  const e = outcome.error;
  return {
    ok: false,
    error: toolError(e.status, e.code as ToolError['code'], e.message, { ...e.details }),
    meta: replayMeta,
  };
};
