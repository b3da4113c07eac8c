import * as t from 'io-ts';
import { E, type Either } from '../domain/shared/fp.js';

/** One configured API key: a name, its permissions, and the token or (preferably) its SHA-256 hash. */
export interface ApiKeyConfig {
  readonly name: string;
  readonly permissions: readonly string[];
  readonly token?: string;
  readonly sha256?: string;
}

export type CrmBackend =
  | { readonly kind: 'memory' }
  | {
      readonly kind: 'hubspot';
      readonly baseUrl: string;
      readonly objectsPath: string;
      readonly portalId?: string;
      readonly auth:
        | { readonly kind: 'private-app'; readonly accessToken: string }
        | { readonly kind: 'oauth'; readonly clientId: string; readonly clientSecret: string; readonly refreshToken: string };
    };

export type SkipTraceBackend = { readonly kind: 'memory' } | { readonly kind: 'batchdata'; readonly baseUrl: string; readonly apiToken: string };

export interface GatewayConfig {
  readonly port: number;
  readonly host: string;
  readonly publicBaseUrl?: string;
  readonly demoToken?: string;
  readonly apiKeys: readonly ApiKeyConfig[];
  readonly demoData: boolean;
  readonly upstreamTimeoutMs: number;
  readonly maxBodyBytes: number;
  readonly logLevel: string;
  readonly crm: CrmBackend;
  readonly skiptrace: SkipTraceBackend;
}

/** Every environment variable the gateway reads, with its default and meaning (the README's table comes from here). */
export const ENVIRONMENT = [
  ['PORT', '8787', 'TCP port of the HTTP server.'],
  ['HOST', '127.0.0.1', 'Interface to listen on; 0.0.0.0 to accept outside connections (containers).'],
  ['PUBLIC_BASE_URL', 'http://HOST:PORT', 'Base URL printed at start and used in links the gateway hands out.'],
  ['GATEWAY_DEMO_TOKEN', 'random, printed', 'Bearer token with every permission. When unset and no GATEWAY_API_KEYS are configured, a random one is made and printed at start.'],
  ['GATEWAY_API_KEYS', '(none)', 'JSON array of API keys: [{"name":"ci","sha256":"<hex of SHA-256 of the token>","permissions":["crm:read","crm:write"]}]. "token" instead of "sha256" is accepted for local use.'],
  ['GATEWAY_DEMO_DATA', 'true', 'Seed the in-memory backends with demo contacts and properties.'],
  ['GATEWAY_MAX_BODY_BYTES', '1048576', 'Largest tool-call body accepted; larger ones get 413.'],
  ['UPSTREAM_TIMEOUT_MS', '15000', 'Time limit of one call to a vendor API.'],
  ['LOG_LEVEL', 'info', 'pino level: fatal, error, warn, info, debug, trace or silent.'],
  ['CRM_BACKEND', 'memory', 'crm tools: memory or hubspot.'],
  ['HUBSPOT_ACCESS_TOKEN', '(none)', 'HubSpot private-app (static) token. Or use the three OAuth variables below.'],
  ['HUBSPOT_CLIENT_ID', '(none)', 'HubSpot OAuth app client id (with HUBSPOT_CLIENT_SECRET and HUBSPOT_REFRESH_TOKEN).'],
  ['HUBSPOT_CLIENT_SECRET', '(none)', 'HubSpot OAuth app client secret.'],
  ['HUBSPOT_REFRESH_TOKEN', '(none)', 'HubSpot OAuth refresh token; access tokens are refreshed before they expire.'],
  ['HUBSPOT_BASE_URL', 'https://api.hubapi.com', 'HubSpot API base URL.'],
  ['HUBSPOT_API_VERSION', 'v3', 'v3 (/crm/v3/objects) or a date version such as 2026-03 (/crm/objects/2026-03).'],
  ['HUBSPOT_PORTAL_ID', '(none)', 'HubSpot account id, used to build contact web links when HubSpot returns none.'],
  ['SKIPTRACE_BACKEND', 'memory', 'skiptrace tools: memory or batchdata.'],
  ['BATCHDATA_API_TOKEN', '(none)', 'BatchData API token (required with SKIPTRACE_BACKEND=batchdata).'],
  ['BATCHDATA_BASE_URL', 'https://api.batchdata.com', 'BatchData API base URL.'],
] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** A codec for one environment variable: decodes the raw string (or its absence) and says what it expects. */
class EnvVar<A> extends t.Type<A, string | undefined, unknown> {
  constructor(
    name: string,
    readonly expected: string,
    parse: (raw: string | undefined) => { ok: true; value: A } | { ok: false },
  ) {
    super(
      name,
      (u): u is A => true,
      (u, c) => {
        const raw = typeof u === 'string' && u.trim() !== '' ? u.trim() : undefined;
        const r = parse(raw);
        return r.ok ? t.success(r.value) : t.failure(u, c, expected);
      },
      () => undefined,
    );
  }
}

const optionalString = new EnvVar<string | undefined>('string', 'a string', (raw) => ({ ok: true, value: raw }));
const intVar = (min: number, max: number, fallback: number) =>
  new EnvVar<number>('int', `a whole number from ${min} to ${max}`, (raw) => {
    if (raw === undefined) return { ok: true, value: fallback };
    const n = Number(raw);
    return /^\d+$/.test(raw) && n >= min && n <= max ? { ok: true, value: n } : { ok: false };
  });
const enumVar = <V extends string>(values: readonly V[], fallback: V) =>
  new EnvVar<V>('enum', `one of ${values.join(', ')}`, (raw) =>
    raw === undefined ? { ok: true, value: fallback } : (values as readonly string[]).includes(raw) ? { ok: true, value: raw as V } : { ok: false },
  );
const urlVar = (fallback?: string) =>
  new EnvVar<string | undefined>('url', 'an http(s) URL', (raw) => {
    if (raw === undefined) return { ok: true, value: fallback };
    try {
      const u = new URL(raw);
      return u.protocol === 'http:' || u.protocol === 'https:' ? { ok: true, value: raw.replace(/\/+$/, '') } : { ok: false };
    } catch {
      return { ok: false };
    }
  });
const tokenVar = new EnvVar<string | undefined>('token', 'a token of at least 8 characters', (raw) =>
  raw === undefined || raw.length >= 8 ? { ok: true, value: raw } : { ok: false },
);
const hubspotVersionVar = new EnvVar<string>('version', 'v3 or a date version such as 2026-03', (raw) =>
  raw === undefined ? { ok: true, value: 'v3' } : raw === 'v3' || /^\d{4}-\d{2}$/.test(raw) ? { ok: true, value: raw } : { ok: false },
);

const ApiKeyCodec = t.intersection([t.type({ name: t.string, permissions: t.array(t.string) }), t.partial({ token: t.string, sha256: t.string })]);
const apiKeysVar = new EnvVar<ApiKeyConfig[]>(
  'apiKeys',
  'a JSON array of {"name": string, "sha256" (64 hex digits) or "token": string, "permissions": string[]}',
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
    const valid = keys.every((k) => (k.token !== undefined && k.token.length >= 8) || (k.sha256 !== undefined && /^[0-9a-fA-F]{64}$/.test(k.sha256)));
    return valid ? { ok: true, value: keys } : { ok: false };
  },
);

/** The environment, variable by variable. */
const EnvCodec = t.type({
  PORT: intVar(0, 65535, 8787),
  HOST: optionalString,
  PUBLIC_BASE_URL: urlVar(),
  GATEWAY_DEMO_TOKEN: tokenVar,
  GATEWAY_API_KEYS: apiKeysVar,
  GATEWAY_DEMO_DATA: enumVar(['true', 'false'], 'true'),
  GATEWAY_MAX_BODY_BYTES: intVar(1024, 1_073_741_824, 1_048_576),
  UPSTREAM_TIMEOUT_MS: intVar(100, 600_000, 15_000),
  LOG_LEVEL: enumVar(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  CRM_BACKEND: enumVar(['memory', 'hubspot'], 'memory'),
  HUBSPOT_ACCESS_TOKEN: optionalString,
  HUBSPOT_CLIENT_ID: optionalString,
  HUBSPOT_CLIENT_SECRET: optionalString,
  HUBSPOT_REFRESH_TOKEN: optionalString,
  HUBSPOT_BASE_URL: urlVar('https://api.hubapi.com'),
  HUBSPOT_API_VERSION: hubspotVersionVar,
  HUBSPOT_PORTAL_ID: optionalString,
  SKIPTRACE_BACKEND: enumVar(['memory', 'batchdata'], 'memory'),
  BATCHDATA_API_TOKEN: optionalString,
  BATCHDATA_BASE_URL: urlVar('https://api.batchdata.com'),
});

const SECRET = /TOKEN|SECRET|KEYS/;

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
      const raw = env[name];
      problems.push(`${name} must be ${e.message ?? 'valid'}${SECRET.test(name) ? '' : `; got "${raw}"`}.`);
    }
    return E.left(problems);
  }
  const v = decoded.right;
  const problems: string[] = [];
  const required = (name: keyof typeof v, because: string): string => {
    const value = v[name];
    if (typeof value !== 'string' || value === '') problems.push(`${name} is required ${because}.`);
    return typeof value === 'string' ? value : '';
  };

  let crm: CrmBackend = { kind: 'memory' };
  if (v.CRM_BACKEND === 'hubspot') {
    const because = 'when CRM_BACKEND=hubspot and HUBSPOT_ACCESS_TOKEN is not set';
    crm = {
      kind: 'hubspot',
      baseUrl: v.HUBSPOT_BASE_URL!,
      objectsPath: v.HUBSPOT_API_VERSION === 'v3' ? '/crm/v3/objects' : `/crm/objects/${v.HUBSPOT_API_VERSION}`,
      portalId: v.HUBSPOT_PORTAL_ID,
      auth: v.HUBSPOT_ACCESS_TOKEN
        ? { kind: 'private-app', accessToken: v.HUBSPOT_ACCESS_TOKEN }
        : {
            kind: 'oauth',
            clientId: required('HUBSPOT_CLIENT_ID', because),
            clientSecret: required('HUBSPOT_CLIENT_SECRET', because),
            refreshToken: required('HUBSPOT_REFRESH_TOKEN', because),
          },
    };
  }
  let skiptrace: SkipTraceBackend = { kind: 'memory' };
  if (v.SKIPTRACE_BACKEND === 'batchdata') {
    skiptrace = { kind: 'batchdata', baseUrl: v.BATCHDATA_BASE_URL!, apiToken: required('BATCHDATA_API_TOKEN', 'when SKIPTRACE_BACKEND=batchdata') };
  }
  if (problems.length) return E.left(problems);

  return E.right({
    port: v.PORT,
    host: v.HOST ?? '127.0.0.1',
    publicBaseUrl: v.PUBLIC_BASE_URL,
    demoToken: v.GATEWAY_DEMO_TOKEN,
    apiKeys: v.GATEWAY_API_KEYS,
    demoData: v.GATEWAY_DEMO_DATA === 'true',
    upstreamTimeoutMs: v.UPSTREAM_TIMEOUT_MS,
    maxBodyBytes: v.GATEWAY_MAX_BODY_BYTES,
    logLevel: v.LOG_LEVEL,
    crm,
    skiptrace,
  });
};

/** The variables EnvCodec reads, for the test that keeps ENVIRONMENT and the README complete. */
export const ENV_VARIABLES: readonly string[] = Object.keys(EnvCodec.props);
