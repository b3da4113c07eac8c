import * as t from 'io-ts';
import { DEFAULT_JSON_BUDGET, DEFAULT_OUTPUT_BUDGET } from '../application/runtime/envelope.js';
import { TENANT_ID } from '../ports/authenticator.js';
import { HUMAN_APPROVAL_MODES, type TenantSettingsOverride } from '../ports/tenant-settings.js';
import { isAddressOrRange } from '../adapters/inbound/oauth/limits.js';
import { boolVar, EnvVar, enumVar, intVar, jsonVar, optionalString, tokenVar, urlVar } from './env.js';

// The gateway's own environment variables (each group module declares its own), documented where they
// are decoded: docs/configuration.md is generated from these codecs.

/** One configured API key: a name, its permissions, and the token or (preferably) its SHA-256 hash. */
export interface ApiKeyConfig {
  readonly name: string;
  readonly permissions: readonly string[];
  readonly token?: string;
  readonly sha256?: string;
  /** The tenant the key acts for (default `default`). */
  readonly tenant?: string;
}

const ApiKeyCodec = t.intersection([
  t.type({ name: t.string, permissions: t.array(t.string) }),
  t.partial({ token: t.string, sha256: t.string, tenant: t.string }),
]);
export const apiKeysVar = jsonVar<ApiKeyConfig[]>(
  'apiKeys',
  'a JSON array of {"name": string, "sha256" (64 hex digits) or "token": string, "permissions": string[], "tenant"?: a tenant id}',
  t.array(ApiKeyCodec),
  [],
  (keys) =>
    keys.every(
      (k) =>
        ((k.token !== undefined && k.token.length >= 8) ||
          (k.sha256 !== undefined && /^[0-9a-fA-F]{64}$/.test(k.sha256))) &&
        (k.tenant === undefined || TENANT_ID.test(k.tenant)),
    ),
);

const rateLimitGroupsVar = jsonVar(
  'rateGroups',
  'a JSON object of group name to calls per minute, e.g. {"skiptrace": 60}',
  t.record(t.string, t.number),
  {},
  (groups) => !Array.isArray(groups) && Object.values(groups).every((n) => Number.isInteger(n) && n > 0),
);

const humanApprovalCodec = t.keyof({ off: null, when_possible: null, required: null });

const tenantSettingsVar = jsonVar<Record<string, TenantSettingsOverride>>(
  'tenantSettings',
  'a JSON object of tenant id to {"human_approval"?: "off" | "when_possible" | "required", "tool_search_above"?: a whole number, "skip_traces_per_day"?, "skip_traces_per_month"?, "tool_calls_per_day"?: whole numbers}',
  t.record(
    t.string,
    t.exact(
      t.partial({
        human_approval: humanApprovalCodec,
        tool_search_above: t.number,
        skip_traces_per_day: t.number,
        skip_traces_per_month: t.number,
        tool_calls_per_day: t.number,
      }),
    ),
  ),
  {},
  (settings) =>
    !Array.isArray(settings) &&
    Object.keys(settings).length <= 10_000 &&
    Object.entries(settings).every(
      ([tenant, o]) =>
        TENANT_ID.test(tenant) &&
        (o.tool_search_above === undefined || (Number.isInteger(o.tool_search_above) && o.tool_search_above >= 0)) &&
        [o.skip_traces_per_day, o.skip_traces_per_month, o.tool_calls_per_day].every(
          (n) => n === undefined || (Number.isInteger(n) && n >= 0),
        ),
    ),
);

const isKey = (raw: string): boolean => /^[A-Za-z0-9+/]{43}=$/.test(raw.trim());

/** A client registered in configuration (OAUTH_CLIENTS): oidc-provider's client metadata, the usual members. */
const OAuthClientCodec = t.intersection([
  t.type({ client_id: t.string, redirect_uris: t.array(t.string) }),
  t.partial({
    client_name: t.string,
    client_secret: t.string,
    token_endpoint_auth_method: t.keyof({ none: null, client_secret_basic: null, client_secret_post: null }),
    grant_types: t.array(t.string),
    application_type: t.keyof({ web: null, native: null }),
  }),
]);
export type OAuthClientConfig = t.TypeOf<typeof OAuthClientCodec>;

const oauthClientsVar = jsonVar(
  'oauthClients',
  'a JSON array of {"client_id": string, "redirect_uris": string[], "client_name"?, "client_secret"?, "token_endpoint_auth_method"?}',
  t.array(OAuthClientCodec),
  [],
);

const permissionsMapVar = jsonVar(
  'permissionsMap',
  'a JSON object of group or role name to a list of permissions, e.g. {"sales": ["crm:read", "crm:write"]}',
  t.record(t.string, t.array(t.string)),
  {},
  (map) => !Array.isArray(map),
);

const commaList = new EnvVar<string[]>('list', 'a comma-separated list', (raw) => ({
  ok: true,
  value: (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
}));

/** The core's variables, in the order the table lists them. */
export const CORE_ENV = {
  PORT: intVar(0, 65535, 8787).doc('TCP port of the HTTP server.'),
  HOST: optionalString.doc('Interface to listen on; 0.0.0.0 to accept outside connections (containers).', '127.0.0.1'),
  PUBLIC_BASE_URL: urlVar().doc(
    'Base URL printed at start and used in links the gateway hands out.',
    'http://HOST:PORT',
  ),
  GATEWAY_DEMO_TOKEN: tokenVar.doc(
    'Bearer token with every permission. When unset and no GATEWAY_API_KEYS are configured, a random one is made and printed at start.',
    'random, printed',
  ),
  GATEWAY_API_KEYS: apiKeysVar.doc(
    'JSON array of API keys: [{"name":"ci","sha256":"<hex of SHA-256 of the token>","permissions":["crm:read","crm:write"],"tenant":"acme"}]. "token" instead of "sha256" is accepted for local use; without "tenant" the key acts for the tenant "default".',
  ),
  GATEWAY_DEMO_DATA: boolVar(true).doc('Seed the in-memory backends with demo data.'),
  GATEWAY_MAX_BODY_BYTES: intVar(1024, 1_073_741_824, 1_048_576).doc(
    'Largest tool-call body accepted; larger ones get 413.',
  ),
  GATEWAY_BODY_TIMEOUT_MS: intVar(100, 600_000, 10_000).doc(
    'Longest a request body may take to arrive (an upload to the files data plane: longest it may go without a byte); past it the request gets 408 REQUEST_TIMEOUT and its connection is closed. Request headers have the same limit.',
  ),
  UPSTREAM_TIMEOUT_MS: intVar(100, 600_000, 15_000).doc('Time limit of one call to a vendor API.'),
  LOG_LEVEL: enumVar(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info').doc(
    'pino level: fatal, error, warn, info, debug, trace or silent.',
  ),
  GATEWAY_REQUEST_TIMEOUT_MS: intVar(100, 3_600_000, 30_000).doc(
    'Longest a tool call may run before the caller gets 504 TIMEOUT.',
  ),
  DOCUMENT_READERS: intVar(0, 64, 0).doc(
    'Worker threads that read untrusted documents (HTML, PDF, Word) for web_fetch and files_readFile; 0 means one per core.',
  ),
  DOCUMENT_READ_QUEUE: intVar(0, 10_000, 16).doc(
    'Documents that may wait for a reader; past that a call gets 503 UNAVAILABLE with retry_after_seconds at once.',
  ),
  DOCUMENT_READERS_PER_TENANT: intVar(0, 64, 0).doc(
    "Reader threads one tenant's documents may hold at once, so that one tenant's slow documents leave readers for the others; 0 means half of DOCUMENT_READERS (at least one).",
    'half the readers',
  ),
  DOCUMENT_READ_QUEUE_PER_TENANT: intVar(0, 10_000, 0).doc(
    "Documents one tenant may have waiting for a reader (waiting documents get readers in turn between tenants); past it that tenant's call gets 503 UNAVAILABLE with retry_after_seconds, naming its share. 0 means a quarter of DOCUMENT_READ_QUEUE (at least one).",
    'a quarter of the queue',
  ),
  DOCUMENT_READ_TIMEOUT_MS: intVar(100, 600_000, 20_000).doc(
    "Longest one document may take to read, from when a reader begins it (the call's own time limit ends it sooner); past it the reader is terminated and the call gets 422 DOCUMENT_TOO_COMPLEX.",
  ),
  DOCUMENT_READ_MEMORY_MB: intVar(64, 16_384, 512).doc(
    'Heap limit of each reader thread; the process may grow by 1.5 times this per document being read (buffers outside the heap included) before the read is ended with 422 DOCUMENT_TOO_COMPLEX.',
  ),
  GATEWAY_OUTPUT_BUDGET_CHARS: intVar(500, 10_000_000, DEFAULT_OUTPUT_BUDGET).doc(
    'Most characters in a text answer. A longer list is cut at a row, with the call that fetches the rest (and its structured answer, format=json or MCP structuredContent, to the same rows). The max_chars query parameter lowers it per call.',
  ),
  GATEWAY_JSON_BUDGET_CHARS: intVar(1000, 100_000_000, DEFAULT_JSON_BUDGET).doc(
    "Most characters in the JSON of a list answer (format=json, MCP structuredContent), which carries the rows its text shows; a list whose JSON would be longer is cut to fewer rows, text and JSON alike, with the call that fetches the rest. The default is 16 times the text's: a record's JSON is about 11 times its table row. The max_chars query parameter lowers it per call.",
  ),
  GATEWAY_SHUTDOWN_GRACE_MS: intVar(0, 600_000, 10_000).doc(
    'On SIGTERM or SIGINT, how long in-flight requests may take to finish before connections are closed.',
  ),
  GATEWAY_SIMULATED_LATENCY_MS: intVar(0, 600_000, 0).doc(
    'Adds this delay to every tool call: for demos and tests of the in-memory mode, never for production.',
  ),
  USAGE_TENANT_LABELS: intVar(0, 100_000, 100).doc(
    'How many tenants get a label of their own on the usage metrics (gateway_tenant_usage_*, gateway_tenant_vendor_calls_total, gateway_tenant_skiptrace_*); the rest are counted as "other". GET /v1/usage counts every tenant.',
  ),
  METRICS_TOKEN: tokenVar.doc(
    'When set, GET /metrics needs it as a bearer token; otherwise /metrics is open (keep it on an internal network).',
  ),
  JWT_SECRET: new EnvVar<string | undefined>('secret', 'a secret of at least 32 characters', (raw) =>
    raw === undefined || raw.length >= 32 ? { ok: true, value: raw } : { ok: false },
  ).doc('Shared secret: accept HS256 JWT access tokens signed with it.'),
  JWT_JWKS_URL: urlVar().doc(
    'JWKS address: accept RS256, ES256 and EdDSA JWTs signed by its keys (cached, refetched for an unknown kid).',
  ),
  JWT_ISSUER: optionalString.doc("When set, a JWT's iss must equal it."),
  JWT_AUDIENCE: optionalString.doc("When set, a JWT's aud must contain it."),
  JWT_TENANT_CLAIM: new EnvVar<string>(
    'claim',
    'a JWT claim name (letters, digits, "_", ".", ":", "/" or "-")',
    (raw) =>
      raw === undefined
        ? { ok: true, value: 'tenant' }
        : /^[A-Za-z0-9_.:/-]{1,100}$/.test(raw)
          ? { ok: true, value: raw }
          : { ok: false },
  ).doc('The JWT claim that names the caller\'s tenant; a token without it acts for the tenant "default".', 'tenant'),
  JWT_MAX_LIFETIME_SECONDS: intVar(60, 366 * 86_400, 86_400).doc(
    'Longest lifetime of a JWT accepted: a token whose exp is further than this from its iat (or, without iat, from now) is refused with 401.',
  ),
  GATEWAY_CONFIRM_DESTRUCTIVE: boolVar(false).doc(
    'true: a Destructive tool call without a valid confirm_token changes nothing and answers 428 CONFIRMATION_REQUIRED with a preview of what would go and a token (single use, 5 minutes). dry_run=true previews whatever the setting.',
  ),
  HUMAN_APPROVAL: enumVar(HUMAN_APPROVAL_MODES, 'when_possible').doc(
    'Who approves a Destructive call or a skip trace. when_possible: a person, through the MCP client (2026-07-28 input_required, or elicitation for a 2025-11-25 client that declares it), when the client can ask one; otherwise the confirm-token flow of GATEWAY_CONFIRM_DESTRUCTIVE, marked as confirmed by the model. required: a person must approve, and a client that cannot ask one is refused. off: nobody is asked. TENANT_SETTINGS overrides it per tenant.',
  ),
  APPROVALS_WAITING_PER_TENANT: intVar(1, 1000, 100).doc(
    "Approvals of 2025-era MCP clients (elicitation) one tenant's callers together may have waiting for a person at once on an instance, within the instance's 1,000 and each caller's 16; past it the call answers 503 UNAVAILABLE with retry_after_seconds, naming the workspace's share.",
  ),
  TOOL_SEARCH_ABOVE: intVar(0, 100_000, 0).doc(
    'tools/list gives the tool-search meta tools instead of the catalogue when the caller would see more tools than this; 0: only when the client asks (/mcp?discovery=search). TENANT_SETTINGS overrides it per tenant.',
  ),
  TENANT_SETTINGS: tenantSettingsVar.doc(
    'Per-tenant settings as JSON, e.g. {"acme": {"human_approval": "required", "tool_search_above": 20, "skip_traces_per_day": 500}}; a tenant not named uses HUMAN_APPROVAL and TOOL_SEARCH_ABOVE. skip_traces_per_day and skip_traces_per_month cap the tenant\'s skip traces a UTC day and month, tool_calls_per_day its tool calls a UTC day (429 past a quota, until midnight UTC or the first of the next month); none by default.',
  ),
  GATEWAY_CONFIRM_SECRET: new EnvVar<string | undefined>('secret', 'a secret of at least 32 characters', (raw) =>
    raw === undefined || raw.length >= 32 ? { ok: true, value: raw } : { ok: false },
  ).doc(
    'HMAC key of confirm tokens (at least 32 characters); set the same one on every instance behind a load balancer.',
    'random per instance',
  ),
  RATE_LIMIT_PER_MINUTE: intVar(1, 1_000_000, 600).doc('Tool calls per minute per principal and tool group.'),
  RATE_LIMIT_GROUPS: rateLimitGroupsVar.doc(
    'Per-group limits as JSON, e.g. {"skiptrace": 60}; other groups use RATE_LIMIT_PER_MINUTE, except web (60, or RATE_LIMIT_PER_MINUTE when lower).',
  ),
  RATE_LIMIT_FILE_LINK_PER_MINUTE: intVar(1, 1_000_000, 120).doc(
    'Requests per minute to one address of the files data plane (an upload, a download address, a share page); more get 429 with Retry-After.',
  ),
  RATE_LIMIT_FILE_TENANT_PER_MINUTE: intVar(1, 10_000_000, 1200).doc(
    "Requests per minute to one tenant's files data plane, all its addresses together.",
  ),
  IDEMPOTENCY_TTL_SECONDS: intVar(60, 30 * 86_400, 86_400).doc(
    'How long the outcome of a write with an Idempotency-Key is replayed.',
  ),
  IDEMPOTENCY_MEMORY_MAX_ENTRIES: intVar(100, 10_000_000, 100_000).doc(
    'Without REDIS_URL: most idempotency records held in the process (each tenant at most a tenth), about 0.8 KB of heap each for a typical write (npm run bench:soak); with IDEMPOTENCY_MEMORY_MAX_MB, the bound on their memory.',
  ),
  IDEMPOTENCY_MEMORY_MAX_MB: intVar(1, 4096, 64).doc(
    'Without REDIS_URL: most MiB of stored outcomes (their JSON size) the in-process idempotency records hold; the oldest go first.',
  ),
  GATEWAY_TENANTS_MAX: intVar(1, 1_000_000, 200).doc(
    'Most tenants (besides "default") whose adapters are kept at once; the one used longest ago is dropped first. In memory mode each costs about 400 KiB (npm run bench:tenants) and a dropped tenant starts again from the demo data.',
  ),
  UPSTREAM_RETRY_MAX_ATTEMPTS: intVar(1, 10, 3).doc(
    'Attempts per vendor read (and idempotent call) on 429, 5xx and connection errors, with jittered back-off and Retry-After, within 3/4 of GATEWAY_REQUEST_TIMEOUT_MS. Writes that may have reached the vendor are never retried. 1 turns retries off.',
  ),
  UPSTREAM_BREAKER_FAILURES: intVar(1, 100_000, 5).doc(
    "Consecutive 5xx or connection failures that open a vendor client's circuit breaker: calls then answer at once with UPSTREAM_ERROR (retryable, retry_after_seconds).",
  ),
  UPSTREAM_BREAKER_HALF_OPEN_MS: intVar(100, 3_600_000, 30_000).doc(
    'How long an open breaker answers at once before one probe call goes through.',
  ),
  UPSTREAM_QUOTA_RESERVE: intVar(0, 100_000, 10).doc(
    "Calls of a connection's Podio hourly or HubSpot daily quota left unused: at this many, calls are refused early with RATE_LIMITED and the wait (0 turns it off).",
  ),
  DATABASE_URL: new EnvVar<string | undefined>('database', 'a postgres:// or postgresql:// URL', (raw) =>
    raw === undefined || /^postgres(ql)?:\/\/\S+$/.test(raw) ? { ok: true, value: raw } : { ok: false },
  ).doc(
    'PostgreSQL (postgres://user@host:5432/db) for connections and the audit log; migrations run at first use. Without it they live in the embedded database in GATEWAY_DATA_DIR.',
  ),
  GATEWAY_DATA_DIR: new EnvVar<string>('dir', 'a folder path', (raw) =>
    raw === undefined ? { ok: true, value: './.gateway-data' } : raw.trim() ? { ok: true, value: raw } : { ok: false },
  ).doc(
    'Folder of the embedded database (connections, audit log) when DATABASE_URL is not set; opened on first use.',
    './.gateway-data',
  ),
  GATEWAY_AUDIT_SPOOL_MB: intVar(1, 10_000, 64).doc(
    "While the audit log's database is away, audit rows are kept in a file in GATEWAY_DATA_DIR and written to the database when it is back; past this size writes are refused (503) until then.",
  ),
  GATEWAY_ENCRYPTION_KEY: new EnvVar<string | undefined>(
    'key',
    '32 bytes in base64 (openssl rand -base64 32)',
    (raw) => (raw === undefined || isKey(raw) ? { ok: true, value: raw } : { ok: false }),
  ).doc(
    'AES-256-GCM key for connection secrets at rest: 32 bytes, base64 (openssl rand -base64 32). Required with DATABASE_URL; in embedded mode one is generated into the data dir with a warning.',
  ),
  GATEWAY_ENCRYPTION_KEYS: new EnvVar<string[]>('keys', 'comma-separated keys of 32 bytes in base64', (raw) => {
    const keys = (raw ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    return keys.every(isKey) ? { ok: true, value: keys } : { ok: false };
  }).doc(
    'Older keys, comma-separated base64, that still decrypt rows sealed before a rotation (rows move to the current key when next written).',
  ),
  GATEWAY_TENANT_IDLE_SECONDS: intVar(60, 365 * 86_400, 86_400).doc(
    'A tenant unused this long is dropped (its memory-mode data with it).',
  ),
  OAUTH_SERVER: boolVar(true).doc(
    "Serve the gateway's own OAuth 2.1 authorization server (sign-in with an API key, consent, tokens for /mcp), so that OAuth-only clients (Claude, ChatGPT connectors) connect without a pasted token. false when JWT_ISSUER names an external one the protected resource metadata should point to. Needs PUBLIC_BASE_URL without a path.",
  ),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: intVar(60, 86_400, 600).doc(
    'Lifetime of an access token the authorization server issues.',
  ),
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: intVar(300, 365 * 86_400, 2_592_000).doc(
    'Lifetime of a refresh token, renewed by each rotation (a replayed one revokes its whole family).',
  ),
  OAUTH_DYNAMIC_REGISTRATION: boolVar(true).doc('Open dynamic client registration (RFC 7591) at /register.'),
  OAUTH_REGISTRATIONS_PER_HOUR: intVar(1, 1_000_000, 20).doc(
    'Client registrations (/register) accepted from one address an hour; past it 429 with Retry-After.',
  ),
  OAUTH_TOKEN_REQUESTS_PER_MINUTE: intVar(1, 1_000_000, 120).doc(
    'Token requests (/token) accepted from one address, and for one client, a minute; past it 429 with Retry-After.',
  ),
  OAUTH_SIGN_IN_FAILURES_PER_MINUTE: intVar(1, 1_000, 5).doc(
    'Wrong keys typed in the sign-in form from one address (or in one sign-in) a minute; past it every attempt, a right key too, is refused (429) until the minute lets one more through.',
  ),
  OAUTH_SIGN_IN_FAILURES_PER_HOUR: intVar(1, 100_000, 20).doc(
    'Wrong keys from one address an hour; past it the form is refused (429) to that address until the hour lets one more through.',
  ),
  OAUTH_TRUSTED_PROXIES: new EnvVar<string[]>(
    'proxies',
    'a comma-separated list of IP addresses or CIDR ranges (10.0.0.0/8, ::1)',
    (raw) => {
      const entries = (raw ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return entries.every(isAddressOrRange) ? { ok: true, value: entries } : { ok: false };
    },
  ).doc(
    "The reverse proxies in front of the gateway (haproxy, an ingress): for a request from one of them the authorization server's limits count the address its X-Forwarded-For names. Unset: the socket's address (behind a proxy every caller then shares the proxy's limits).",
  ),
  OAUTH_UNUSED_CLIENT_TTL_SECONDS: intVar(60, 30 * 86_400, 86_400).doc(
    'A dynamically registered client no grant was made for is deleted after this long; its first grant keeps it.',
  ),
  OAUTH_MAX_UNUSED_CLIENTS: intVar(1, 10_000_000, 10_000).doc(
    'At most this many registered clients without a grant are kept; past it the oldest are deleted.',
  ),
  OAUTH_CLIENT_ID_METADATA_DOCUMENTS: boolVar(true).doc(
    'Accept a URL as client_id (Client ID Metadata Documents), fetched through the URL guard (public addresses only).',
  ),
  OAUTH_CLIENTS: oauthClientsVar.doc(
    'Pre-registered OAuth clients as JSON: [{"client_id":"ops-console","redirect_uris":["https://ops.example/cb"],"client_name":"Ops console"}]; without client_secret a client is public (PKCE only).',
  ),
  OIDC_ISSUER: urlVar().doc(
    'An OpenID Connect provider (Okta, Entra ID, Google, Keycloak) people may sign in with on the authorization server\'s page ("Sign in with OIDC_NAME"), beside the API key form: its issuer URL. Register {PUBLIC_BASE_URL}/oauth/oidc/callback as the redirect URI there.',
  ),
  OIDC_CLIENT_ID: optionalString.doc("The gateway's client id at the OpenID provider (required with OIDC_ISSUER)."),
  OIDC_CLIENT_SECRET: optionalString.doc('Its client secret; without one the client is public (PKCE only).'),
  OIDC_NAME: optionalString.doc('The name on the button, "Sign in with {name}".', "the issuer's host"),
  OIDC_SCOPES: optionalString.doc('The scopes asked of the provider.', 'openid profile email'),
  OIDC_TENANT_CLAIM: optionalString.doc("The ID token claim naming the person's gateway tenant.", 'tenant'),
  OIDC_TENANT: optionalString.doc('One fixed tenant for everyone the provider signs in (instead of the claim).'),
  OIDC_PERMISSIONS_CLAIM: optionalString.doc(
    "The ID token claim listing the person's gateway permissions, or (with OIDC_PERMISSIONS_MAP) groups or roles.",
    'gateway_permissions',
  ),
  OIDC_PERMISSIONS_MAP: permissionsMapVar.doc(
    'Group or role names to permissions, as JSON: {"sales": ["crm:read", "crm:write"]}; values not listed give none.',
  ),
  OIDC_DEFAULT_PERMISSIONS: commaList.doc('Permissions when the claim is absent (comma-separated).'),
  REDIS_URL: new EnvVar<string | undefined>('redis', 'a redis:// or rediss:// URL', (raw) =>
    raw === undefined || /^rediss?:\/\//.test(raw) ? { ok: true, value: raw } : { ok: false },
  ).doc(
    'Redis for rate limits, idempotency keys and upstream tokens shared by several instances, e.g. redis://127.0.0.1:6379.',
  ),
  REDIS_KEY_PREFIX: new EnvVar<string>('prefix', 'up to 64 letters, digits and _ . : - { }', (raw) =>
    raw === undefined
      ? { ok: true, value: '' }
      : /^[A-Za-z0-9_.:{}-]{1,64}$/.test(raw)
        ? { ok: true, value: raw }
        : { ok: false },
  ).doc(
    "Put before every key the gateway writes to Redis (e.g. prod:), so that several gateways, or staging and production, share one Redis without seeing each other's rate limits, idempotency records, tokens, marks or caches. Empty: the keys keep the names of earlier versions (tg:rl:, tg:idem:, tg:tok:, tg:once:, cache:); setting or changing it on a running fleet starts those afresh (docs/operations.md).",
    '(empty)',
  ),
};
