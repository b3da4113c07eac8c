// Expected failures, as tagged values. Every layer returns these in an Either / TaskEither; only
// real bugs are thrown. The inbound adapters turn them into the envelope's codes and statuses.

export interface InvalidInput {
  readonly _tag: 'InvalidInput';
  readonly message: string;
  /** The parameter at fault, as the caller named it (`values.email`, `filter_groups[0].filters[1].value`). */
  readonly parameter?: string;
  /** What the parameter should have been, in words a model understands (`string`, `array of strings`). */
  readonly expected?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface NotFound {
  readonly _tag: 'NotFound';
  readonly message: string;
  readonly resource: string;
  readonly id: string;
}

export interface Conflict {
  readonly _tag: 'Conflict';
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface Forbidden {
  readonly _tag: 'Forbidden';
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface RateLimited {
  readonly _tag: 'RateLimited';
  readonly message: string;
  readonly retryAfterSeconds: number;
}

/** The upstream system failed or could not be reached. `retryable` says whether the same call may be repeated safely. */
export interface UpstreamFailure {
  readonly _tag: 'UpstreamFailure';
  readonly message: string;
  readonly vendor: string;
  readonly retryable: boolean;
  /** True when the gateway's own connection to the vendor must be re-authorised by an operator. */
  readonly reauthorize?: boolean;
  readonly status?: number;
  /** When a retry makes sense (an open circuit breaker, a vendor's Retry-After). */
  readonly retryAfterSeconds?: number;
}

/**
 * The caller's tenant has no usable connection to the vendor behind the tool (none made, or one the
 * vendor stopped accepting). A person must connect it: `connectUrl` is where.
 */
export interface NotConnected {
  readonly _tag: 'NotConnected';
  readonly message: string;
  readonly vendor: string;
  readonly connectUrl: string;
  readonly status: 'not_connected' | 'needs_reauthorization';
}

/**
 * The gateway itself cannot take the call now (a bounded queue is full, a store it needs is down): nothing
 * was done, and the same call may be repeated after `retryAfterSeconds`.
 */
export interface Unavailable {
  readonly _tag: 'Unavailable';
  readonly message: string;
  readonly retryAfterSeconds: number;
}

/**
 * A document the caller pointed at is beyond what the gateway reads: too deep, too many elements, inflating
 * past its byte cap, or needing more time or memory than a read may take. Retrying the same bytes fails the
 * same way. `limit` names the bound that was reached.
 */
export interface TooComplex {
  readonly _tag: 'TooComplex';
  readonly message: string;
  readonly limit: string;
}

export type GatewayError =
  | InvalidInput
  | NotFound
  | Conflict
  | Forbidden
  | RateLimited
  | UpstreamFailure
  | NotConnected
  | Unavailable
  | TooComplex;

export const invalidInput = (
  message: string,
  parameter?: string,
  expected?: string,
  details?: Record<string, unknown>,
): InvalidInput => ({ _tag: 'InvalidInput', message, parameter, expected, details });

export const notFound = (resource: string, id: string, message: string): NotFound => ({
  _tag: 'NotFound',
  resource,
  id,
  message,
});

export const conflict = (message: string, details?: Record<string, unknown>): Conflict => ({
  _tag: 'Conflict',
  message,
  details,
});

export const forbidden = (message: string, details?: Record<string, unknown>): Forbidden => ({
  _tag: 'Forbidden',
  message,
  details,
});

export const rateLimited = (message: string, retryAfterSeconds: number): RateLimited => ({
  _tag: 'RateLimited',
  message,
  retryAfterSeconds,
});

export const unavailable = (message: string, retryAfterSeconds: number): Unavailable => ({
  _tag: 'Unavailable',
  message,
  retryAfterSeconds,
});

/** Seconds a caller is told to wait when one of the gateway's own stores cannot be reached. */
export const STORE_RETRY_SECONDS = 5;

/**
 * The one answer for a store of the gateway's own (connections, usage, authorization grants) it cannot reach:
 * its outage, not the caller's mistake, so 503 UNAVAILABLE with a retry time. `store` names it ("connection").
 */
export const storeUnavailable = (store: string): Unavailable =>
  unavailable(
    `The gateway cannot reach its ${store} store right now. Nothing was changed. Try again in ${STORE_RETRY_SECONDS} s.`,
    STORE_RETRY_SECONDS,
  );

export const tooComplex = (message: string, limit: string): TooComplex => ({ _tag: 'TooComplex', message, limit });

export const upstreamFailure = (
  vendor: string,
  message: string,
  options: { retryable: boolean; reauthorize?: boolean; status?: number; retryAfterSeconds?: number },
): UpstreamFailure => ({ _tag: 'UpstreamFailure', vendor, message, ...options });

export const notConnected = (
  vendor: string,
  label: string,
  connectUrl: string,
  status: NotConnected['status'] = 'not_connected',
): NotConnected => ({
  _tag: 'NotConnected',
  vendor,
  connectUrl,
  status,
  message:
    status === 'needs_reauthorization'
      ? `The ${label} connection for this workspace has stopped working and must be connected again. Ask the user to open ${connectUrl} (they sign in to the gateway there; the link works for them only).`
      : `${label} is not connected for this workspace. Ask the user to open ${connectUrl} (they sign in to the gateway there; the link works for them only).`,
});
