import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Container } from 'inversify';
import { Connections, type Sealer, type SealPurpose } from '../application/connections/connections.js';
import type { UseCase } from '../application/runtime/define-tool.js';
import type { RegisteredTool } from '../application/runtime/registry.js';
import {
  openEmbedded,
  openPostgres,
  POSTGRES_POOL_SIZE,
  type DatabaseFaultListener,
  type OpenDatabase,
} from '../adapters/outbound/persistence/databases.js';
import { SqlAuditLog } from '../adapters/outbound/persistence/sql-audit-log.js';
import { InMemoryAuditLog } from '../adapters/outbound/memory/in-memory-audit-log.js';
import type { AuditLog } from '../ports/audit-log.js';
import { ConnectionTokenStore } from '../adapters/outbound/persistence/connection-token-store.js';
import { encryptionKey, newEncryptionKey, SecretBox } from '../adapters/outbound/persistence/secret-box.js';
import { SqlConnectionStore } from '../adapters/outbound/persistence/sql-connection-store.js';
import { notConnected, unavailable, type GatewayError } from '../domain/shared/errors.js';
import { E, type Either } from '../domain/shared/fp.js';
import type { Principal } from '../ports/authenticator.js';
import { VENDOR_LABELS, type Connection, type ConnectionStore, type Vendor } from '../ports/connection-store.js';
import { TokenStore } from '../ports/token-store.js';
import type { VendorConnector } from '../ports/vendor-connector.js';
import type { OneTimeMarks } from '../ports/one-time-marks.js';
import { InMemoryOneTimeMarks } from '../adapters/outbound/memory/in-memory-one-time-marks.js';
import type { GatewayConfig } from './config.js';
import type { GroupModule, SharedServices } from './group-module.js';
import { groupModules } from './groups/index.js';
import { allTools } from '../application/tools.js';
import { inheritShared } from './tenant-scopes.js';

/** The keys that seal connection secrets: from the environment, or (embedded mode only) a generated file. */
const keyring = (config: GatewayConfig, warn: (message: string) => void): SecretBox => {
  const { encryptionKey: given, oldEncryptionKeys, dataDir } = config.storage;
  let current = given;
  if (!current) {
    const file = join(dataDir, 'encryption.key');
    if (existsSync(file)) current = readFileSync(file, 'utf8').trim();
    else {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      current = newEncryptionKey();
      writeFileSync(file, `${current}\n`, { mode: 0o600, flag: 'wx' });
      warn(
        `GATEWAY_ENCRYPTION_KEY is not set: generated one into ${file}. Keep that file with the data dir, or set the variable.`,
      );
    }
  }
  return new SecretBox(encryptionKey(current), oldEncryptionKeys.map(encryptionKey));
};

/** Where connections live and how tenants connect: opened on first use, so memory-mode start-up stays as it is. */
export interface ConnectionServices {
  readonly connections: Connections;
  readonly store: () => Promise<ConnectionStore>;
  readonly audit: AuditLog;
  /** Tells a tenant's cached adapters that its connection to `vendor` changed. */
  subscribe(listener: (tenant: string, vendor: Vendor) => void): void;
  close(): Promise<void>;
}

/** `onDatabaseFault` hears of PostgreSQL sessions lost outside a query (logged; never fatal). */
export const connectionServices = (
  config: GatewayConfig,
  shared: SharedServices,
  onDatabaseFault?: DatabaseFaultListener,
  /** Where used OAuth states are marked: the container's (Redis when configured); in process by default. */
  marks: OneTimeMarks = new InMemoryOneTimeMarks(shared.clock),
): ConnectionServices => {
  let box: SecretBox | undefined;
  const keys = () => (box ??= keyring(config, (m) => shared.logger.warn(m)));
  let opening: Promise<OpenDatabase> | undefined;
  const database = (): Promise<OpenDatabase> =>
    (opening ??= (async () => {
      const started = performance.now();
      const db = config.storage.databaseUrl
        ? await openPostgres(config.storage.databaseUrl, POSTGRES_POOL_SIZE, onDatabaseFault)
        : await openEmbedded(config.storage.dataDir);
      shared.logger.info({ dialect: db.dialect, ms: Math.round(performance.now() - started) }, 'database open');
      return db;
    })().catch((error: unknown) => {
      opening = undefined; // the next call tries again
      throw error;
    }));
  let connectionStore: ConnectionStore | undefined;
  const store = async (): Promise<ConnectionStore> =>
    (connectionStore ??= new SqlConnectionStore((await database()).db, keys(), () => Promise.resolve()));
  // Memory mode keeps its audit log in memory, like its data; any vendor backend or DATABASE_URL keeps it
  // in the database.
  const memoryOnly =
    !config.storage.databaseUrl &&
    groupModules.every((g) => g.tenantScoped === false || g.describe(config.groups[g.name]) === 'memory');
  const audit: AuditLog = memoryOnly
    ? new InMemoryAuditLog(shared.clock)
    : new SqlAuditLog(async () => (await database()).db);

  // One key per purpose (connect ticket, OAuth state, flow cookie), derived from the encryption key, with
  // the purpose as authenticated data too: a value sealed for one purpose never opens for another.
  const boxes = new Map<SealPurpose, SecretBox>();
  const purposeBox = (purpose: SealPurpose): SecretBox => {
    let found = boxes.get(purpose);
    if (!found) boxes.set(purpose, (found = keys().forPurpose(purpose)));
    return found;
  };
  const sealer: Sealer = {
    seal: (purpose, value) => {
      const sealed = purposeBox(purpose).seal(value, purpose);
      return `${sealed.keyId}.${sealed.sealed}`;
    },
    open: (purpose, value) => {
      const [keyId, ...rest] = value.split('.');
      try {
        return purposeBox(purpose).open({ keyId: keyId ?? '', sealed: rest.join('.') }, purpose);
      } catch {
        return undefined;
      }
    },
  };

  const connectors = new Map<Vendor, VendorConnector>();
  const environment = new Map<Vendor, string>();
  const inUse = new Set<Vendor>();
  for (const group of groupModules) {
    const groupConfig = config.groups[group.name];
    if (!group.vendor || group.describe(groupConfig) === 'memory') continue;
    inUse.add(group.vendor);
    environment.set(group.vendor, `${VENDOR_LABELS[group.vendor]} account of the environment's credentials`);
    const connector = group.connector?.(groupConfig, shared);
    if (connector) connectors.set(group.vendor, connector);
  }
  const listeners: ((tenant: string, vendor: Vendor) => void)[] = [];
  const connections = new Connections({
    store,
    connectors,
    clock: shared.clock,
    sealer,
    marks,
    publicBaseUrl: shared.publicBaseUrl,
    environment,
    inUse,
    onChange: (tenant, vendor) => {
      for (const listener of listeners) listener(tenant, vendor);
    },
    audit,
  });
  return {
    connections,
    store,
    audit,
    subscribe: (listener) => void listeners.push(listener),
    close: async () => {
      if (!opening) return;
      const opened = await opening.catch(() => undefined);
      await opened?.db.destroy();
    },
  };
};

const RECHECK_MS = 30_000;
/** How long a tool call is told to wait when the connection store cannot be read. */
const STORE_RETRY_SECONDS = 5;
const MAX_OWNERS = 1000;

interface Held {
  readonly checkedAt: number;
  readonly version: string;
  readonly container?: Container;
  readonly status?: Connection['status'];
}

/**
 * One tenant's vendor-backed group: each call runs on the caller's own connection if there is one, else
 * the tenant's; without a usable one it answers NOT_CONNECTED with a link a person can open. Adapters
 * are made once per connection (in a container of their own) and the connection is checked again every
 * 30 seconds, so a connection made or removed on another instance is seen within that time (at once on
 * this one).
 */
export class ConnectedGroup {
  readonly #held = new Map<string, Held>();

  constructor(
    private readonly deps: {
      readonly tenant: string;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each group has its own configuration type
      readonly group: GroupModule<any, any>;
      readonly groupConfig: unknown;
      readonly shared: SharedServices;
      readonly parent: Container;
      readonly services: ConnectionServices;
    },
  ) {}

  invalidate(): void {
    this.#held.clear();
  }

  useCase(tool: RegisteredTool): UseCase<unknown, unknown> {
    return {
      execute: (params, context) => async () => {
        const container = await this.#containerFor(context.principal);
        if (E.isLeft(container)) return container;
        const useCase = container.right.get(tool.declaration.useCase) as UseCase<unknown, unknown>;
        const outcome = await useCase.execute(params, context)();
        // A refresh the vendor refused marks the connection; the agent gets a link to connect again.
        if (E.isLeft(outcome) && outcome.left._tag === 'UpstreamFailure' && outcome.left.reauthorize)
          return E.left(await this.#refused(context.principal));
        return outcome;
      },
    };
  }

  async #refused(principal: Principal): Promise<GatewayError> {
    const vendor = this.deps.group.vendor as Vendor;
    const own = this.#held.get(principal.id)?.container ? principal.id : '';
    try {
      await (await this.deps.services.store()).setStatus(this.deps.tenant, vendor, own, 'needs_reauthorization');
    } catch {
      // The next refresh is refused again and marks it then.
    }
    this.#held.clear();
    return notConnected(
      vendor,
      VENDOR_LABELS[vendor],
      this.deps.services.connections.connectLink(principal, vendor),
      'needs_reauthorization',
    );
  }

  /** The connection store could not be read: logged, and a retryable failure for the caller. */
  #storeUnavailable(error: unknown): GatewayError {
    this.deps.shared.logger.error({ err: error }, 'connection store unavailable');
    // The gateway's own outage, not the vendor's: 503 UNAVAILABLE with Retry-After, as the connections API.
    return unavailable(
      `The gateway cannot read its connections right now. Nothing was done; try again in ${STORE_RETRY_SECONDS} s.`,
      STORE_RETRY_SECONDS,
    );
  }

  async #containerFor(principal: Principal): Promise<Either<GatewayError, Container>> {
    const vendor = this.deps.group.vendor as Vendor;
    let store: ConnectionStore;
    try {
      store = await this.deps.services.store();
    } catch (error) {
      return E.left(this.#storeUnavailable(error));
    }
    for (const owner of [principal.id, '']) {
      const held = await this.#lookup(store, vendor, owner);
      if (E.isLeft(held)) return held;
      if (!held.right) continue;
      if (held.right.status === 'needs_reauthorization')
        return E.left(
          notConnected(
            vendor,
            VENDOR_LABELS[vendor],
            this.deps.services.connections.connectLink(principal, vendor),
            'needs_reauthorization',
          ),
        );
      if (held.right.container) return E.right(held.right.container);
    }
    return E.left(
      notConnected(vendor, VENDOR_LABELS[vendor], this.deps.services.connections.connectLink(principal, vendor)),
    );
  }

  async #lookup(
    store: ConnectionStore,
    vendor: Vendor,
    owner: string,
  ): Promise<Either<GatewayError, Held | undefined>> {
    const now = this.deps.shared.clock.now().getTime();
    const held = this.#held.get(owner);
    if (held && now - held.checkedAt < RECHECK_MS) return E.right(held.version ? held : undefined);
    let connection: Connection | undefined;
    try {
      connection = await store.find(this.deps.tenant, vendor, owner);
    } catch (error) {
      return E.left(this.#storeUnavailable(error));
    }
    if (this.#held.size >= MAX_OWNERS) this.#held.delete(this.#held.keys().next().value!);
    if (!connection) {
      this.#held.set(owner, { checkedAt: now, version: '' });
      return E.right(undefined);
    }
    const version = `${connection.kind}:${connection.connectedAt.getTime()}:${connection.status}`;
    const container = held?.version === version && held.container ? held.container : this.#build(store, connection);
    const next: Held = { checkedAt: now, version, container, status: connection.status };
    this.#held.delete(owner);
    this.#held.set(owner, next);
    return E.right(next);
  }

  #build(store: ConnectionStore, connection: Connection): Container {
    const container = new Container({ parent: this.deps.parent, defaultScope: 'Singleton' });
    inheritShared(container, this.deps.parent);
    const lock = this.deps.parent.get(TokenStore);
    const tokens = new ConnectionTokenStore(
      store,
      lock,
      { tenant: connection.tenant, vendor: connection.vendor, owner: connection.owner },
      this.deps.shared.clock,
    );
    this.deps.group.bindConnection!(container, this.deps.groupConfig, this.deps.shared, { connection, tokens });
    // The group's use cases live here too: resolved from a parent they would get the parent's adapters.
    for (const tool of allTools)
      if (tool.group === this.deps.group.name) container.bind(tool.useCase as never).toSelf();
    return container;
  }
}
