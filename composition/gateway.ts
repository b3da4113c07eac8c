import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import type { Container } from 'inversify';
import pino, { type Logger } from 'pino';
import {
  budgetsFor,
  errorEnvelope,
  present,
  type Presented,
  type ResponseFormat,
} from '../application/runtime/envelope.js';
import { ToolExecutor } from '../application/runtime/executor.js';
import { ToolRegistry, type ToolListing } from '../application/runtime/registry.js';
import { allTools } from '../application/tools.js';
import { createHttpApp } from '../adapters/inbound/http/http-app.js';
import { ConfirmGate } from '../application/runtime/confirm.js';
import { WebReader } from '../ports/web.js';
import type { RejectedCall } from '../adapters/inbound/http/tool-calls.js';
import type { TransferLine } from '../adapters/inbound/http/transfer-guard.js';
import { Authenticator, DEFAULT_TENANT, type Principal } from '../ports/authenticator.js';
import { IdempotencyStore } from '../ports/idempotency-store.js';
import { RateLimiter } from '../ports/rate-limiter.js';
import { UrlFetcher } from '../ports/url-fetcher.js';
import type { GatewayConfig } from './config.js';
import { resolveConfig } from './embedding.js';
import { apiKeysFor, buildContainer, buildTenantScope, overriddenPorts, type ContainerOverrides } from './container.js';
import { lazyRoutes, scopeCache } from './tenant-scopes.js';
import { scopeOf, Tenancy } from '../application/tenancy/tenancy.js';
import { mountTenantRoutes } from '../adapters/inbound/http/tenant-routes.js';
import { vendorAccess } from './vendor-access.js';
import { auditPolicyOf } from './audit-spool.js';
import { authorizationServerFor } from './identity.js';
import { mountGrantRoutes } from '../adapters/inbound/http/grant-routes.js';
import { oauthGrantRegistry } from '../adapters/inbound/oauth/grants-registry.js';
import { GrantsService } from '../application/identity/grants.js';
import type { AuthorizationServer } from '../adapters/inbound/oauth/authorization-server.js';
import { ApiKeyAuthenticator } from '../adapters/outbound/auth/api-key-authenticator.js';
import { connectionStorage } from '../adapters/outbound/persistence/connection-storage.js';
import { mountConnectionRoutes } from '../adapters/inbound/http/connection-routes.js';
import type { SharedServices } from './group-module.js';
import { ParserPool } from '../adapters/outbound/documents/parser-pool.js';
import { groupModules } from './groups/index.js';
import { SystemClock } from '../adapters/outbound/system-clock.js';
import type { SurfaceDeps } from '../adapters/inbound/http/surface-deps.js';
import { mountMcp } from '../adapters/inbound/mcp/mcp-endpoint.js';
import { mountOpenApi } from '../adapters/inbound/openapi/openapi-routes.js';
import { mountDocs } from '../adapters/inbound/docs/docs-routes.js';
import { VERSION } from './version.js';
import { onQuotaReading } from '../adapters/outbound/http/quota.js';
import { resilienceOf, shareQuotas } from '../adapters/outbound/http/resilience.js';
import { SharedCache } from '../ports/shared-cache.js';
import { OneTimeMarks } from '../ports/one-time-marks.js';
import { GatewayMetrics } from '../adapters/outbound/observability/gateway-metrics.js';
import { stdoutLogDestination } from '../adapters/outbound/observability/turn-batched-lines.js';
import { databaseFaultReporter, storeFaultReporter } from './store-faults.js';
import { postgresProbe } from '../adapters/outbound/persistence/databases.js';
import { sharedRedis } from './shared-redis.js';
import { readinessCheck } from './readiness.js';
import { usageMetering } from './usage.js';
import { callObserver } from './call-observer.js';
import { jobEngineFor, mountJobRoutes, type JobEngine, type JobEngineOptions } from './jobs.js';

export { ConfigurationError, principal } from './embedding.js';

export interface GatewayOptions {
  /** A decoded configuration; by default it is read from `env`. */
  readonly config?: GatewayConfig;
  /** Environment variables to read the configuration from (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly logger?: Logger;
  readonly overrides?: ContainerOverrides;
  /** The job engine's settings (lease, poll, bounds), for tests and benchmarks. */
  readonly jobs?: Partial<JobEngineOptions>;
}

export interface CallOptions {
  /** Who is calling; the tool's permission is checked against it. */
  readonly principal: Principal;
  /** `text` (default) for a model, `json` for the structured payload. */
  readonly format?: ResponseFormat;
  readonly base64?: boolean;
  readonly requestId?: string;
  /** For Write and Destructive tools: a retry with the same key replays the first outcome. */
  readonly idempotencyKey?: string;
  /** Lowers the output budget of a text result for this call. */
  readonly maxChars?: number;
}

export interface Gateway {
  readonly config: GatewayConfig;
  /** The token with every permission, when one is in force (configured or generated). */
  readonly demoToken?: string;
  readonly logger: Logger;
  /** The backend of each group, as printed at start ("crm: memory"). */
  readonly backends: Readonly<Record<string, string>>;
  /** Every tool, as `GET /v1/tools` lists it. */
  listTools(): ToolListing[];
  /** Calls a tool by name (`crm_getContact`); the answer is exactly the HTTP surface's status and envelope. */
  callTool(name: string, args: unknown, options: CallOptions): Promise<Presented>;
  /** The Hono app of the HTTP surface (serve it with @hono/node-server, or call `app.request`). */
  readonly http: Hono;
  /** The executor every surface shares (for other inbound adapters such as MCP). */
  readonly executor: ToolExecutor;
  /** The long-job engine (issue 40). */
  readonly jobs: JobEngine;
  /** The Inversify container with every port's adapter (for tests and embedders that need an adapter). */
  readonly container: Container;
  /** Marks the gateway as shutting down: /readyz answers 503 so load balancers stop sending traffic. */
  drain(): void;
  /**
   * Starts a document reader thread and loads the document libraries in it, off the event loop, so the first
   * web_fetch or files_readFile of a document does not wait for them (the server calls it once it listens).
   */
  warm(): void;
  /** Closes connections (Redis); call on shutdown. */
  close(): Promise<void>;
}

/** Builds the whole gateway from configuration: container, registry, executor and HTTP app. */
export const createGateway = (options: GatewayOptions = {}): Gateway => {
  const config = resolveConfig(options);
  // The gateway's own logger writes to standard output a turn at a time, and its call lines skip pino's
  // general serializer (turn-batched-lines.ts, call-line.ts); a logger passed in is used as it is.
  const logLines = options.logger ? undefined : stdoutLogDestination();
  const logger = options.logger ?? pino({ level: config.logLevel, redact: ['req.headers.authorization'] }, logLines);
  const demoToken =
    config.demoToken ?? (config.apiKeys.length === 0 ? `demo-${randomBytes(18).toString('base64url')}` : undefined);
  // Every vendor client's retries and breaker, from the environment, passed to each client it makes.
  const metrics = new GatewayMetrics();
  const resilience = resilienceOf(
    { ...config.upstream, budgetMs: Math.floor(config.requestTimeoutMs * 0.75) },
    (vendor, state) => {
      metrics.breakerState.set({ vendor }, state === 'open' ? 1 : state === 'half-open' ? 0.5 : 0);
      if (state === 'open') {
        metrics.breakerOpened.inc({ vendor });
        logger.warn({ vendor }, 'vendor circuit breaker open: calls answer at once until it half-opens');
      }
    },
  );
  onQuotaReading((vendor, window, remaining) => metrics.quotaRemaining.set({ vendor, window }, remaining));
  const shared: SharedServices = {
    clock: options.overrides?.clock ?? new SystemClock(),
    logger,
    demoData: config.demoData,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    resilience,
    publicBaseUrl: config.publicBaseUrl ?? `http://${config.host}:${config.port}`,
    tenant: DEFAULT_TENANT,
    documents: new ParserPool({ ...config.documents, growthMb: Math.round(config.documents.heapMb * 1.5) }),
  };
  // Redis when configured, the channel of connection changes and the relay of awaited answers (shared-redis.ts).
  const { redis, changes, answers } = sharedRedis(config, logger);
  // The gateway's own authorization server (issue 29): its tokens are checked by the one authenticator.
  const base = shared.publicBaseUrl;
  // Made below, once the audit log exists; the authenticator asks it only when a request comes.
  const own: { server?: AuthorizationServer } = {};
  const ownTokens = config.oauth.enabled
    ? {
        issuer: new URL(base).origin,
        verify: (token: string) =>
          own.server ? own.server.verifyAccessToken(token) : Promise.resolve({ reason: 'invalid' }),
      }
    : undefined;
  const container = buildContainer(config, demoToken, shared, options.overrides, redis, ownTokens);
  // With Redis, instances share what is left of each connection's vendor quota.
  shareQuotas(redis ? container.get(SharedCache) : undefined);
  const rootRoutes = lazyRoutes(() => false);
  // A lost PostgreSQL session is logged and counted, never fatal: its queries fail (503), the pool reconnects.
  const onDatabaseFault = databaseFaultReporter(logger, metrics);
  const storage = connectionStorage(config.storage, logger, onDatabaseFault);
  // The one cache of the adapters calls run on: memory-mode tenants and vendor connections (issue 39).
  const scopes = scopeCache(config, shared.clock);
  const services = vendorAccess({
    cache: scopes,
    announce: changes && ((tenant, vendor) => changes.publish(tenant, vendor)),
    config,
    shared,
    root: container,
    overridden: overriddenPorts(options.overrides ?? {}),
    marks: container.get(OneTimeMarks),
    storage,
  });
  changes?.listen((tenant, vendor) => services.changed(tenant, vendor));
  // /readyz reports PostgreSQL (and Redis): shared by every instance, so down means degraded, not 503.
  const databaseProbe = config.storage.databaseUrl
    ? postgresProbe(config.storage.databaseUrl, undefined, onDatabaseFault)
    : undefined;
  const tenants = new Tenancy(
    scopeOf(container, rootRoutes),
    (tenant) => buildTenantScope(container, config, shared, options.overrides ?? {}, tenant),
    services.useCase,
    scopes,
  );
  const vendorOfGroup = new Map(
    groupModules.map((g) => {
      const backend = g.describe(config.groups[g.name]);
      return [g.name, backend === 'memory' ? 'memory' : (g.vendor ?? backend)] as const;
    }),
  );
  const registry = new ToolRegistry(allTools);
  const identity = authorizationServerFor({
    config,
    registry,
    base,
    keys: new ApiKeyAuthenticator(apiKeysFor(config, demoToken)),
    storage,
    audit: services.audit,
    logger,
    limiter: container.get(RateLimiter),
    // Demo mode (as the banner says it): the sign-in page mentions the printed demo token.
    demo:
      config.demoData &&
      groupModules.every((g) => g.describe(config.groups[g.name]) === 'memory') &&
      config.apiKeys.length === 0 &&
      !config.jwt,
  });
  const oauth = identity?.server;
  own.server = oauth;
  const onInternalError = (error: unknown, tool: string, requestId: string) =>
    logger.error({ err: error, tool, requestId }, 'tool failed unexpectedly');
  const backends = Object.fromEntries(groupModules.map((g) => [g.name, g.describe(config.groups[g.name])]));
  let draining = false;
  const usage = usageMetering({ config, redis, metrics, clock: shared.clock, logger, database: services.database });
  const upstream = Object.values(backends).some((b) => b !== 'memory');
  const { observer, tracing } = callObserver({
    config,
    logger,
    metrics,
    upstream,
    lines: logLines,
    onFinished: usage.onFinished,
  });
  const audit = auditPolicyOf(services.audit, (group) => vendorOfGroup.get(group));
  const executor = new ToolExecutor(registry, tenants.useCase, {
    onInternalError,
    onStoreError: storeFaultReporter(logger, metrics),
    rateLimits: { limiter: container.get(RateLimiter), ...config.rateLimits },
    quotas: usage.capped,
    idempotency: { store: container.get(IdempotencyStore), ttlSeconds: config.idempotencyTtlSeconds },
    timeoutMs: config.requestTimeoutMs,
    observer,
    simulatedLatencyMs: config.simulatedLatencyMs,
    clock: shared.clock,
    audit,
    tenantSettings: config.tenantSettings,
    confirm: new ConfirmGate({
      required: config.confirmDestructive,
      secret: config.confirmSecret ? new TextEncoder().encode(config.confirmSecret) : ConfirmGate.randomSecret(),
      ledger: container.get(IdempotencyStore),
      clock: shared.clock,
    }),
  });
  const jobs = jobEngineFor({ storage, config, executor, clock: shared.clock, observer, audit, logger, options });
  const transferFaults = storeFaultReporter(logger, metrics);
  const readiness = readinessCheck({
    accepting: () => !draining,
    redis,
    database: databaseProbe,
    dependencyUp: metrics.dependencyUp,
  });
  const callDeps = {
    executor,
    authenticator: container.get(Authenticator),
    maxBodyBytes: config.maxBodyBytes,
    bodyTimeoutMs: config.bodyTimeoutMs,
    outputBudget: config.outputBudgetChars,
    jsonBudget: config.jsonBudgetChars,
    transfers: {
      limiter: container.get(RateLimiter),
      perLinkPerMinute: config.fileTransfers.perLinkPerMinute,
      perTenantPerMinute: config.fileTransfers.perTenantPerMinute,
      log: (line: TransferLine) => logger.info(line, 'file transfer'),
      onLimiterError: (error: unknown, requestId: string) =>
        transferFaults({ store: 'rate-limit', operation: 'take', error, tool: 'files data plane', requestId }),
    },
    onRejected: (event: RejectedCall) => {
      metrics.rejected.inc({ status: String(event.status) });
      logger.info(event, 'request refused');
    },
    onInternalError: (error: unknown, requestId: string) =>
      logger.error({ err: error, requestId }, 'request failed unexpectedly'),
    jobs,
  };
  const http = createHttpApp({
    ...callDeps,
    // A scrape checks the shared dependencies too, so gateway_dependency_up is current.
    metrics: async () => {
      await readiness();
      return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
    },
    metricsToken: config.metricsToken,
    readiness,
    mount: (app) => {
      // The authorization server's routes first: nothing before them reads a body (oidc-provider reads it).
      if (oauth) app.route('/', oauth.routes);
      const surface: SurfaceDeps = {
        executor,
        authenticator: container.get(Authenticator),
        publicBaseUrl: shared.publicBaseUrl,
        version: VERSION,
        outputBudget: config.outputBudgetChars,
        jsonBudget: config.jsonBudgetChars,
        connectionWatch: services.watch,
      };
      mountMcp(app, {
        ...surface,
        // The gateway's own server first; an external issuer whose JWTs are accepted too, after it.
        authorizationServers: [...(oauth ? [oauth.issuer] : []), ...(config.jwt?.issuer ? [config.jwt.issuer] : [])],
        maxBodyBytes: config.maxBodyBytes,
        tenantSettings: config.tenantSettings,
        approvalsWaitingPerTenant: config.approvalsWaitingPerTenant,
        answerRelay: answers,
        jobs,
      });
      mountJobRoutes(app, { authenticator: container.get(Authenticator), jobs });
      mountOpenApi(app, surface);
      mountDocs(app, surface);
      for (const group of groupModules) group.routes?.(app, container, config.groups[group.name], shared);
      mountTenantRoutes(app, (tenant) => tenants.existing(tenant)?.http());
      usage.mount(app, container.get(Authenticator));
      mountConnectionRoutes(app, {
        connections: services.connections,
        authenticator: container.get(Authenticator),
        audit: services.audit,
        federation: oauth?.federation,
        limiter: container.get(RateLimiter),
        onStoreError: (error) => logger.error({ err: error }, 'connection store unavailable'),
      });
      // The grants API (issue 29): the OAuth clients a person authorised, and revoking one.
      if (identity)
        mountGrantRoutes(app, {
          authenticator: container.get(Authenticator),
          grants: new GrantsService({
            registry: oauthGrantRegistry({ index: identity.store, server: identity.server }),
            audit: services.audit,
            onAuditError: (error) =>
              logger.error({ err: error }, 'audit log unavailable: a grant revocation was not recorded'),
          }),
          onStoreError: (error) => logger.error({ err: error }, 'OAuth store unavailable'),
        });
    },
  });

  return {
    config,
    demoToken,
    logger,
    http,
    backends,
    listTools: () => registry.listing(),
    callTool: async (name, args, o) => {
      const requestId = o.requestId ?? crypto.randomUUID();
      const tool = registry.get(name);
      if (!tool) return errorEnvelope(registry.unknownName(name));
      const budgets = budgetsFor({ text: config.outputBudgetChars, json: config.jsonBudgetChars }, o.maxChars);
      return present(
        await executor.run({
          tool,
          args,
          principal: o.principal,
          requestId,
          idempotencyKey: o.idempotencyKey,
          budget: budgets.text,
        }),
        o.format ?? 'text',
        o.base64 ?? false,
        budgets,
      );
    },
    executor,
    jobs,
    container,
    drain: () => {
      draining = true;
    },
    warm: () => shared.documents.warm(),
    close: async () => {
      // The URL guard keeps a pool of pinned connections: close it so that nothing holds the process open.
      const fetcher = container.isBound(UrlFetcher) ? container.get(UrlFetcher) : undefined;
      await fetcher?.close?.().catch(() => undefined);
      const web = container.isBound(WebReader) ? container.get(WebReader) : undefined;
      await web?.close?.().catch(() => undefined);
      await identity?.close().catch(() => undefined);
      await jobs.close(); // its runs stop after the chunk in flight; their leases pass to another instance
      await usage.close(); // its last counts go to the database before it closes
      await storage.close().catch(() => undefined);
      await shared.documents.close().catch(() => undefined);
      await databaseProbe?.close().catch(() => undefined);
      await Promise.all([changes?.close(), answers?.close()]); // the two subscribers
      await tracing?.close().catch(() => undefined);
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
};
