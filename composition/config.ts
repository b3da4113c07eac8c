import * as t from 'io-ts';
import { E, type Either } from '../domain/shared/fp.js';
import { tracingSettings, type TracingSettings } from '../adapters/outbound/observability/tracing.js';
import { CORE_ENV, type ApiKeyConfig } from './core-env.js';
import { environmentRows, SECRET_VARIABLE, type EnvironmentRow } from './env.js';
import type { GroupModule } from './group-module.js';
import { configuredTenantSettings, type TenantSettingsSource } from '../ports/tenant-settings.js';
import { groupModules } from './groups/index.js';
import type { ClientMetadata } from 'oidc-provider';
import type { OpenIdProviderOptions } from '../adapters/inbound/oauth/oidc-federation.js';

export type { ApiKeyConfig } from './core-env.js';

export interface GatewayConfig {
  readonly port: number;
  readonly host: string;
  readonly publicBaseUrl?: string;
  readonly demoToken?: string;
  readonly apiKeys: readonly ApiKeyConfig[];
  readonly demoData: boolean;
  readonly upstreamTimeoutMs: number;
  readonly maxBodyBytes: number;
  /** How long a request body may take to arrive (an upload: how long it may pause). */
  readonly bodyTimeoutMs: number;
  readonly logLevel: string;
  readonly requestTimeoutMs: number;
  /** Extra delay added to every tool call (demos and shutdown tests of the in-memory mode). */
  readonly simulatedLatencyMs: number;
  readonly metricsToken?: string;
  /** Tenants with a label of their own on the usage metrics (USAGE_TENANT_LABELS); the rest are "other". */
  readonly usageTenantLabels: number;
  /** OpenTelemetry tracing, from the standard OTEL_* variables; undefined when off (observability/tracing.ts). */
  readonly tracing?: TracingSettings;
  /** How long shutdown waits for in-flight requests. */
  readonly shutdownGraceMs: number;
  /** Most characters a text result may have; `max_chars` lowers it per call. */
  readonly outputBudgetChars: number;
  /** Most characters in the JSON of a list answer (format=json, MCP structuredContent); `max_chars` lowers it too. */
  readonly jsonBudgetChars: number;
  /** The parser pool's bounds (adapters/outbound/documents/parser-pool.ts). */
  readonly documents: {
    readonly threads?: number;
    readonly queue: number;
    readonly maxTaskMs: number;
    readonly heapMb: number;
    /** Each tenant's share of the readers and of the waiting line (undefined: the pool's defaults). */
    readonly perOwnerThreads?: number;
    readonly perOwnerQueue?: number;
  };
  /** Approvals one tenant may have waiting for a person (2025-era MCP clients) on this instance. */
  readonly approvalsWaitingPerTenant: number;
  /** A Destructive call needs a confirm token (from a dry run or a 428 answer). */
  readonly confirmDestructive: boolean;
  /** The HMAC key of confirm tokens; without it each instance makes its own (tokens then verify only there). */
  readonly confirmSecret?: string;
  /** Each tenant's human-approval and tool-search settings (TENANT_SETTINGS over HUMAN_APPROVAL, TOOL_SEARCH_ABOVE). */
  readonly tenantSettings: TenantSettingsSource;
  readonly jwt?: {
    readonly secret?: string;
    readonly jwksUrl?: string;
    readonly issuer?: string;
    readonly audience?: string;
    readonly tenantClaim?: string;
    /** The longest lifetime (exp - iat) of a token accepted. */
    readonly maxLifetimeSeconds: number;
  };
  readonly rateLimits: { readonly perMinute: number; readonly perGroup: Readonly<Record<string, number>> };
  /** The files data plane's limits: requests a minute to one link, and to one tenant's links together. */
  readonly fileTransfers: { readonly perLinkPerMinute: number; readonly perTenantPerMinute: number };
  readonly idempotencyTtlSeconds: number;
  /** Bounds of the in-process idempotency records (without Redis). */
  readonly idempotencyMemory?: { readonly maxEntries: number; readonly maxBytes: number };
  /** Shared store for rate limits, idempotency records and upstream tokens; in-process stores without it. */
  readonly redisUrl?: string;
  /** Put before every Redis key the gateway writes (REDIS_KEY_PREFIX; empty by default). */
  readonly redisKeyPrefix?: string;
  /** Where connections and the audit log live: PostgreSQL, or the embedded file in `dataDir`. */
  readonly storage: {
    readonly databaseUrl?: string;
    readonly dataDir: string;
    readonly encryptionKey?: string;
    readonly oldEncryptionKeys: readonly string[];
    /** Bound of the local spool of audit rows kept while the database is away (bytes). */
    readonly auditSpoolBytes: number;
  };
  /** Retries and circuit breakers of vendor calls (adapters/outbound/http/resilience.ts). */
  readonly upstream: {
    readonly maxAttempts: number;
    readonly breakerFailures: number;
    readonly halfOpenAfterMs: number;
    readonly quotaReserve: number;
  };
  /** How many tenants (besides `default`) keep their adapters at once, and for how long unused. */
  readonly tenantScopes: { readonly max: number; readonly idleSeconds: number };
  /** The gateway's own OAuth authorization server (composition/identity.ts). */
  readonly oauth: {
    readonly enabled: boolean;
    readonly accessTokenTtlSeconds: number;
    readonly refreshTokenTtlSeconds: number;
    readonly dynamicRegistration: boolean;
    readonly clientIdMetadataDocuments: boolean;
    readonly clients: readonly ClientMetadata[];
    /** Limits per address and client (adapters/inbound/oauth/limits.ts). */
    readonly limits: {
      readonly registrationsPerHour: number;
      readonly tokenRequestsPerMinute: number;
      readonly signInFailuresPerMinute: number;
      readonly signInFailuresPerHour: number;
      readonly trustedProxies: readonly string[];
    };
    /** Registered clients without a grant: their lifetime and how many are kept. */
    readonly unusedClientTtlSeconds: number;
    readonly maxUnusedClients: number;
    /** Sign-in through an external OpenID Connect provider (OIDC_*), when configured. */
    readonly openIdProvider?: OpenIdProviderOptions;
  };
  /** Each group's own configuration, by group name (see composition/groups/). */
  readonly groups: Readonly<Record<string, unknown>>;
}

/** Every variable the gateway reads, the core's then each group's (a variable two groups read, once). */
const ALL_VARIABLES: Readonly<Record<string, t.Mixed>> = Object.assign({}, CORE_ENV, ...groupModules.map((g) => g.env));

/** Every environment variable the gateway reads, with its default and meaning (docs/configuration.md). */
export const ENVIRONMENT: readonly EnvironmentRow[] = environmentRows(ALL_VARIABLES);

/** The variables the gateway reads, for the test that keeps ENVIRONMENT and the docs complete. */
export const ENV_VARIABLES: readonly string[] = Object.keys(ALL_VARIABLES);

type Env = Readonly<Record<string, string | undefined>>;

/** Decodes `props` from `env`, each failure a problem naming its variable (secret values never echoed). */
const decodeVariables = <P extends t.Props>(props: P, env: Env, problems: string[], seen: Set<string>) => {
  const input = Object.fromEntries(Object.keys(props).map((k) => [k, env[k]]));
  const decoded = t.type(props).decode(input);
  if (E.isRight(decoded)) return decoded.right;
  for (const e of decoded.left) {
    const name = e.context[1]?.key ?? '?';
    if (seen.has(name)) continue;
    seen.add(name);
    problems.push(
      `${name} must be ${e.message ?? 'valid'}${SECRET_VARIABLE.test(name) ? '' : `; got "${env[name]}"`}.`,
    );
  }
  return undefined;
};

/** One group's configuration from its own decoded variables (typed by its codecs). */
const configureGroup = <C, P extends t.Props>(
  group: GroupModule<C, P>,
  env: Env,
  problems: string[],
  seen: Set<string>,
  rules: string[],
): C | undefined => {
  const vars = decodeVariables(group.env, env, problems, seen);
  return vars && group.configure(vars, rules);
};

/**
 * Reads the configuration from environment variables with io-ts. Every problem is reported at once,
 * each naming its variable (secret values are never echoed), so a bad deployment stops at start-up
 * with a message an operator can act on.
 */
export const loadConfig = (env: Env = process.env): Either<string[], GatewayConfig> => {
  const problems: string[] = [];
  const seen = new Set<string>();
  const v = decodeVariables(CORE_ENV, env, problems, seen);
  // Cross-variable rules are checked once every variable decodes (a bad value would repeat as a rule).
  const rules: string[] = [];
  const groups: Record<string, unknown> = {};
  for (const group of groupModules) groups[group.name] = configureGroup(group, env, problems, seen, rules);
  let tracing: TracingSettings | undefined;
  try {
    tracing = tracingSettings(env);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (!v || problems.length) return E.left(problems);
  if (v.DATABASE_URL && !v.GATEWAY_ENCRYPTION_KEY)
    rules.push(
      'GATEWAY_ENCRYPTION_KEY is required with DATABASE_URL: connection secrets are encrypted with it (openssl rand -base64 32).',
    );
  if (v.OAUTH_SERVER && v.PUBLIC_BASE_URL && new URL(v.PUBLIC_BASE_URL).pathname !== '/')
    rules.push(
      'PUBLIC_BASE_URL must be an origin without a path while OAUTH_SERVER=true (the authorization server is its issuer); serve the gateway at the root of its host, or set OAUTH_SERVER=false.',
    );
  if (v.OIDC_ISSUER && !v.OIDC_CLIENT_ID) rules.push('OIDC_CLIENT_ID is required with OIDC_ISSUER.');
  if (rules.length) return E.left(rules);

  return E.right({
    port: v.PORT,
    host: v.HOST ?? '127.0.0.1',
    publicBaseUrl: v.PUBLIC_BASE_URL,
    demoToken: v.GATEWAY_DEMO_TOKEN,
    apiKeys: v.GATEWAY_API_KEYS,
    demoData: v.GATEWAY_DEMO_DATA,
    upstreamTimeoutMs: v.UPSTREAM_TIMEOUT_MS,
    maxBodyBytes: v.GATEWAY_MAX_BODY_BYTES,
    bodyTimeoutMs: v.GATEWAY_BODY_TIMEOUT_MS,
    logLevel: v.LOG_LEVEL,
    requestTimeoutMs: v.GATEWAY_REQUEST_TIMEOUT_MS,
    outputBudgetChars: v.GATEWAY_OUTPUT_BUDGET_CHARS,
    jsonBudgetChars: v.GATEWAY_JSON_BUDGET_CHARS,
    documents: {
      ...(v.DOCUMENT_READERS > 0 ? { threads: v.DOCUMENT_READERS } : {}),
      queue: v.DOCUMENT_READ_QUEUE,
      maxTaskMs: v.DOCUMENT_READ_TIMEOUT_MS,
      heapMb: v.DOCUMENT_READ_MEMORY_MB,
      ...(v.DOCUMENT_READERS_PER_TENANT > 0 ? { perOwnerThreads: v.DOCUMENT_READERS_PER_TENANT } : {}),
      ...(v.DOCUMENT_READ_QUEUE_PER_TENANT > 0 ? { perOwnerQueue: v.DOCUMENT_READ_QUEUE_PER_TENANT } : {}),
    },
    approvalsWaitingPerTenant: v.APPROVALS_WAITING_PER_TENANT,
    confirmDestructive: v.GATEWAY_CONFIRM_DESTRUCTIVE,
    confirmSecret: v.GATEWAY_CONFIRM_SECRET,
    tenantSettings: configuredTenantSettings(
      { humanApproval: v.HUMAN_APPROVAL, toolSearchAbove: v.TOOL_SEARCH_ABOVE },
      v.TENANT_SETTINGS,
    ),
    shutdownGraceMs: v.GATEWAY_SHUTDOWN_GRACE_MS,
    simulatedLatencyMs: v.GATEWAY_SIMULATED_LATENCY_MS,
    metricsToken: v.METRICS_TOKEN,
    usageTenantLabels: v.USAGE_TENANT_LABELS,
    tracing,
    jwt:
      v.JWT_SECRET || v.JWT_JWKS_URL
        ? {
            secret: v.JWT_SECRET,
            jwksUrl: v.JWT_JWKS_URL,
            issuer: v.JWT_ISSUER,
            audience: v.JWT_AUDIENCE,
            tenantClaim: v.JWT_TENANT_CLAIM,
            maxLifetimeSeconds: v.JWT_MAX_LIFETIME_SECONDS,
          }
        : undefined,
    rateLimits: {
      perMinute: v.RATE_LIMIT_PER_MINUTE,
      // web_fetch and web_search reach arbitrary sites: their own, lower default (60 a minute).
      perGroup: { web: Math.min(60, v.RATE_LIMIT_PER_MINUTE), ...v.RATE_LIMIT_GROUPS },
    },
    fileTransfers: {
      perLinkPerMinute: v.RATE_LIMIT_FILE_LINK_PER_MINUTE,
      perTenantPerMinute: v.RATE_LIMIT_FILE_TENANT_PER_MINUTE,
    },
    idempotencyTtlSeconds: v.IDEMPOTENCY_TTL_SECONDS,
    idempotencyMemory: {
      maxEntries: v.IDEMPOTENCY_MEMORY_MAX_ENTRIES,
      maxBytes: v.IDEMPOTENCY_MEMORY_MAX_MB * 2 ** 20,
    },
    redisUrl: v.REDIS_URL,
    redisKeyPrefix: v.REDIS_KEY_PREFIX,
    upstream: {
      maxAttempts: v.UPSTREAM_RETRY_MAX_ATTEMPTS,
      breakerFailures: v.UPSTREAM_BREAKER_FAILURES,
      halfOpenAfterMs: v.UPSTREAM_BREAKER_HALF_OPEN_MS,
      quotaReserve: v.UPSTREAM_QUOTA_RESERVE,
    },
    storage: {
      databaseUrl: v.DATABASE_URL,
      dataDir: v.GATEWAY_DATA_DIR,
      encryptionKey: v.GATEWAY_ENCRYPTION_KEY,
      oldEncryptionKeys: v.GATEWAY_ENCRYPTION_KEYS,
      auditSpoolBytes: v.GATEWAY_AUDIT_SPOOL_MB * 1024 * 1024,
    },
    tenantScopes: { max: v.GATEWAY_TENANTS_MAX, idleSeconds: v.GATEWAY_TENANT_IDLE_SECONDS },
    oauth: {
      enabled: v.OAUTH_SERVER,
      accessTokenTtlSeconds: v.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: v.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
      dynamicRegistration: v.OAUTH_DYNAMIC_REGISTRATION,
      clientIdMetadataDocuments: v.OAUTH_CLIENT_ID_METADATA_DOCUMENTS,
      limits: {
        registrationsPerHour: v.OAUTH_REGISTRATIONS_PER_HOUR,
        tokenRequestsPerMinute: v.OAUTH_TOKEN_REQUESTS_PER_MINUTE,
        signInFailuresPerMinute: v.OAUTH_SIGN_IN_FAILURES_PER_MINUTE,
        signInFailuresPerHour: v.OAUTH_SIGN_IN_FAILURES_PER_HOUR,
        trustedProxies: v.OAUTH_TRUSTED_PROXIES,
      },
      unusedClientTtlSeconds: v.OAUTH_UNUSED_CLIENT_TTL_SECONDS,
      maxUnusedClients: v.OAUTH_MAX_UNUSED_CLIENTS,
      // A client without a secret is public: it proves itself with PKCE alone.
      clients: v.OAUTH_CLIENTS.map((c) => ({
        token_endpoint_auth_method: c.client_secret ? ('client_secret_basic' as const) : ('none' as const),
        ...c,
      })),
      ...(v.OIDC_ISSUER
        ? {
            openIdProvider: {
              issuer: v.OIDC_ISSUER,
              clientId: v.OIDC_CLIENT_ID ?? '',
              ...(v.OIDC_CLIENT_SECRET ? { clientSecret: v.OIDC_CLIENT_SECRET } : {}),
              name: v.OIDC_NAME ?? new URL(v.OIDC_ISSUER).host,
              ...(v.OIDC_SCOPES ? { scope: v.OIDC_SCOPES } : {}),
              ...(v.OIDC_TENANT_CLAIM ? { tenantClaim: v.OIDC_TENANT_CLAIM } : {}),
              ...(v.OIDC_TENANT ? { tenant: v.OIDC_TENANT } : {}),
              ...(v.OIDC_PERMISSIONS_CLAIM ? { permissionsClaim: v.OIDC_PERMISSIONS_CLAIM } : {}),
              ...(Object.keys(v.OIDC_PERMISSIONS_MAP).length ? { permissionsByGroup: v.OIDC_PERMISSIONS_MAP } : {}),
              defaultPermissions: v.OIDC_DEFAULT_PERMISSIONS,
            },
          }
        : {}),
    },
    groups,
  });
};
