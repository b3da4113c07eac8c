import { GuardedWebReader } from '../../adapters/outbound/web/guarded-web-reader.js';
import { DemoWebReader, DemoWebSearch } from '../../adapters/outbound/web/demo-web.js';
import { BraveSearch, SearxngSearch } from '../../adapters/outbound/web/search-backends.js';
import { UrlFetchGuard } from '../../adapters/outbound/http/url-fetch-guard.js';
import { TENANT_ID } from '../../ports/authenticator.js';
import { SharedCache } from '../../ports/shared-cache.js';
import { WebReader, WebSearch } from '../../ports/web.js';
import { VERSION } from '../version.js';
import { boolVar, enumVar, EnvVar, intVar, optionalString, urlVar } from '../env.js';
import { bindOnce, defineGroup } from '../group-module.js';

export type WebConfig = {
  readonly search:
    | { readonly kind: 'memory' }
    | { readonly kind: 'searxng'; readonly url: string }
    | { readonly kind: 'brave'; readonly url: string; readonly apiKey: string };
  readonly allowPrivate: boolean;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly allowHosts: readonly string[];
  readonly denyHosts: readonly string[];
  readonly tenantHosts: TenantHosts;
  readonly respectRobots: boolean;
};

type TenantHosts = Readonly<Record<string, { readonly allow?: readonly string[]; readonly deny?: readonly string[] }>>;

const HOST = /^(\*\.)?[a-z0-9.-]{1,253}$/;

/** `{"acme": {"allow": ["acme.example"], "deny": ["ads.example"]}}`: each tenant's own host lists. */
const tenantHostsVar = new EnvVar<TenantHosts>(
  'tenantHosts',
  'a JSON object of tenant id to {"allow": [hosts], "deny": [hosts]}',
  (raw) => {
    if (raw === undefined || raw.trim() === '') return { ok: true, value: {} };
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false };
      const out: Record<string, { allow?: string[]; deny?: string[] }> = {};
      for (const [tenant, lists] of Object.entries(parsed as Record<string, unknown>)) {
        if (!TENANT_ID.test(tenant) || typeof lists !== 'object' || lists === null) return { ok: false };
        const entry: { allow?: string[]; deny?: string[] } = {};
        for (const kind of ['allow', 'deny'] as const) {
          const list = (lists as Record<string, unknown>)[kind];
          if (list === undefined) continue;
          if (!Array.isArray(list) || list.length > 1000) return { ok: false };
          const hosts = list.map((h) => String(h).trim().toLowerCase());
          if (!hosts.every((h) => HOST.test(h))) return { ok: false };
          entry[kind] = hosts;
        }
        out[tenant] = entry;
      }
      return { ok: true, value: out };
    } catch {
      return { ok: false };
    }
  },
);

/** A comma-separated list of host patterns (`example.com`, `*.example.com`). */
const hostList = new EnvVar<readonly string[]>('hosts', 'comma-separated host names or *.suffix patterns', (raw) => {
  if (raw === undefined || raw.trim() === '') return { ok: true, value: [] };
  const hosts = raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return hosts.every((h) => /^(\*\.)?[a-z0-9.-]{1,253}$/.test(h)) ? { ok: true, value: hosts } : { ok: false };
});

export const webGroup = defineGroup({
  name: 'web',
  tenantScoped: false,
  env: {
    WEB_SEARCH_BACKEND: enumVar(['memory', 'searxng', 'brave'], 'memory').doc(
      'web_search: memory (a built-in demo index), searxng or brave.',
    ),
    WEB_SEARCH_URL: urlVar().doc(
      'Base URL of the SearXNG instance (required with WEB_SEARCH_BACKEND=searxng; its JSON format must be enabled).',
    ),
    BRAVE_SEARCH_API_KEY: optionalString.doc(
      'Brave Search API subscription token (required with WEB_SEARCH_BACKEND=brave).',
    ),
    BRAVE_SEARCH_URL: urlVar('https://api.search.brave.com').doc('Brave Search API base URL.'),
    WEB_FETCH_ALLOW_PRIVATE: boolVar(false).doc(
      'true lets web_fetch read loopback, private and link-local addresses (tests and intranets only).',
    ),
    WEB_FETCH_MAX_BYTES: intVar(1024, 104_857_600, 5_242_880).doc(
      'Largest page or document web_fetch downloads (5 MB).',
    ),
    WEB_FETCH_TIMEOUT_MS: intVar(100, 300_000, 15_000).doc('Time limit of one web_fetch download, redirects included.'),
    WEB_FETCH_ALLOW_HOSTS: hostList.doc(
      'When set, web_fetch reads only these hosts (comma-separated; example.com also allows its subdomains).',
    ),
    WEB_FETCH_DENY_HOSTS: hostList.doc('Hosts web_fetch never reads (comma-separated; checked before the allow list).'),
    WEB_FETCH_TENANT_HOSTS: tenantHostsVar.doc(
      'Per-tenant host lists as JSON: {"acme": {"allow": ["acme.example"], "deny": ["ads.example"]}}; a tenant\'s deny list adds to WEB_FETCH_DENY_HOSTS, its allow list replaces WEB_FETCH_ALLOW_HOSTS.',
    ),
    WEB_FETCH_RESPECT_ROBOTS: boolVar(true).doc(
      'false ignores robots.txt (it is read once an hour per site and honoured by default).',
    ),
  },
  configure: (v, problems): WebConfig => {
    let search: WebConfig['search'] = { kind: 'memory' };
    if (v.WEB_SEARCH_BACKEND === 'searxng') {
      if (!v.WEB_SEARCH_URL) problems.push('WEB_SEARCH_URL is required when WEB_SEARCH_BACKEND=searxng.');
      search = { kind: 'searxng', url: v.WEB_SEARCH_URL ?? '' };
    } else if (v.WEB_SEARCH_BACKEND === 'brave') {
      if (!v.BRAVE_SEARCH_API_KEY) problems.push('BRAVE_SEARCH_API_KEY is required when WEB_SEARCH_BACKEND=brave.');
      search = { kind: 'brave', url: v.BRAVE_SEARCH_URL, apiKey: v.BRAVE_SEARCH_API_KEY ?? '' };
    }
    return {
      search,
      allowPrivate: v.WEB_FETCH_ALLOW_PRIVATE,
      maxBytes: v.WEB_FETCH_MAX_BYTES,
      timeoutMs: v.WEB_FETCH_TIMEOUT_MS,
      allowHosts: v.WEB_FETCH_ALLOW_HOSTS,
      denyHosts: v.WEB_FETCH_DENY_HOSTS,
      tenantHosts: v.WEB_FETCH_TENANT_HOSTS,
      respectRobots: v.WEB_FETCH_RESPECT_ROBOTS,
    };
  },
  bind: (container, config, { clock, upstreamTimeoutMs, resilience, documents }) => {
    bindOnce(container, WebReader, () => {
      // The same guard the records group uses for attachments, with the web's own limits and five redirects.
      const guard = new UrlFetchGuard({
        maxBytes: config.maxBytes,
        timeoutMs: config.timeoutMs,
        allowPrivate: config.allowPrivate,
        maxRedirects: 5,
        privateHint:
          'web_fetch reads public addresses only (the operator can allow private ones for tests and intranets with WEB_FETCH_ALLOW_PRIVATE=true).',
        userAgent: `ToolGateway/${VERSION} (web_fetch; an AI agent's tool; honours robots.txt)`,
      });
      const reader = new GuardedWebReader({
        fetcher: guard,
        clock,
        allowHosts: config.allowHosts,
        denyHosts: config.denyHosts,
        tenantHosts: config.tenantHosts,
        cache: container.get(SharedCache),
        respectRobots: config.respectRobots,
        robotsAgent: 'ToolGateway',
        parser: documents,
      });
      return config.search.kind === 'memory' ? new DemoWebReader(reader, clock, documents) : reader;
    });
    bindOnce(container, WebSearch, () => {
      const s = config.search;
      return s.kind === 'searxng'
        ? new SearxngSearch({ baseUrl: s.url, timeoutMs: upstreamTimeoutMs, resilience })
        : s.kind === 'brave'
          ? new BraveSearch({ baseUrl: s.url, apiKey: s.apiKey, timeoutMs: upstreamTimeoutMs, resilience })
          : new DemoWebSearch(clock);
    });
  },
  describe: (config) => config.search.kind,
});
