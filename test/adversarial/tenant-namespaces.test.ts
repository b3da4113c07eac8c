import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { ApiKeyAuthenticator } from '../../adapters/outbound/auth/api-key-authenticator.js';
import { JwtAuthenticator } from '../../adapters/outbound/auth/jwt-authenticator.js';
import { LoggingCallObserver, MAX_TENANT_LABELS } from '../../adapters/outbound/observability/logging-call-observer.js';
import { GatewayMetrics } from '../../adapters/outbound/observability/gateway-metrics.js';
import { loadConfig } from '../../composition/config.js';
import { principal } from '../../composition/gateway.js';
import { isAuthFailure } from '../../ports/authenticator.js';
import { request, testGateway } from '../support/gateway.js';

// The attack: the same subject in two tenants (one identity provider serving several organisations) must
// not share anything kept per caller. Before tenants, a JWT's id was `jwt:<iss>:<sub>` whatever
// organisation it acted for, so organisation B's agent got organisation A's idempotent replays and used up
// A's rate limit. State is now keyed by tenant and principal.

const SECRET = 'a-shared-secret-of-at-least-32-characters!';
const env = { JWT_SECRET: SECRET, JWT_AUDIENCE: 'tool-gateway' };

const jwt = (claims: Record<string, unknown>) =>
  new SignJWT({ sub: 'agent-1', aud: 'tool-gateway', scope: 'crm:*', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));

describe('tenants', () => {
  it('come from the API key entry, the JWT claim (configurable), or are "default"', async () => {
    const keys = new ApiKeyAuthenticator([
      { name: 'acme-bot', token: 'token-acme-bot', permissions: ['*'], tenant: 'acme' },
      { name: 'plain', token: 'token-plain-1', permissions: ['*'] },
    ]);
    expect(keys.find('token-acme-bot')?.tenant).toBe('acme');
    expect(keys.find('token-plain-1')?.tenant).toBe('default');

    const auth = new JwtAuthenticator({ secret: SECRET, audience: 'tool-gateway' });
    const withTenant = await auth.authenticate(await jwt({ tenant: 'globex' }));
    expect(isAuthFailure(withTenant) ? withTenant.reason : withTenant.tenant).toBe('globex');
    const without = await auth.authenticate(await jwt({}));
    expect(isAuthFailure(without) ? without.reason : without.tenant).toBe('default');
    const bad = await auth.authenticate(await jwt({ tenant: 'acme:admin' }));
    expect(isAuthFailure(bad) && bad.reason).toContain('"tenant" claim is not a tenant id');
    const notString = await auth.authenticate(await jwt({ tenant: ['acme'] }));
    expect(isAuthFailure(notString)).toBe(true);

    const custom = new JwtAuthenticator({ secret: SECRET, audience: 'tool-gateway', tenantClaim: 'org_id' });
    const viaOrg = await custom.authenticate(await jwt({ org_id: 'initech', tenant: 'ignored' }));
    expect(isAuthFailure(viaOrg) ? viaOrg.reason : viaOrg.tenant).toBe('initech');

    expect(principal('embedder', ['*']).tenant).toBe('default');
    expect(principal('embedder', ['*'], 'acme').tenant).toBe('acme');
    expect(() => principal('embedder', ['*'], 'a b')).toThrow(/not a tenant id/);
  });

  it('refuses an API key entry whose tenant is not a tenant id, naming the variable', () => {
    const keys = JSON.stringify([{ name: 'x', token: 'token-xxxxxxxx', permissions: ['*'], tenant: 'no:colons' }]);
    const loaded = loadConfig({ GATEWAY_API_KEYS: keys });
    expect(loaded._tag).toBe('Left');
    expect(JSON.stringify(loaded)).toContain('GATEWAY_API_KEYS');
  });

  it("never replays one tenant's idempotent write to the same subject in another tenant", async () => {
    const g = testGateway({}, env);
    const key = `shared-${randomUUID()}`;
    const body = { values: { email: `tenant-${randomUUID()}@example.com` } };
    const create = async (tenant: string) =>
      request(g, 'POST', '/v1/tools/crm/createContact?format=json', {
        body,
        token: await jwt({ tenant }),
        headers: { 'idempotency-key': key },
      });
    const first = await create('acme');
    expect(first.status).toBe(200);
    const other = await create('globex');
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect((await create('acme')).headers.get('idempotent-replayed')).toBe('true');
  });

  it('gives the same subject in another tenant its own rate-limit bucket', async () => {
    const g = testGateway({}, { ...env, RATE_LIMIT_PER_MINUTE: '2' });
    const read = async (tenant: string) =>
      request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token: await jwt({ tenant }) });
    expect((await read('acme')).status).toBe(200);
    expect((await read('acme')).status).toBe(200);
    expect((await read('acme')).status).toBe(429);
    const globex = await read('globex');
    expect(globex.status).toBe(200);
    expect(globex.headers.get('ratelimit-remaining')).toBe('1');
  });

  it('puts the tenant and principal id on the log line, and bounds the tenant label of the metrics', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    const metrics = new GatewayMetrics();
    const observer = new LoggingCallObserver(pino({ level: 'info' }, stream), metrics, false);
    const ok = async () => ({ ok: true as const });
    const call = (tenant: string) => ({
      tool: 'crm_getContact',
      group: 'crm',
      principal: 'agent-1',
      principalId: 'jwt:https%3A%2F%2Fidp.example:agent-1',
      tenant,
      requestId: `r-${tenant}`,
    });
    await observer.observe(call('acme'), ok);
    expect(lines[0]).toMatchObject({ tenant: 'acme', principal: 'agent-1', principalId: call('acme').principalId });
    // A flood of tenants cannot grow the metric's series without bound.
    for (let i = 0; i < MAX_TENANT_LABELS + 20; i++) await observer.observe(call(`t${i}`), ok);
    const text = await metrics.registry.metrics();
    const series = text.split('\n').filter((l) => l.startsWith('gateway_tenant_tool_calls_total{'));
    expect(series.length).toBe(MAX_TENANT_LABELS + 1);
    expect(text).toContain('gateway_tenant_tool_calls_total{tenant="acme",group="crm"} 1');
    expect(text).toContain('gateway_tenant_tool_calls_total{tenant="other",group="crm"} 21');
  });
});
