import { Container, type ServiceIdentifier } from 'inversify';
import { ConnectionResolver, type HeldConnection } from '../application/connections/connection-resolver.js';
import { connectedUseCase } from '../application/connections/connected-use-case.js';
import { Connections } from '../application/connections/connections.js';
import { ConnectionWatch, MAX_CONNECTION_WAITERS } from '../application/connections/connection-watch.js';
import { ConnectResume } from '../application/connections/connect-resume.js';
import type { UseCase } from '../application/runtime/define-tool.js';
import type { RegisteredTool } from '../application/runtime/registry.js';
import type { ConnectionScopes } from '../application/tenancy/scope-cache.js';
import { boundTools } from '../application/tools.js';
import { environmentConnectionStore } from '../adapters/outbound/http/scoped-token-store.js';
import { InMemoryAuditLog } from '../adapters/outbound/memory/in-memory-audit-log.js';
import { ConnectionTokenStore } from '../adapters/outbound/persistence/connection-token-store.js';
import type { ConnectionStorage } from '../adapters/outbound/persistence/connection-storage.js';
import type { OpenDatabase } from '../adapters/outbound/persistence/databases.js';
import { SqlAuditLog } from '../adapters/outbound/persistence/sql-audit-log.js';
import { spooledAudit } from './audit-spool.js';
import type { AuditLog } from '../ports/audit-log.js';
import { DEFAULT_TENANT } from '../ports/authenticator.js';
import { VENDOR_LABELS, type Connection, type ConnectionStore, type Vendor } from '../ports/connection-store.js';
import type { OneTimeMarks } from '../ports/one-time-marks.js';
import { type TokenStore } from '../ports/token-store.js';
import type { VendorConnector } from '../ports/vendor-connector.js';
import type { GatewayConfig } from './config.js';
import type { GroupModule, SharedServices } from './group-module.js';
import { groupModules } from './groups/index.js';
import { tokenStoreOf } from './token-store-of.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each group has its own configuration type
type AnyGroup = GroupModule<any, any>;

/** How calls reach the vendors: the connections API, the one resolver, and the audit log of changes. */
export interface VendorAccess {
  readonly connections: Connections;
  readonly audit: AuditLog;
  readonly store: () => Promise<ConnectionStore>;
  /** The database the audit log is kept in (DATABASE_URL, or the embedded SQLite); none in memory mode. */
  readonly database?: () => Promise<OpenDatabase>;
  /**
   * The use case of a tool whose group is backed by a vendor (undefined for memory-mode groups): a lookup in
   * a map made at construction, a function of its own (not a method), so that Tenancy is given it as it is.
   */
  readonly useCase: (tool: RegisteredTool) => UseCase<unknown, unknown> | undefined;
  /** A connection changed on another instance: what this one cached of it is dropped. */
  changed(tenant: string, vendor: Vendor): void;
  /** Where calls that asked their person to connect wait for the connection (issue 43). */
  readonly watch: ConnectionWatch;
}

export interface VendorAccessDeps {
  readonly config: GatewayConfig;
  readonly shared: SharedServices;
  /** The root container: each connection's container is its child (clock, token lock, shared ports). */
  readonly root: Container;
  /** Ports a test or embedder replaced: every connection's container uses the replacement too. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each pair has its own service type
  readonly overridden: readonly (readonly [ServiceIdentifier<any>, unknown])[];
  /** Where used OAuth states are marked (Redis when configured). */
  readonly marks: OneTimeMarks;
  /** The database of connections and the audit log (opened on first use). */
  readonly storage: ConnectionStorage;
  /** Tells the other instances about a connection change made here (Redis; never rejects). */
  readonly announce?: (tenant: string, vendor: Vendor) => Promise<void>;
  /** The gateway's one scope cache: each connection's container is kept there, beside memory-mode tenants. */
  readonly cache: ConnectionScopes<HeldConnection<Promise<Container>>>;
}

const ENVIRONMENT_LABEL = (vendor: Vendor) => `${VENDOR_LABELS[vendor]} account of the environment's credentials`;

/**
 * Every credential is a connection. The environment's credentials become the default tenant's tenant-wide
 * connections (listed, never stored, not deletable); stored connections serve every tenant, the default
 * one included; one ConnectionResolver with one cache finds the caller's and makes its adapters, each
 * vendor's in one place (its groups' `bindConnection`).
 */
export const vendorAccess = ({
  config,
  shared,
  root,
  overridden,
  marks,
  storage,
  announce,
  cache,
}: VendorAccessDeps): VendorAccess => {
  const backendOf = (g: AnyGroup) => g.describe(config.groups[g.name]);
  const backed = new Map<Vendor, AnyGroup[]>();
  for (const group of groupModules)
    if (group.vendor && group.tenantScoped !== false && backendOf(group) !== 'memory')
      backed.set(group.vendor, [...(backed.get(group.vendor) ?? []), group]);

  // Memory mode keeps its audit log in memory, like its data; any vendor backend or DATABASE_URL keeps it
  // in the database.
  const inMemory = !config.storage.databaseUrl && backed.size === 0;
  const audit: AuditLog = inMemory
    ? new InMemoryAuditLog(shared.clock)
    : spooledAudit(new SqlAuditLog(async () => (await storage.database()).db), config, shared.logger);

  const started = shared.clock.now();
  const fromEnvironment = new Map<Vendor, Connection>();
  const connectors = new Map<Vendor, VendorConnector>();
  for (const [vendor, groups] of backed)
    for (const group of groups) {
      const groupConfig = config.groups[group.name];
      const connector = group.connector?.(groupConfig, shared);
      if (connector && !connectors.has(vendor)) connectors.set(vendor, connector);
      const given = group.environmentConnection?.(groupConfig);
      if (given && !fromEnvironment.has(vendor))
        fromEnvironment.set(vendor, {
          ...given,
          tenant: DEFAULT_TENANT,
          vendor,
          owner: '',
          status: 'connected',
          label: ENVIRONMENT_LABEL(vendor),
          connectedAt: started,
          origin: 'environment',
        });
    }
  const environment = (tenant: string, vendor: Vendor) =>
    tenant === DEFAULT_TENANT ? fromEnvironment.get(vendor) : undefined;

  const lock = tokenStoreOf(root);
  /** The tokens a connection's refreshes read and save: the store's row, or the environment's shared entry. */
  const tokensOf = (connection: Connection, store: ConnectionStore | undefined): TokenStore =>
    store && connection.origin !== 'environment'
      ? new ConnectionTokenStore(
          store,
          lock,
          { tenant: connection.tenant, vendor: connection.vendor, owner: connection.owner },
          shared.clock,
        )
      : environmentConnectionStore(
          lock,
          connection.vendor,
          connection.details['clientId'] ?? '',
          connection.secret.refreshToken ?? '',
        );

  // A connection's container, made once per connection version and kept by the resolver as a promise: the
  // groups import their vendor adapters on the first connection (bindConnection), none at start.
  const make = async (connection: Connection, store: ConnectionStore | undefined): Promise<Container> => {
    const container = new Container({ parent: root, defaultScope: 'Singleton' });
    for (const [id, value] of overridden) container.bind(id).toConstantValue(value);
    const binding = { connection, tokens: tokensOf(connection, store) };
    const own: SharedServices = { ...shared, tenant: connection.tenant };
    for (const group of backed.get(connection.vendor) ?? []) {
      await group.bindConnection?.(container, config.groups[group.name], own, binding);
      // The group's use cases live here too: resolved from the root they would get the root's adapters.
      for (const tool of boundTools) if (tool.group === group.name) container.bind(tool.useCase as never).toSelf();
    }
    return container;
  };
  const build = (connection: Connection, store: ConnectionStore | undefined): Promise<Container> => {
    const made = make(connection, store);
    // A failed import is not kept: the connection's next call makes its container again. (The call that
    // awaited this promise gets the failure.)
    made.catch(() => resolver.changed(connection.tenant, connection.vendor));
    return made;
  };

  const watch = new ConnectionWatch(
    MAX_CONNECTION_WAITERS,
    new ConnectResume(storage.sealer, () => shared.clock.now().getTime()),
  );
  // The resolver and the connections service refer to each other (links one way, changes the other).
  const resolver = new ConnectionResolver<Promise<Container>>({
    store: storage.store,
    environment,
    build,
    connectLink: (principal, vendor) => connections.connectLink(principal, vendor),
    clock: shared.clock,
    onStoreError: (error) => shared.logger.error({ err: error }, 'connection store unavailable'),
    cache,
  });
  const connections: Connections = new Connections({
    store: storage.store,
    connectors,
    clock: shared.clock,
    sealer: storage.sealer,
    marks,
    publicBaseUrl: shared.publicBaseUrl,
    environment,
    inUse: new Set(backed.keys()),
    onChange: (tenant, vendor) => {
      resolver.changed(tenant, vendor);
      watch.changed(tenant, vendor);
      return announce?.(tenant, vendor);
    },
    audit,
  });

  // Each vendor-backed tool's use case, once: the tenant and user come with each call.
  const useCases = new Map<(typeof boundTools)[number], UseCase<unknown, unknown>>();
  const resolved = new WeakMap<Container, Map<(typeof boundTools)[number], UseCase<unknown, unknown>>>();
  for (const tool of boundTools) {
    const vendor = [...backed].find(([, groups]) => groups.some((g) => g.name === tool.group))?.[0];
    if (!vendor) continue;
    useCases.set(
      tool,
      connectedUseCase(vendor, resolver, async (made) => {
        const container = await made;
        let own = resolved.get(container);
        if (!own) resolved.set(container, (own = new Map()));
        let useCase = own.get(tool);
        if (!useCase) own.set(tool, (useCase = container.get(tool.useCase as never) as UseCase<unknown, unknown>));
        return useCase;
      }),
    );
  }

  return {
    connections,
    audit,
    store: storage.store,
    ...(inMemory ? {} : { database: storage.database }),
    useCase: (tool) => useCases.get(tool.declaration),
    changed: (tenant, vendor) => {
      resolver.changed(tenant, vendor);
      watch.changed(tenant, vendor);
    },
    watch,
  };
};
