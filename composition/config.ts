import * as t from 'io-ts';
import { DEFAULT_OUTPUT_BUDGET } from '../application/runtime/envelope.js';
import { E, type Either } from '../domain/shared/fp.js';
import { TENANT_ID } from '../ports/authenticator.js';
import { EnvVar, enumVar, intVar, optionalString, SECRET_VARIABLE, tokenVar, urlVar } from './env.js';
import type { EnvironmentRow } from './group-module.js';
import { groupModules } from './groups/index.js';

/** One configured API key: a name, its permissions, and the token or (preferably) its SHA-256 hash. */
export interface ApiKeyConfig {
  readonly name: string;
  readonly permissions: readonly string[];
  readonly token?: string;
  readonly sha256?: string;
  /** The tenant the key acts for (default `default`). */
  readonly tenant?: string;
}

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
  /** How long shutdown waits for in-flight requests. */
  readonly shutdownGraceMs: number;
  /** Most characters a text result may have; `max_chars` lowers it per call. */
  readonly outputBudgetChars: number;
  /** The parser pool's bounds (adapters/outbound/documents/parser-pool.ts). */
  readonly documents: {
    readonly threads?: number;
    readonly queue: number;
    readonly maxTaskMs: number;
    readonly heapMb: number;
  };
  /** A Destructive call needs a confirm token (from a dry run or a 428 answer). */
  readonly confirmDestructive: boolean;
  /** The HMAC key of confirm tokens; without it each instance makes its own (tokens then verify only there). */
  readonly confirmSecret?: string;
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
  /** Shared store for rate limits, idempotency records and upstream tokens; in-process stores without it. */
  readonly redisUrl?: string;
  /** Where connections and the audit log live: PostgreSQL, or the embedded file in `dataDir`. */
  readonly storage: {
    readonly databaseUrl?: string;
    readonly dataDir: string;
    readonly encryptionKey?: string;
    readonly oldEncryptionKeys: readonly string[];
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
  /** Each group's own configuration, by group name (see composition/groups/). */
  readonly groups: Readonly<Record<string, unknown>>;
}

const CORE_ENVIRONMENT: readonly EnvironmentRow[] = [
  ['PORT', '8787', 'TCP port of the HTTP server.'],
  ['HOST', '127.0.0.1', 'Interface to listen on; 0.0.0.0 to accept outside connections (containers).'],
  ['PUBLIC_BASE_URL', 'http://HOST:PORT', 'Base URL printed at start and used in links the gateway hands out.'],
  [
    'GATEWAY_DEMO_TOKEN',
    'random, printed',
    'Bearer token with every permission. When unset and no GATEWAY_API_KEYS are configured, a random one is made and printed at start.',
  ],
  [
    'GATEWAY_API_KEYS',
    '(none)',
    'JSON array of API keys: [{"name":"ci","sha256":"<hex of SHA-256 of the token>","permissions":["crm:read","crm:write"],"tenant":"acme"}]. "token" instead of "sha256" is accepted for local use; without "tenant" the key acts for the tenant "default".',
  ],
  ['GATEWAY_DEMO_DATA', 'true', 'Seed the in-memory backends with demo data.'],
  ['GATEWAY_MAX_BODY_BYTES', '1048576', 'Largest tool-call body accepted; larger ones get 413.'],
  [
    'GATEWAY_BODY_TIMEOUT_MS',
    '10000',
    'Longest a request body may take to arrive (an upload to the files data plane: longest it may go without a byte); past it the request gets 408 REQUEST_TIMEOUT and its connection is closed. Request headers have the same limit.',
  ],
  ['UPSTREAM_TIMEOUT_MS', '15000', 'Time limit of one call to a vendor API.'],
  ['LOG_LEVEL', 'info', 'pino level: fatal, error, warn, info, debug, trace or silent.'],
  [
    'GATEWAY_OUTPUT_BUDGET_CHARS',
    String(DEFAULT_OUTPUT_BUDGET),
    'Most characters in an answer: a text result, or the JSON of a list (format=json, MCP structuredContent). Longer lists are cut at a row with the call that fetches the rest. The max_chars query parameter lowers it per call.',
  ],
  [
    'GATEWAY_SHUTDOWN_GRACE_MS',
    '10000',
    'On SIGTERM or SIGINT, how long in-flight requests may take to finish before connections are closed.',
  ],
  [
    'GATEWAY_SIMULATED_LATENCY_MS',
    '0',
    'Adds this delay to every tool call: for demos and tests of the in-memory mode, never for production.',
  ],
  [
    'METRICS_TOKEN',
    '(none)',
    'When set, GET /metrics needs it as a bearer token; otherwise /metrics is open (keep it on an internal network).',
  ],
  ['GATEWAY_REQUEST_TIMEOUT_MS', '30000', 'Longest a tool call may run before the caller gets 504 TIMEOUT.'],
  [
    'DOCUMENT_READERS',
    '0',
    'Worker threads that read untrusted documents (HTML, PDF, Word) for web_fetch and files_readFile; 0 means one per core.',
  ],
  [
    'DOCUMENT_READ_QUEUE',
    '16',
    'Documents that may wait for a reader; past that a call gets 503 UNAVAILABLE with retry_after_seconds at once.',
  ],
  [
    'DOCUMENT_READ_TIMEOUT_MS',
    '20000',
    "Longest one document may take to read (the call's own time limit ends it sooner); past it the reader is terminated and the call gets 422 DOCUMENT_TOO_COMPLEX.",
  ],
  [
    'DOCUMENT_READ_MEMORY_MB',
    '512',
    'Heap limit of each reader thread; the process may grow by 1.5 times this per document being read (buffers outside the heap included) before the read is ended with 422 DOCUMENT_TOO_COMPLEX.',
  ],
  ['JWT_SECRET', '(none)', 'Shared secret: accept HS256 JWT access tokens signed with it.'],
  [
    'JWT_JWKS_URL',
    '(none)',
    'JWKS address: accept RS256, ES256 and EdDSA JWTs signed by its keys (cached, refetched for an unknown kid).',
  ],
  ['JWT_ISSUER', '(none)', "When set, a JWT's iss must equal it."],
  ['JWT_AUDIENCE', '(none)', "When set, a JWT's aud must contain it."],
  [
    'JWT_TENANT_CLAIM',
    'tenant',
    'The JWT claim that names the caller\'s tenant; a token without it acts for the tenant "default".',
  ],
  [
    'JWT_MAX_LIFETIME_SECONDS',
    '86400',
    'Longest lifetime of a JWT accepted: a token whose exp is further than this from its iat (or, without iat, from now) is refused with 401.',
  ],
  [
    'GATEWAY_CONFIRM_DESTRUCTIVE',
    'false',
    'true: a Destructive tool call without a valid confirm_token changes nothing and answers 428 CONFIRMATION_REQUIRED with a preview of what would go and a token (single use, 5 minutes). dry_run=true previews whatever the setting.',
  ],
  [
    'GATEWAY_CONFIRM_SECRET',
    'random per instance',
    'HMAC key of confirm tokens (at least 32 characters); set the same one on every instance behind a load balancer.',
  ],
  ['RATE_LIMIT_PER_MINUTE', '600', 'Tool calls per minute per principal and tool group.'],
  [
    'RATE_LIMIT_GROUPS',
    '(none)',
    'Per-group limits as JSON, e.g. {"skiptrace": 60}; other groups use RATE_LIMIT_PER_MINUTE, except web (60, or RATE_LIMIT_PER_MINUTE when lower).',
  ],
  [
    'RATE_LIMIT_FILE_LINK_PER_MINUTE',
    '120',
    'Requests per minute to one address of the files data plane (an upload, a download address, a share page); more get 429 with Retry-After.',
  ],
  [
    'RATE_LIMIT_FILE_TENANT_PER_MINUTE',
    '1200',
    "Requests per minute to one tenant's files data plane, all its addresses together.",
  ],
  ['IDEMPOTENCY_TTL_SECONDS', '86400', 'How long the outcome of a write with an Idempotency-Key is replayed.'],
  [
    'UPSTREAM_RETRY_MAX_ATTEMPTS',
    '3',
    'Attempts per vendor read (and idempotent call) on 429, 5xx and connection errors, with jittered back-off and Retry-After, within 3/4 of GATEWAY_REQUEST_TIMEOUT_MS. Writes that may have reached the vendor are never retried. 1 turns retries off.',
  ],
  [
    'UPSTREAM_BREAKER_FAILURES',
    '5',
    "Consecutive 5xx or connection failures that open a vendor client's circuit breaker: calls then answer at once with UPSTREAM_ERROR (retryable, retry_after_seconds).",
  ],
  [
    'UPSTREAM_BREAKER_HALF_OPEN_MS',
    '30000',
    'How long an open breaker answers at once before one probe call goes through.',
  ],
  [
    'UPSTREAM_QUOTA_RESERVE',
    '10',
    "Calls of a connection's Podio hourly or HubSpot daily quota left unused: at this many, calls are refused early with RATE_LIMITED and the wait (0 turns it off).",
  ],
  [
    'DATABASE_URL',
    '(none)',
    'PostgreSQL (postgres://user@host:5432/db) for connections and the audit log; migrations run at first use. Without it they live in the embedded database in GATEWAY_DATA_DIR.',
  ],
  [
    'GATEWAY_DATA_DIR',
    './.gateway-data',
    'Folder of the embedded database (connections, audit log) when DATABASE_URL is not set; opened on first use.',
  ],
  [
    'GATEWAY_ENCRYPTION_KEY',
    '(none)',
    'AES-256-GCM key for connection secrets at rest: 32 bytes, base64 (openssl rand -base64 32). Required with DATABASE_URL; in embedded mode one is generated into the data dir with a warning.',
  ],
  [
    'GATEWAY_ENCRYPTION_KEYS',
    '(none)',
    'Older keys, comma-separated base64, that still decrypt rows sealed before a rotation (rows move to the current key when next written).',
  ],
  [
    'GATEWAY_TENANTS_MAX',
    '200',
    'Most tenants (besides "default") whose adapters are kept at once; the one used longest ago is dropped first. In memory mode each costs about 400 KiB (npm run bench:tenants) and a dropped tenant starts again from the demo data.',
  ],
  ['GATEWAY_TENANT_IDLE_SECONDS', '86400', 'A tenant unused this long is dropped (its memory-mode data with it).'],
  [
    'REDIS_URL',
    '(none)',
    'Redis for rate limits, idempotency keys and upstream tokens shared by several instances, e.g. redis://127.0.0.1:6379.',
  ],
];

/** Every environment variable the gateway reads, with its default and meaning (the README's table). */
export const ENVIRONMENT: readonly EnvironmentRow[] = [
  ...CORE_ENVIRONMENT,
  ...groupModules.flatMap((g) => g.environment),
];

type Env = Readonly<Record<string, string | undefined>>;

const ApiKeyCodec = t.intersection([
  t.type({ name: t.string, permissions: t.array(t.string) }),
  t.partial({ token: t.string, sha256: t.string, tenant: t.string }),
]);
const apiKeysVar = new EnvVar<ApiKeyConfig[]>(
  'apiKeys',
  'a JSON array of {"name": string, "sha256" (64 hex digits) or "token": string, "permissions": string[], "tenant"?: a tenant id}',
  (raw) => {
    if (raw === undefined) return { ok: true, value: [] };
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return { ok: false };
    }
    const decoded = t.array(ApiKeyCodec).decode(parsed);
    if (E.isLeft(decoded)) return { ok: false };
    const keys = decoded.right;
    const valid = keys.every(
      (k) =>
        ((k.token !== undefined && k.token.length >= 8) ||
          (k.sha256 !== undefined && /^[0-9a-fA-F]{64}$/.test(k.sha256))) &&
        (k.tenant === undefined || TENANT_ID.test(k.tenant)),
    );
    return valid ? { ok: true, value: keys } : { ok: false };
  },
);

const rateLimitGroupsVar = new EnvVar<Record<string, number>>(
  'rateGroups',
  'a JSON object of group name to calls per minute, e.g. {"skiptrace": 60}',
  (raw) => {
    if (raw === undefined) return { ok: true, value: {} };
    try {
      const parsed = JSON.parse(raw) as unknown;
      const ok =
        typeof parsed === 'object' &&
        parsed !== null &&
        !Array.isArray(parsed) &&
        Object.values(parsed).every((n) => typeof n === 'number' && Number.isInteger(n) && n > 0);
      return ok ? { ok: true, value: parsed as Record<string, number> } : { ok: false };
    } catch {
      return { ok: false };
    }
  },
);

const isKey = (raw: string): boolean => /^[A-Za-z0-9+/]{43}=$/.test(raw.trim());

/** The environment, variable by variable: the core's and every group's. */
const EnvCodec = t.type({
  PORT: intVar(0, 65535, 8787),
  HOST: optionalString,
  PUBLIC_BASE_URL: urlVar(),
  GATEWAY_DEMO_TOKEN: tokenVar,
  GATEWAY_API_KEYS: apiKeysVar,
  GATEWAY_DEMO_DATA: enumVar(['true', 'false'], 'true'),
  GATEWAY_MAX_BODY_BYTES: intVar(1024, 1_073_741_824, 1_048_576),
  GATEWAY_BODY_TIMEOUT_MS: intVar(100, 600_000, 10_000),
  UPSTREAM_TIMEOUT_MS: intVar(100, 600_000, 15_000),
  LOG_LEVEL: enumVar(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  GATEWAY_REQUEST_TIMEOUT_MS: intVar(100, 3_600_000, 30_000),
  DOCUMENT_READERS: intVar(0, 64, 0),
  DOCUMENT_READ_QUEUE: intVar(0, 10_000, 16),
  DOCUMENT_READ_TIMEOUT_MS: intVar(100, 600_000, 20_000),
  DOCUMENT_READ_MEMORY_MB: intVar(64, 16_384, 512),
  GATEWAY_OUTPUT_BUDGET_CHARS: intVar(500, 10_000_000, DEFAULT_OUTPUT_BUDGET),
  GATEWAY_SHUTDOWN_GRACE_MS: intVar(0, 600_000, 10_000),
  GATEWAY_SIMULATED_LATENCY_MS: intVar(0, 600_000, 0),
  METRICS_TOKEN: tokenVar,
  JWT_SECRET: new EnvVar<string | undefined>('secret', 'a secret of at least 32 characters', (raw) =>
    raw === undefined || raw.length >= 32 ? { ok: true, value: raw } : { ok: false },
  ),
  JWT_JWKS_URL: urlVar(),
  JWT_ISSUER: optionalString,
  JWT_AUDIENCE: optionalString,
  JWT_TENANT_CLAIM: new EnvVar<string>(
    'claim',
    'a JWT claim name (letters, digits, "_", ".", ":", "/" or "-")',
    (raw) =>
      raw === undefined
        ? { ok: true, value: 'tenant' }
        : /^[A-Za-z0-9_.:/-]{1,100}$/.test(raw)
          ? { ok: true, value: raw }
          : { ok: false },
  ),
  JWT_MAX_LIFETIME_SECONDS: intVar(60, 366 * 86_400, 86_400),
  GATEWAY_CONFIRM_DESTRUCTIVE: enumVar(['true', 'false'], 'false'),
  GATEWAY_CONFIRM_SECRET: new EnvVar<string | undefined>('secret', 'a secret of at least 32 characters', (raw) =>
    raw === undefined || raw.length >= 32 ? { ok: true, value: raw } : { ok: false },
  ),
  RATE_LIMIT_PER_MINUTE: intVar(1, 1_000_000, 600),
  RATE_LIMIT_GROUPS: rateLimitGroupsVar,
  RATE_LIMIT_FILE_LINK_PER_MINUTE: intVar(1, 1_000_000, 120),
  RATE_LIMIT_FILE_TENANT_PER_MINUTE: intVar(1, 10_000_000, 1200),
  IDEMPOTENCY_TTL_SECONDS: intVar(60, 30 * 86_400, 86_400),
  GATEWAY_TENANTS_MAX: intVar(1, 1_000_000, 200),
  UPSTREAM_RETRY_MAX_ATTEMPTS: intVar(1, 10, 3),
  UPSTREAM_BREAKER_FAILURES: intVar(1, 100_000, 5),
  UPSTREAM_BREAKER_HALF_OPEN_MS: intVar(100, 3_600_000, 30_000),
  UPSTREAM_QUOTA_RESERVE: intVar(0, 100_000, 10),
  DATABASE_URL: new EnvVar<string | undefined>('database', 'a postgres:// or postgresql:// URL', (raw) =>
    raw === undefined || /^postgres(ql)?:\/\/\S+$/.test(raw) ? { ok: true, value: raw } : { ok: false },
  ),
  GATEWAY_DATA_DIR: new EnvVar<string>('dir', 'a folder path', (raw) =>
    raw === undefined ? { ok: true, value: './.gateway-data' } : raw.trim() ? { ok: true, value: raw } : { ok: false },
  ),
  GATEWAY_ENCRYPTION_KEY: new EnvVar<string | undefined>(
    'key',
    '32 bytes in base64 (openssl rand -base64 32)',
    (raw) => (raw === undefined || isKey(raw) ? { ok: true, value: raw } : { ok: false }),
  ),
  GATEWAY_ENCRYPTION_KEYS: new EnvVar<string[]>('keys', 'comma-separated keys of 32 bytes in base64', (raw) => {
    const keys = (raw ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    return keys.every(isKey) ? { ok: true, value: keys } : { ok: false };
  }),
  GATEWAY_TENANT_IDLE_SECONDS: intVar(60, 365 * 86_400, 86_400),
  REDIS_URL: new EnvVar<string | undefined>('redis', 'a redis:// or rediss:// URL', (raw) =>
    raw === undefined || /^rediss?:\/\//.test(raw) ? { ok: true, value: raw } : { ok: false },
  ),
  ...Object.assign({}, ...groupModules.map((g) => g.env)),
});

/**
 * Reads the configuration from environment variables with io-ts. Every problem is reported at once,
 * each naming its variable (secret values are never echoed), so a bad deployment stops at start-up
 * with a message an operator can act on.
 */
export const loadConfig = (env: Env = process.env): Either<string[], GatewayConfig> => {
  const input = Object.fromEntries(Object.keys(EnvCodec.props).map((k) => [k, env[k]]));
  const decoded = EnvCodec.decode(input);
  if (E.isLeft(decoded)) {
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const e of decoded.left) {
      const name = e.context[1]?.key ?? '?';
      if (seen.has(name)) continue;
      seen.add(name);
      problems.push(
        `${name} must be ${e.message ?? 'valid'}${SECRET_VARIABLE.test(name) ? '' : `; got "${env[name]}"`}.`,
      );
    }
    return E.left(problems);
  }
  const v = decoded.right as Record<string, unknown>;
  const problems: string[] = [];
  const groups = Object.fromEntries(groupModules.map((g) => [g.name, g.configure(v, problems)]));
  if (v['DATABASE_URL'] && !v['GATEWAY_ENCRYPTION_KEY'])
    problems.push(
      'GATEWAY_ENCRYPTION_KEY is required with DATABASE_URL: connection secrets are encrypted with it (openssl rand -base64 32).',
    );
  if (problems.length) return E.left(problems);

  return E.right({
    port: v['PORT'] as number,
    host: (v['HOST'] as string | undefined) ?? '127.0.0.1',
    publicBaseUrl: v['PUBLIC_BASE_URL'] as string | undefined,
    demoToken: v['GATEWAY_DEMO_TOKEN'] as string | undefined,
    apiKeys: v['GATEWAY_API_KEYS'] as ApiKeyConfig[],
    demoData: v['GATEWAY_DEMO_DATA'] === 'true',
    upstreamTimeoutMs: v['UPSTREAM_TIMEOUT_MS'] as number,
    maxBodyBytes: v['GATEWAY_MAX_BODY_BYTES'] as number,
    bodyTimeoutMs: v['GATEWAY_BODY_TIMEOUT_MS'] as number,
    logLevel: v['LOG_LEVEL'] as string,
    requestTimeoutMs: v['GATEWAY_REQUEST_TIMEOUT_MS'] as number,
    outputBudgetChars: v['GATEWAY_OUTPUT_BUDGET_CHARS'] as number,
    documents: {
      ...((v['DOCUMENT_READERS'] as number) > 0 ? { threads: v['DOCUMENT_READERS'] as number } : {}),
      queue: v['DOCUMENT_READ_QUEUE'] as number,
      maxTaskMs: v['DOCUMENT_READ_TIMEOUT_MS'] as number,
      heapMb: v['DOCUMENT_READ_MEMORY_MB'] as number,
    },
    confirmDestructive: v['GATEWAY_CONFIRM_DESTRUCTIVE'] === 'true',
    confirmSecret: v['GATEWAY_CONFIRM_SECRET'] as string | undefined,
    shutdownGraceMs: v['GATEWAY_SHUTDOWN_GRACE_MS'] as number,
    simulatedLatencyMs: v['GATEWAY_SIMULATED_LATENCY_MS'] as number,
    metricsToken: v['METRICS_TOKEN'] as string | undefined,
    jwt:
      v['JWT_SECRET'] || v['JWT_JWKS_URL']
        ? {
            secret: v['JWT_SECRET'] as string | undefined,
            jwksUrl: v['JWT_JWKS_URL'] as string | undefined,
            issuer: v['JWT_ISSUER'] as string | undefined,
            audience: v['JWT_AUDIENCE'] as string | undefined,
            tenantClaim: v['JWT_TENANT_CLAIM'] as string,
            maxLifetimeSeconds: v['JWT_MAX_LIFETIME_SECONDS'] as number,
          }
        : undefined,
    rateLimits: {
      perMinute: v['RATE_LIMIT_PER_MINUTE'] as number,
      // web_fetch and web_search reach arbitrary sites: their own, lower default (60 a minute).
      perGroup: {
        web: Math.min(60, v['RATE_LIMIT_PER_MINUTE'] as number),
        ...(v['RATE_LIMIT_GROUPS'] as Record<string, number>),
      },
    },
    fileTransfers: {
      perLinkPerMinute: v['RATE_LIMIT_FILE_LINK_PER_MINUTE'] as number,
      perTenantPerMinute: v['RATE_LIMIT_FILE_TENANT_PER_MINUTE'] as number,
    },
    idempotencyTtlSeconds: v['IDEMPOTENCY_TTL_SECONDS'] as number,
    redisUrl: v['REDIS_URL'] as string | undefined,
    upstream: {
      maxAttempts: v['UPSTREAM_RETRY_MAX_ATTEMPTS'] as number,
      breakerFailures: v['UPSTREAM_BREAKER_FAILURES'] as number,
      halfOpenAfterMs: v['UPSTREAM_BREAKER_HALF_OPEN_MS'] as number,
      quotaReserve: v['UPSTREAM_QUOTA_RESERVE'] as number,
    },
    storage: {
      databaseUrl: v['DATABASE_URL'] as string | undefined,
      dataDir: v['GATEWAY_DATA_DIR'] as string,
      encryptionKey: v['GATEWAY_ENCRYPTION_KEY'] as string | undefined,
      oldEncryptionKeys: v['GATEWAY_ENCRYPTION_KEYS'] as string[],
    },
    tenantScopes: {
      max: v['GATEWAY_TENANTS_MAX'] as number,
      idleSeconds: v['GATEWAY_TENANT_IDLE_SECONDS'] as number,
    },
    groups,
  });
};

/** The variables EnvCodec reads, for the test that keeps ENVIRONMENT and the README complete. */
export const ENV_VARIABLES: readonly string[] = Object.keys(EnvCodec.props);
