import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES, ENVIRONMENT, loadConfig } from '../../composition/config.js';
import { E } from '../../domain/shared/fp.js';
import { CONFIGURATION_DOC, configurationDoc } from '../../scripts/docs-config.js';

const problems = (env: Record<string, string>) => {
  const r = loadConfig(env);
  return E.isLeft(r) ? r.left : [];
};

describe('configuration from the environment', () => {
  it('defaults to memory mode on port 8787', () => {
    const r = loadConfig({});
    expect(E.isRight(r) && r.right).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      groups: { crm: { kind: 'memory' }, skiptrace: { kind: 'memory' } },
      demoData: true,
      maxBodyBytes: 1048576,
    });
  });

  it('names every bad variable at once', () => {
    const p = problems({ PORT: 'eighty', CRM_BACKEND: 'salesforce', HUBSPOT_BASE_URL: 'ftp://x', LOG_LEVEL: 'loud' });
    expect(p).toHaveLength(4);
    expect(p.join('\n')).toContain('PORT must be a whole number from 0 to 65535; got "eighty"');
    expect(p.join('\n')).toContain('CRM_BACKEND must be one of memory, hubspot');
    expect(p.join('\n')).toContain('HUBSPOT_BASE_URL must be an http(s) URL');
    expect(p.join('\n')).toContain('LOG_LEVEL');
  });

  it("starts a vendor backend without an account of the operator's own, and checks what is given", () => {
    // Multi-tenant: every tenant connects its own portal (with the app) or its own key.
    expect(
      problems({ CRM_BACKEND: 'hubspot', HUBSPOT_CLIENT_ID: 'app-id', HUBSPOT_CLIENT_SECRET: 'app-secret' }),
    ).toEqual([]);
    expect(problems({ CRM_BACKEND: 'hubspot' })).toEqual([]);
    expect(problems({ SKIPTRACE_BACKEND: 'batchdata' })).toEqual([]);
    expect(problems({ CRM_BACKEND: 'hubspot', HUBSPOT_REFRESH_TOKEN: 'refresh-1' })).toEqual([
      'HUBSPOT_REFRESH_TOKEN needs the app that issued it: HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET.',
    ]);
    expect(problems({ CRM_BACKEND: 'hubspot', HUBSPOT_CLIENT_ID: 'app-id' })).toEqual([
      'HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET go together.',
    ]);
    expect(problems({ FILES_BACKEND: 'sharefile' })).toEqual([
      "FILES_BACKEND=sharefile needs the gateway's ShareFile app (SHAREFILE_CLIENT_ID and SHAREFILE_CLIENT_SECRET) for tenants to connect, or an account of the operator's own (SHAREFILE_REFRESH_TOKEN or SHAREFILE_ACCESS_TOKEN).",
    ]);
    expect(
      problems({ FILES_BACKEND: 'sharefile', SHAREFILE_CLIENT_ID: 'sf-app', SHAREFILE_CLIENT_SECRET: 'sf-secret' }),
    ).toEqual([]);
    const ok = loadConfig({
      CRM_BACKEND: 'hubspot',
      HUBSPOT_ACCESS_TOKEN: 'pat-na1-x',
      HUBSPOT_API_VERSION: '2026-03',
    });
    expect(E.isRight(ok) && ok.right.groups['crm']).toMatchObject({
      kind: 'hubspot',
      objectsPath: '/crm/objects/2026-03',
      account: { kind: 'private-app' },
    });
  });

  it('refuses DATABASE_URL without GATEWAY_ENCRYPTION_KEY, naming the variable, and checks the key and the URL', () => {
    expect(problems({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' })).toEqual([
      'GATEWAY_ENCRYPTION_KEY is required with DATABASE_URL: connection secrets are encrypted with it (openssl rand -base64 32).',
    ]);
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(problems({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', GATEWAY_ENCRYPTION_KEY: key })).toEqual(
      [],
    );
    const bad = problems({
      GATEWAY_ENCRYPTION_KEY: 'c2hvcnQ=',
      DATABASE_URL: 'mysql://x',
      GATEWAY_ENCRYPTION_KEYS: `${key},nope`,
    });
    expect(bad.map((p) => p.split(' ')[0])).toEqual([
      'DATABASE_URL',
      'GATEWAY_ENCRYPTION_KEY',
      'GATEWAY_ENCRYPTION_KEYS',
    ]);
    // Neither the key nor the URL (which may hold a password) is echoed.
    expect(bad.join('\n')).not.toContain('c2hvcnQ=');
    expect(bad.join('\n')).not.toContain('mysql://x');
  });

  it('never echoes a secret value', () => {
    const p = problems({ GATEWAY_API_KEYS: '[{"name":"x","token":"supersecretvalue"', GATEWAY_DEMO_TOKEN: 'short' });
    expect(p.join('\n')).toContain('GATEWAY_API_KEYS must be a JSON array');
    expect(p.join('\n')).toContain('GATEWAY_DEMO_TOKEN must be a token of at least 8 characters');
    expect(p.join('\n')).not.toContain('supersecretvalue');
    expect(p.join('\n')).not.toContain('short"');
  });

  it('checks API keys: a sha256 is 64 hex digits', () => {
    expect(problems({ GATEWAY_API_KEYS: '[{"name":"ci","sha256":"abc","permissions":["crm:read"]}]' })).toHaveLength(1);
    expect(
      problems({ GATEWAY_API_KEYS: `[{"name":"ci","sha256":"${'a'.repeat(64)}","permissions":["crm:read"]}]` }),
    ).toEqual([]);
  });

  it('documents every variable it reads, in code and in docs/configuration.md as the script writes it', () => {
    const documented = ENVIRONMENT.map(([name]) => name);
    expect([...documented].sort()).toEqual([...ENV_VARIABLES].sort());
    // Every row comes from a codec's own .doc(): a variable declared without a meaning fails here.
    for (const [name, fallback, meaning] of ENVIRONMENT) {
      expect(meaning.length, `${name} has no meaning`).toBeGreaterThan(10);
      expect(fallback, name).not.toBe('');
    }
    const written = existsSync(CONFIGURATION_DOC) ? readFileSync(CONFIGURATION_DOC, 'utf8') : '(missing)';
    // Compared whole, so that a changed default or meaning fails too, not only a missing name.
    expect(written, 'docs/configuration.md is out of date: run npx tsx scripts/docs-config.ts').toBe(
      configurationDoc(),
    );
    for (const name of ENV_VARIABLES) expect(written, name).toContain(`| \`${name}\` |`);
  });
});

describe('the authorization server settings', () => {
  it('are on by default with a public base URL at the root, and refuse one with a path', () => {
    const on = loadConfig({});
    expect(E.isRight(on) && on.right.oauth).toMatchObject({ enabled: true, accessTokenTtlSeconds: 600 });
    expect(problems({ PUBLIC_BASE_URL: 'https://example.com/gateway' })).toEqual([
      expect.stringContaining('PUBLIC_BASE_URL must be an origin without a path while OAUTH_SERVER=true'),
    ]);
    expect(problems({ PUBLIC_BASE_URL: 'https://example.com/gateway', OAUTH_SERVER: 'false' })).toEqual([]);
  });

  it('take an OpenID provider for sign-in, with its client id and claim mapping', () => {
    expect(problems({ OIDC_ISSUER: 'https://login.example.com' })).toEqual([
      'OIDC_CLIENT_ID is required with OIDC_ISSUER.',
    ]);
    const set = loadConfig({
      OIDC_ISSUER: 'https://login.example.com',
      OIDC_CLIENT_ID: 'gateway',
      OIDC_PERMISSIONS_MAP: '{"sales": ["crm:read"]}',
      OIDC_DEFAULT_PERMISSIONS: 'files:read, records:read',
    });
    expect(E.isRight(set) && set.right.oauth.openIdProvider).toEqual({
      issuer: 'https://login.example.com',
      clientId: 'gateway',
      name: 'login.example.com',
      permissionsByGroup: { sales: ['crm:read'] },
      defaultPermissions: ['files:read', 'records:read'],
    });
    expect(problems({ OIDC_PERMISSIONS_MAP: '["crm:read"]' })).toEqual([
      expect.stringContaining('OIDC_PERMISSIONS_MAP must be a JSON object'),
    ]);
  });
});
