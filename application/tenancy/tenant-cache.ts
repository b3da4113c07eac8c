import { LRUCache } from 'lru-cache';
import type { Clock } from '../../ports/clock.js';

export interface TenantCacheLimits {
  /** The most entries kept at once; the one used longest ago is dropped first. */
  readonly max: number;
  /** An entry unused for this long is dropped (each use starts the time again). */
  readonly idleMs: number;
  readonly clock: Clock;
}

/**
 * The one kind of cache the gateway keeps per tenant (issue 39): each tenant's memory-mode adapters
 * (Tenancy) and each connection's vendor adapters (ConnectionResolver). Bounded by count and idle time,
 * so a hostile caller with many tenants or owners in its tokens cannot grow it without end; time is the
 * gateway's clock, so tests move it. `get` counts as a use, `peek` does not; neither answers an idle entry.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- lru-cache's own bound on values
export const tenantCache = <V extends {}>(limits: TenantCacheLimits): LRUCache<string, V> =>
  new LRUCache<string, V>({
    max: limits.max,
    ttl: limits.idleMs,
    updateAgeOnGet: true,
    // The clock is read each time (no cached "now"): a test's fixed clock may jump.
    ttlResolution: 0,
    perf: { now: () => limits.clock.now().getTime() },
  });
