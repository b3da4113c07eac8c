import type { ServiceIdentifier } from 'inversify';

/** What a finished call left to replay: its result or its error, as the executor produced them. */
export type StoredOutcome = (
  | { readonly ok: true; readonly payload: unknown; readonly text: string }
  | {
      readonly ok: false;
      readonly error: {
        readonly status: number;
        readonly code: string;
        readonly message: string;
        readonly details: Readonly<Record<string, unknown>>;
      };
    }
) & {
  /** The request id of the call that ran (a replay's audit row points at it). */
  readonly requestId?: string;
};

export type IdempotencyClaim =
  /** The key is new: the caller runs the call and then completes or abandons it. */
  | { readonly state: 'started' }
  /** A call with this key finished: replay its outcome. */
  | { readonly state: 'replay'; readonly outcome: StoredOutcome }
  /** A call with this key is still running. */
  | { readonly state: 'in-progress' }
  /** The key was used for a different call (another tool or other arguments). */
  | { readonly state: 'mismatch' };

/**
 * Remembers write calls by idempotency key, so that a retried write runs once. The claim is atomic
 * across gateway instances when the store is shared.
 */
export interface IdempotencyStore {
  claim(key: string, fingerprint: string, runningTtlSeconds: number): Promise<IdempotencyClaim>;
  complete(key: string, fingerprint: string, outcome: StoredOutcome, ttlSeconds: number): Promise<void>;
  /** Forgets a running claim (the call failed in a way a retry should repeat). */
  abandon(key: string): Promise<void>;
}

export const IdempotencyStore = Symbol.for('IdempotencyStore') as ServiceIdentifier<IdempotencyStore>;
