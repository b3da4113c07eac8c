import type { ServiceIdentifier } from 'inversify';
import type { TaskEither } from '../domain/shared/fp.js';
import type { GatewayError } from '../domain/shared/errors.js';
import type { PropertyIdentity, SkipTraceResult } from '../domain/skiptrace/skip-trace.js';

/**
 * Finds the owners of a property and how to reach them. A property with no known owner is not an
 * error: it is a result whose person has `meta.matched: false` and whose counts say `noMatchCount: 1`.
 */
export interface SkipTracer {
  trace(identity: PropertyIdentity): TaskEither<GatewayError, SkipTraceResult>;
}

export const SkipTracer = Symbol.for('SkipTracer') as ServiceIdentifier<SkipTracer>;

/** A tenant's rules for skip traces. */
export interface SkipTracePolicy {
  /** Whether a lookup must state its GLBA/DPPA permissible purpose (`purpose`), for this tenant. */
  purposeRequired(tenant: string): boolean;
}

export const SkipTracePolicy = Symbol.for('SkipTracePolicy') as ServiceIdentifier<SkipTracePolicy>;
