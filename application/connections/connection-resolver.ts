import { notConnected, storeUnavailable, type GatewayError } from '../../domain/shared/errors.js';
import { E, type Either } from '../../domain/shared/fp.js';
import type { Principal } from '../../ports/authenticator.js';
import type { Clock } from '../../ports/clock.js';
import { VENDOR_LABELS, type Connection, type ConnectionStore, type Vendor } from '../../ports/connection-store.js';
import type { LRUCache } from 'lru-cache';
import { tenantCache } from '../tenancy/tenant-cache.js';

/** How often a cached answer of the store is read again (a change on another instance is seen by then). */
const RECHECK_MS = 30_000;
/** A cached connection unused this long is dropped (its adapters with it). */
const IDLE_MS = 60 * 60 * 1000;

export interface ConnectionResolverDeps<A> {
  /** The store, opened on first use. */
  readonly store: () => Promise<ConnectionStore>;
  /** The default tenant's connection to `vendor` from the environment's credentials, if any. */
  readonly environment: (tenant: string, vendor: Vendor) => Connection | undefined;
  /**
   * The adapters of one connection (made once per connection version, then cached); `store` is the
   * store it was read from (none for the environment's connection).
   */
  readonly build: (connection: Connection, store: ConnectionStore | undefined) => A;
  /** The link a person opens to connect `vendor` for `principal`. */
  readonly connectLink: (principal: Principal, vendor: Vendor) => string;
  readonly clock: Clock;
  /** The connection store could not be read (logged by the caller). */
  readonly onStoreError?: (error: unknown) => void;
  /** The most connections whose adapters are kept at once (default 5,000). */
  readonly maxEntries?: number;
}

interface Held<A> {
  readonly checkedAt: number;
  /** What the adapters were made from; '' when the store had no connection. */
  readonly version: string;
  readonly connection?: Connection;
  readonly adapters?: A;
}

const versionOf = (c: Connection): string =>
  c.origin === 'environment' ? 'environment' : `${c.kind}:${c.connectedAt.getTime()}:${c.status}`;

/**
 * The one way a call reaches a vendor: the caller's own connection if there is one, else the tenant's
 * stored tenant-wide connection, else (for the default tenant) the connection the environment's
 * credentials make. Adapters are made once per connection and kept in one bounded cache for every tenant;
 * a stored connection is read again every 30 seconds, and at once when it changes on this instance.
 */
export class ConnectionResolver<A> {
  /** Bounded by count and idle time (application/tenancy/tenant-cache.ts). */
  readonly #held: LRUCache<string, Held<A>>;

  constructor(private readonly deps: ConnectionResolverDeps<A>) {
    this.#held = tenantCache({ max: deps.maxEntries ?? 5000, idleMs: IDLE_MS, clock: deps.clock });
  }

  /** The adapters for `principal`'s call to `vendor`, or NOT_CONNECTED with a link, or UNAVAILABLE. */
  async resolve(principal: Principal, vendor: Vendor): Promise<Either<GatewayError, Resolved<A>>> {
    let store: ConnectionStore | undefined;
    const openStore = async () => (store ??= await this.deps.store());
    const environment = this.deps.environment(principal.tenant, vendor);
    for (const owner of [principal.id, '']) {
      const held = await this.#lookup(openStore, principal.tenant, vendor, owner);
      // Without the store, the environment's connection still serves (the stored one cannot be seen).
      if (E.isLeft(held) && environment) break;
      if (E.isLeft(held)) return held;
      const found = held.right;
      if (!found?.connection) continue;
      if (found.connection.status === 'needs_reauthorization')
        return E.left(this.#notConnected(principal, vendor, true));
      return E.right({ adapters: found.adapters as A, connection: found.connection });
    }
    if (environment) return E.right({ adapters: this.#environment(environment), connection: environment });
    return E.left(this.#notConnected(principal, vendor, false));
  }

  /**
   * The vendor refused the connection's refresh: a stored connection is marked so that a person connects
   * again, and the caller gets NOT_CONNECTED with the link. The environment's connection cannot be
   * marked: its error stays, since only an operator can fix it.
   */
  async refused(principal: Principal, vendor: Vendor, connection: Connection): Promise<GatewayError | undefined> {
    if (connection.origin === 'environment') return undefined;
    try {
      await (await this.deps.store()).setStatus(connection.tenant, vendor, connection.owner, 'needs_reauthorization');
    } catch {
      // The next refresh is refused again and marks it then.
    }
    this.changed(connection.tenant, vendor);
    return this.#notConnected(principal, vendor, true);
  }

  /** A connection of `tenant` to `vendor` changed on this instance: its adapters are made again. */
  changed(tenant: string, vendor: Vendor): void {
    const prefix = `${tenant}\u0000${vendor}\u0000`;
    for (const key of [...this.#held.keys()]) if (key.startsWith(prefix)) this.#held.delete(key);
  }

  /** How many connections (and owners without one) are cached. */
  get size(): number {
    this.#held.purgeStale();
    return this.#held.size;
  }

  #notConnected(principal: Principal, vendor: Vendor, reauthorize: boolean): GatewayError {
    return notConnected(
      vendor,
      VENDOR_LABELS[vendor],
      this.deps.connectLink(principal, vendor),
      ...(reauthorize ? (['needs_reauthorization'] as const) : []),
    );
  }

  #environment(connection: Connection): A {
    const key = `${connection.tenant}\u0000${connection.vendor}\u0000\u0000environment`;
    const held = this.#held.get(key);
    if (held?.adapters !== undefined) return held.adapters;
    const adapters = this.deps.build(connection, undefined);
    const now = this.deps.clock.now().getTime();
    this.#held.set(key, { checkedAt: now, version: 'environment', connection, adapters });
    return adapters;
  }

  async #lookup(
    openStore: () => Promise<ConnectionStore>,
    tenant: string,
    vendor: Vendor,
    owner: string,
  ): Promise<Either<GatewayError, Held<A> | undefined>> {
    const key = `${tenant}\u0000${vendor}\u0000${owner}`;
    const now = this.deps.clock.now().getTime();
    const held = this.#held.get(key);
    if (held && now - held.checkedAt < RECHECK_MS) return E.right(held);
    let connection: Connection | undefined;
    let store: ConnectionStore;
    try {
      store = await openStore();
      connection = await store.find(tenant, vendor, owner);
    } catch (error) {
      this.deps.onStoreError?.(error);
      // The gateway's own outage, not the vendor's: 503 UNAVAILABLE with Retry-After, as the connections API.
      return E.left(storeUnavailable('connection'));
    }
    const version = connection ? versionOf(connection) : '';
    const adapters =
      connection && connection.status === 'connected'
        ? held?.version === version && held.adapters !== undefined
          ? held.adapters
          : this.deps.build(connection, store)
        : undefined;
    const next: Held<A> = {
      checkedAt: now,
      version,
      ...(connection ? { connection } : {}),
      ...(adapters !== undefined ? { adapters } : {}),
    };
    this.#held.set(key, next);
    return E.right(next);
  }
}

/** A resolved call: the adapters and the connection they were made from. */
export interface Resolved<A> {
  readonly adapters: A;
  readonly connection: Connection;
}
