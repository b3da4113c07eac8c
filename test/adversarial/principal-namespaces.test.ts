import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { ApiKeyAuthenticator } from '../../adapters/outbound/auth/api-key-authenticator.js';
import { JwtAuthenticator } from '../../adapters/outbound/auth/jwt-authenticator.js';
import { principal } from '../../composition/gateway.js';
import { isAuthFailure, principalId, type Principal } from '../../ports/authenticator.js';
import { CRM_ALL_TOKEN, request, testGateway } from '../support/gateway.js';

// The attack: a JWT whose `sub` equals an API key's name ("crm-all" here) shared that key's idempotency
// replays (it was handed the key's stored results) and its rate-limit bucket (it could exhaust the key's
// allowance). Everything kept per caller is now keyed by a principal id namespaced by credential kind
// and issuer.

const SECRET = 'a-shared-secret-of-at-least-32-characters!';
const ISSUER = 'https://issuer.example';

const jwtFor = (sub: string, scope: string, iss = ISSUER) =>
  new SignJWT({ sub, scope, aud: 'tool-gateway', iss })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));

const verified = async (auth: JwtAuthenticator, token: string): Promise<Principal> => {
  const p = await auth.authenticate(token);
  if (isAuthFailure(p)) throw new Error(p.reason);
  return p;
};

describe('principals of different credentials never share state', () => {
  const env = { JWT_SECRET: SECRET, JWT_AUDIENCE: 'tool-gateway' };

  it("a JWT named like an API key does not get that key's idempotent replays", async () => {
    const g = testGateway({}, env);
    const twin = await jwtFor('crm-all', 'crm:*');
    const key = `shared-${randomUUID()}`;
    const body = { values: { email: `twin-${randomUUID()}@example.com` } };
    const create = (token: string) =>
      request(g, 'POST', '/v1/tools/crm/createContact?format=json', {
        body,
        token,
        headers: { 'idempotency-key': key },
      });

    const byKey = await create(CRM_ALL_TOKEN);
    expect(byKey.status).toBe(200);
    const byJwt = await create(twin);
    expect(byJwt.headers.get('idempotent-replayed')).toBeNull();
    expect(byJwt.body).not.toEqual(byKey.body);
    // The key's own retry still replays.
    expect((await create(CRM_ALL_TOKEN)).headers.get('idempotent-replayed')).toBe('true');
  });

  it('a JWT named like an API key has its own rate-limit bucket', async () => {
    const g = testGateway({}, { ...env, RATE_LIMIT_PER_MINUTE: '2' });
    const twin = await jwtFor('crm-all', 'crm:*');
    const read = (token: string) =>
      request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token });
    expect((await read(CRM_ALL_TOKEN)).status).toBe(200);
    expect((await read(CRM_ALL_TOKEN)).status).toBe(200);
    expect((await read(CRM_ALL_TOKEN)).status).toBe(429);
    const jwtAnswer = await read(twin);
    expect(jwtAnswer.status).toBe(200);
    expect(jwtAnswer.headers.get('ratelimit-remaining')).toBe('1');
  });

  it('gives each credential kind and issuer its own id, and keeps the name for display', async () => {
    const keys = new ApiKeyAuthenticator([{ name: 'agent-7', token: 'k-agent-7', permissions: ['*'] }]);
    const fromKey = keys.find('k-agent-7')!;
    const auth = new JwtAuthenticator({ secret: SECRET, audience: 'tool-gateway' });
    const fromJwt = await verified(auth, await jwtFor('agent-7', 'crm:read'));
    const otherIssuer = await verified(auth, await jwtFor('agent-7', 'crm:read', 'https://other.example'));
    const embedded = principal('agent-7', ['*']);

    expect([fromKey.name, fromJwt.name, otherIssuer.name, embedded.name]).toEqual([
      'agent-7',
      'agent-7',
      'agent-7',
      'agent-7',
    ]);
    expect(fromKey.id).toBe('key:agent-7');
    expect(fromJwt.id).toBe('jwt:https%3A%2F%2Fissuer.example:agent-7');
    expect(new Set([fromKey.id, fromJwt.id, otherIssuer.id, embedded.id]).size).toBe(4);
  });

  it('keeps the demo token apart from an API key named "demo"', () => {
    const keys = new ApiKeyAuthenticator([
      { name: 'demo', token: 'k-named-demo', permissions: ['crm:read'] },
      { name: 'demo', token: 'the-demo-token', permissions: ['*'], kind: 'demo' },
    ]);
    const named = keys.find('k-named-demo')!;
    const demo = keys.find('the-demo-token')!;
    expect(named.id).toBe('key:demo');
    expect(demo.id).toBe('demo:demo');
  });

  it('cannot be forged by putting separators into names', () => {
    // Each part is encoded, so a separator inside a name cannot move the boundary between parts.
    expect(principalId('jwt', 'a:b', 'c')).not.toBe(principalId('jwt', 'a', 'b:c'));
    expect(principalId('key', 'jwt:x:y')).not.toBe(principalId('jwt', 'x', 'y'));
    expect(principalId('jwt', 'iss', 'client', 'c')).not.toBe(principalId('jwt', 'iss', 'client:c'));
  });
});
