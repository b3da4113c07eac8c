import type * as t from 'io-ts';
import type { Container, ServiceIdentifier } from 'inversify';
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type { ParserPool } from '../adapters/outbound/documents/parser-pool.js';
import type { Clock } from '../ports/clock.js';
import type { Connection, Vendor } from '../ports/connection-store.js';
import type { TokenStore } from '../ports/token-store.js';
import type { VendorConnector } from '../ports/vendor-connector.js';
import type { Resilience } from '../adapters/outbound/http/resilience.js';

/** A tenant's connection as a group binds it: the row, and the token store that persists its refreshes. */
export interface ConnectionBinding {
  readonly connection: Connection;
  /** The connection's tokens (read and saved through the connection store, refreshed under a lock). */
  readonly tokens: TokenStore;
}

/** What the environment's credentials say about the default tenant's account (see GroupModule). */
export type EnvironmentConnection = Pick<Connection, 'kind' | 'details' | 'secret'>;

/** What every group's wiring may use. */
export interface SharedServices {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Seed the in-memory backends with demo data. */
  readonly demoData: boolean;
  readonly upstreamTimeoutMs: number;
  /** Every vendor client's retries and breaker settings (from the environment); the fallback's when absent. */
  readonly resilience?: Resilience;
  /** The tenant these adapters serve (`default` for the root container). */
  readonly tenant: string;
  /** The gateway's own public base URL (for addresses it hands out, such as signed upload links). */
  readonly publicBaseUrl: string;
  /** The worker threads every parser of untrusted bytes runs in (one per gateway, closed with it). */
  readonly documents: ParserPool;
}

/** The decoded values of a group's environment variables, typed by its codecs. */
export type EnvValues<P extends t.Props> = { readonly [K in keyof P]: t.TypeOf<P[K]> };

/**
 * The wiring of one tool group: its environment variables, how they become the group's configuration,
 * which adapters bind its ports, and any HTTP routes of its own (a data plane). Adding a group means
 * adding one of these to composition/groups/index.ts.
 */
export interface GroupModule<C = unknown, P extends t.Props = t.Props> {
  readonly name: string;
  /** io-ts codecs by variable name, each documented (see composition/env.ts): the table is made from them. */
  readonly env: P;
  /** The group's configuration from its decoded variables; cross-variable rules push to `problems`. */
  readonly configure: (vars: EnvValues<P>, problems: string[]) => C;
  /**
   * Binds what does not depend on a vendor connection: in memory mode the group's ports; with a vendor
   * backend only its connection-independent ports (a URL guard, a policy). Ports bound already (test or
   * embedder overrides) must be left alone: use bindOnce.
   */
  readonly bind: (container: Container, config: C, shared: SharedServices) => void;
  /** Mounts the group's own HTTP routes, before the gateway's catch-all. */
  readonly routes?: (app: Hono, container: Container, config: C, shared: SharedServices) => void;
  /**
   * Whether each tenant gets its own adapters for this group (its own demo account, its own vendor
   * connection). Default true; a group with no tenant data (web) says false and is bound once.
   */
  readonly tenantScoped?: boolean;
  /** The vendor behind the group's vendor backend (for connections). */
  readonly vendor?: Vendor;
  /** How a tenant connects the vendor (key check, OAuth), from the group's configuration. */
  readonly connector?: (config: C, shared: SharedServices) => VendorConnector | undefined;
  /**
   * The one place the group's vendor adapters are made: binds its ports on one connection, in a container
   * of that connection's own. Every call of a vendor backend goes through it, the default tenant's too.
   * The adapters' modules are imported here, on the first connection (`onFirstUse`), never at start: the
   * memory mode loads none of them (issue 39).
   */
  readonly bindConnection?: (
    container: Container,
    config: C,
    shared: SharedServices,
    binding: ConnectionBinding,
  ) => Promise<void>;
  /**
   * The connection the environment's credentials make for the default tenant (HUBSPOT_ACCESS_TOKEN, a
   * refresh token, BATCHDATA_API_TOKEN...), or none when the environment gives only the app.
   */
  readonly environmentConnection?: (config: C) => EnvironmentConnection | undefined;
  /** A one-word description of the backend in use, printed at start ("memory", "hubspot"). */
  readonly describe: (config: C) => string;
}

/**
 * Binds a port unless something (an override) is bound to it already in this container. A tenant's
 * container looks only at itself, so it never picks up the parent's (the default tenant's) adapters.
 * The adapter is made when the port is first asked for, once (a singleton): a port no call uses (the
 * demo records of a gateway that serves no records call yet) costs nothing at start (issue 39).
 */
export const bindOnce = <T>(container: Container, id: ServiceIdentifier<T>, make: () => T): void => {
  if (!container.isCurrentBound(id)) container.bind(id).toDynamicValue(make).inSingletonScope();
};

/** A module imported on the first call and kept (domain/shared/first-use.ts). */
export { onFirstUse } from '../domain/shared/first-use.js';

/** A group module, its configuration typed by its own environment codecs. */
export const defineGroup = <C, P extends t.Props>(module: GroupModule<C, P>): GroupModule<C, P> => module;
