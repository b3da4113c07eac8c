import { notConnected, storeUnavailable, type GatewayError } from '../../domain/shared/errors.js';
import { E, type Either } from '../../domain/shared/fp.js';
import type { Principal } from '../../ports/authenticator.js';
import type { Clock } from '../../ports/clock.js';
import { VENDOR_LABELS, type Connection, type ConnectionStore, type Vendor } from '../../ports/connection-store.js';
import { ScopeCache, type ConnectionScopes } from '../tenancy/scope-cache.js';

/** How often a cached answer of the store is read again (a change on another instance is seen by then). */
const RECHECK_MS = 30_000;
/** A cached connection unused this long is dropped (its adapters with it). */
export const CONNECTION_IDLE_MS = 60 * 60 * 1000;
/** The most connections (and owners without one) whose adapters are kept at once. */
export const CONNECTIONS_HELD = 5000;

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
  /**
   * Where the adapters are kept: the gateway's one scope cache, shared with the memory-mode tenants
   * (application/tenancy/scope-cache.ts). Without it, a cache of this resolver's own (CONNECTIONS_HELD).
   */
  readonly cache?: ConnectionScopes<HeldConnection<A>>;
}

/** What the resolver keeps of one owner's connection (the entry's version says what it was made from). */
export interface HeldConnection<A> {
  readonly checkedAt: number;
  readonly connection?: Connection;
  readonly adapters?: A;
}

type Held<A> = HeldConnection<A> & { readonly version: string };

const versionOf = (c: Connection): string =>
  c.origin === 'environment' ? 'environment' : `${c.kind}:${c.connectedAt.getTime()}:${c.status}`;

/**
 * The one way a call reaches a vendor: the caller's own connection if there is one, else the tenant's
 * stored tenant-wide connection, else (for the default tenant) the connection the environment's
 * credentials make. Adapters are made once per connection and kept in one bounded cache for every tenant;
 * a stored connection is read again every 30 seconds, and at once when it changes on this instance.
 */
export class ConnectionResolver<A> {
  /** Bounded by weight and idle time (application/tenancy/scope-cache.ts). */
  readonly #held: ConnectionScopes<HeldConnection<A>>;

  constructor(private readonly deps: ConnectionResolverDeps<A>) {
    this.#held =
      deps.cache ??
      new ScopeCache({
        tenants: 1,
        connections: CONNECTIONS_HELD,
        tenantIdleMs: CONNECTION_IDLE_MS,
        connectionIdleMs: CONNECTION_IDLE_MS,
        clock: deps.clock,
      });
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
    this.#held.dropConnections(tenant, vendor);
  }

  /** How many connections (and owners without one) are cached. */
  get size(): number {
    return this.#held.count('connection');
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
    // Its own owner slot ('\u0000environment' is no principal's id), beside the stored tenant-wide one.
    const owner = '\u0000environment';
    const held = this.#held.connection(connection.tenant, connection.vendor, owner);
    if (held?.value.adapters !== undefined) return held.value.adapters;
    const adapters = this.deps.build(connection, undefined);
    const now = this.deps.clock.now().getTime();
    this.#held.setConnection(connection.tenant, connection.vendor, owner, {
      version: 'environment',
      value: { checkedAt: now, connection, adapters },
    });
    return adapters;
  }

  async #lookup(
    openStore: () => Promise<ConnectionStore>,
    tenant: string,
    vendor: Vendor,
    owner: string,
  ): Promise<Either<GatewayError, Held<A> | undefined>> {
    const now = this.deps.clock.now().getTime();
    const entry = this.#held.connection(tenant, vendor, owner);
    const held: Held<A> | undefined = entry && { ...entry.value, version: entry.version };
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
    const value: HeldConnection<A> = {
      checkedAt: now,
      ...(connection ? { connection } : {}),
      ...(adapters !== undefined ? { adapters } : {}),
    };
    this.#held.setConnection(tenant, vendor, owner, { version, value });
    return E.right({ ...value, version });
  }
}

/** A resolved call: the adapters and the connection they were made from. */
export interface Resolved<A> {
  readonly adapters: A;
  readonly connection: Connection;
}
