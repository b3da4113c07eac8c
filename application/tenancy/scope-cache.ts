import { LRUCache } from 'lru-cache';
import type { Clock } from '../../ports/clock.js';
import type { Vendor } from '../../ports/connection-store.js';

/**
 * What a cached scope holds the adapters of: a connection to a vendor, or a tenant's memory-mode data (a
 * memory-mode tenant is a connection of kind `memory`: one per tenant, no owner).
 */
export type ScopeKind = Vendor | 'memory';

export interface ScopeCacheLimits {
  /** The most memory-mode tenants held at once (each holds its own demo data). */
  readonly tenants: number;
  /** The most connections (and owners looked up without one) held at once. */
  readonly connections: number;
  /** A memory-mode tenant unused this long is dropped (each use starts the time again). */
  readonly tenantIdleMs: number;
  /** A connection unused this long is dropped. */
  readonly connectionIdleMs: number;
  readonly clock: Clock;
}

/** One cached scope: the version it was made from (a connection's kind, time and status) and its value. */
export interface ScopeEntry<V> {
  readonly version: string;
  readonly value: V;
}

/** The memory-mode side of the cache (what Tenancy uses). */
export interface TenantScopes<M> {
  tenant(tenant: string): M | undefined;
  peekTenant(tenant: string): M | undefined;
  setTenant(tenant: string, scope: M): void;
  count(kind: 'memory' | 'connection'): number;
}

/** The connections' side of the cache (what ConnectionResolver uses). */
export interface ConnectionScopes<C> {
  connection(tenant: string, vendor: Vendor, owner: string): ScopeEntry<C> | undefined;
  setConnection(tenant: string, vendor: Vendor, owner: string, entry: ScopeEntry<C>): void;
  dropConnections(tenant: string, vendor: Vendor): void;
  count(kind: 'memory' | 'connection'): number;
}

type Held<M, C> =
  | { readonly kind: 'memory'; readonly version: string; readonly value: M }
  | { readonly kind: Vendor; readonly version: string; readonly value: C };

const SEP = '\u0000';

/**
 * The one cache of the adapters a call runs on (issue 39): memory-mode tenants (M) and vendor connections (C),
 * keyed by tenant, kind (vendor or memory) and owner, each entry carrying the version it was made from
 * (a connection's kind, connection time and status; `memory` for a memory-mode tenant), so a lookup that
 * finds another version makes the entry again in the same place: an older version never stays beside it.
 *
 * One budget for both: a memory-mode tenant weighs as much as `connections / tenants` connections, so with
 * only one kind in use each kind's own bound holds exactly, and with both the sum of their fractions stays
 * at most one. lru-cache bounded by that weight and by idle time (per entry: a tenant's or a connection's),
 * on the gateway's clock so tests move it. `get` counts as a use, `peek` does not; neither answers an idle
 * entry.
 */
export class ScopeCache<M, C> implements TenantScopes<M>, ConnectionScopes<C> {
  readonly #held: LRUCache<string, Held<M, C>>;
  readonly #limits: ScopeCacheLimits;

  constructor(limits: ScopeCacheLimits) {
    this.#limits = limits;
    const { tenants, connections } = limits;
    this.#held = new LRUCache<string, Held<M, C>>({
      // a tenants x connections budget: a tenant costs `connections`, a connection `tenants`
      maxSize: tenants * connections,
      sizeCalculation: (entry) => (entry.kind === 'memory' ? connections : tenants),
      ttl: Math.max(limits.tenantIdleMs, limits.connectionIdleMs),
      updateAgeOnGet: true,
      // The clock is read each time (no cached "now"): a test's fixed clock may jump.
      ttlResolution: 0,
      perf: { now: () => limits.clock.now().getTime() },
    });
  }

  /** The memory-mode scope of `tenant` (a use). */
  tenant(tenant: string): M | undefined {
    const held = this.#held.get(this.#key(tenant, 'memory', ''));
    return held?.kind === 'memory' ? held.value : undefined;
  }

  /** The memory-mode scope of `tenant` without counting a use. */
  peekTenant(tenant: string): M | undefined {
    const held = this.#held.peek(this.#key(tenant, 'memory', ''));
    return held?.kind === 'memory' ? held.value : undefined;
  }

  setTenant(tenant: string, scope: M): void {
    this.#held.set(
      this.#key(tenant, 'memory', ''),
      { kind: 'memory', version: 'memory', value: scope },
      { ttl: this.#limits.tenantIdleMs },
    );
  }

  /** What is held of `owner`'s connection to `vendor` in `tenant` (a use), with the version it was made from. */
  connection(tenant: string, vendor: Vendor, owner: string): ScopeEntry<C> | undefined {
    const held = this.#held.get(this.#key(tenant, vendor, owner));
    return held && held.kind !== 'memory' ? { version: held.version, value: held.value } : undefined;
  }

  setConnection(tenant: string, vendor: Vendor, owner: string, entry: ScopeEntry<C>): void {
    this.#held.set(
      this.#key(tenant, vendor, owner),
      { kind: vendor, version: entry.version, value: entry.value },
      { ttl: this.#limits.connectionIdleMs },
    );
  }

  /** Drops every owner's entry of `tenant`'s connections to `vendor` (a change: made again on next use). */
  dropConnections(tenant: string, vendor: Vendor): void {
    const prefix = `${tenant}${SEP}${vendor}${SEP}`;
    for (const key of [...this.#held.keys()]) if (key.startsWith(prefix)) this.#held.delete(key);
  }

  /** How many entries of `kind` ('memory', or any vendor's: 'connection') are held, idle ones dropped first. */
  count(kind: 'memory' | 'connection'): number {
    this.#held.purgeStale();
    let n = 0;
    for (const held of this.#held.values()) if ((held.kind === 'memory') === (kind === 'memory')) n++;
    return n;
  }

  /** Every entry held, of both kinds. */
  get size(): number {
    this.#held.purgeStale();
    return this.#held.size;
  }

  #key(tenant: string, kind: ScopeKind, owner: string): string {
    return `${tenant}${SEP}${kind}${SEP}${owner}`;
  }
}
