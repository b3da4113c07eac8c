import type { ServiceIdentifier } from 'inversify';

export interface RateDecision {
  readonly allowed: boolean;
  /** Requests allowed per window. */
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the allowance is whole again. */
  readonly resetSeconds: number;
  /** When refused: seconds until the next request would be allowed. */
  readonly retryAfterSeconds: number;
}

/**
 * Counts calls per key (a principal and a tool group) against a limit per window. The decision is
 * atomic: with a shared store, several gateway instances enforce one limit.
 */
export interface RateLimiter {
  take(key: string, limit: number, windowSeconds: number): Promise<RateDecision>;
  /** Would `take` allow one more now? The same decision, with nothing counted (absent: not supported). */
  peek?(key: string, limit: number, windowSeconds: number): Promise<RateDecision>;
}

export const RateLimiter = Symbol.for('RateLimiter') as ServiceIdentifier<RateLimiter>;
