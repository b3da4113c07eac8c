import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK } from 'jose';
import { createHmac } from 'node:crypto';
import { JwtAuthenticator } from '../../../adapters/outbound/auth/jwt-authenticator.js';
import { isAuthFailure } from '../../../ports/authenticator.js';
import { listenOnLoopback, loopbackUrl } from '../../fakes/listen.js';
import { post, testGateway } from '../../support/gateway.js';

const SECRET = 'a-shared-secret-of-at-least-32-characters!';
const now = () => Math.floor(Date.now() / 1000);
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

let jwksServer: Server;
let jwksUrl: string;
let keys: JWK[] = [];
let rsa1: Awaited<ReturnType<typeof generateKeyPair>>;
let rsa2: Awaited<ReturnType<typeof generateKeyPair>>;

beforeAll(async () => {
  rsa1 = await generateKeyPair('RS256');
  rsa2 = await generateKeyPair('RS256');
  keys = [{ ...(await exportJWK(rsa1.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }];
  jwksServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys }));
  });
  await listenOnLoopback(jwksServer);
  jwksUrl = `${loopbackUrl(jwksServer)}/.well-known/jwks.json`;
});
afterAll(() => new Promise<void>((r) => jwksServer.close(() => r())));

const hs256 = (claims: Record<string, unknown>, secret = SECRET) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(secret));

const rs256 = (claims: Record<string, unknown>, key = rsa1.privateKey, kid = 'k1') =>
  new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).setIssuedAt().setExpirationTime('5m').sign(key);

describe('JWT access tokens', () => {
  const auth = () =>
    new JwtAuthenticator({
      secret: SECRET,
      jwksUrl,
      issuer: 'https://issuer.example',
      audience: 'tool-gateway',
      jwksCooldownMs: 0,
    });
  const base = { iss: 'https://issuer.example', aud: 'tool-gateway', sub: 'agent-7' };

  it('accepts HS256 with the shared secret and reads permissions from scope', async () => {
    const p = await auth().authenticate(await hs256({ ...base, scope: 'crm:read crm:write' }));
    expect(isAuthFailure(p) ? p : { name: p.name, permissions: [...p.permissions] }).toEqual({
      name: 'agent-7',
      permissions: ['crm:read', 'crm:write'],
    });
  });

  it('accepts RS256 from the JWKS and reads a permissions array', async () => {
    const p = await auth().authenticate(await rs256({ ...base, permissions: ['skiptrace:write'] }));
    expect(isAuthFailure(p) ? p.reason : [...p.permissions]).toEqual(['skiptrace:write']);
  });

  it('fetches the JWKS again for an unknown key id', async () => {
    const a = auth();
    expect(isAuthFailure(await a.authenticate(await rs256(base)))).toBe(false);
    keys = [...keys, { ...(await exportJWK(rsa2.publicKey)), kid: 'k2', alg: 'RS256', use: 'sig' }];
    const p = await a.authenticate(await rs256(base, rsa2.privateKey, 'k2'));
    expect(isAuthFailure(p)).toBe(false);
  });

  it.each([
    [
      'alg none',
      async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...base, exp: now() + 300 })}.`,
      'algorithm "none" is not allowed',
    ],
    [
      'a tampered signature',
      async () => {
        const [h, p, s] = (await hs256({ ...base, scope: 'crm:read' })).split('.');
        const payload = b64({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), scope: '*' });
        return `${h}.${payload}.${s}`;
      },
      'signature is not valid',
    ],
    [
      'an expired token',
      async () =>
        new SignJWT(base)
          .setProtectedHeader({ alg: 'HS256' })
          .setExpirationTime(now() - 600)
          .sign(new TextEncoder().encode(SECRET)),
      'expired',
    ],
    ['a wrong audience', async () => hs256({ ...base, aud: 'someone-else' }), 'another audience'],
    ['a wrong issuer', async () => hs256({ ...base, iss: 'https://evil.example' }), 'another issuer'],
    [
      'an HS256 token signed with the RSA public key',
      async () => {
        const pem = await exportSPKI(rsa1.publicKey);
        const header = b64({ alg: 'HS256', typ: 'JWT', kid: 'k1' });
        const payload = b64({ ...base, exp: now() + 300, scope: '*' });
        const sig = createHmac('sha256', pem).update(`${header}.${payload}`).digest('base64url');
        return `${header}.${payload}.${sig}`;
      },
      'signature is not valid',
    ],
    [
      'a token without exp',
      async () => new SignJWT(base).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET)),
      'exp',
    ],
  ])('refuses %s', async (_name, make, reason) => {
    const p = await auth().authenticate(await make());
    expect(isAuthFailure(p)).toBe(true);
    expect(isAuthFailure(p) && p.reason).toContain(reason);
  });

  it('refuses HS256 when only a JWKS is configured, even when signed with the public key', async () => {
    const a = new JwtAuthenticator({ jwksUrl });
    const pem = await exportSPKI(rsa1.publicKey);
    const p = await a.authenticate(await hs256({ sub: 'x' }, pem));
    expect(isAuthFailure(p) && p.reason).toContain('HS256 tokens are not accepted');
  });
});

describe('JWTs over HTTP', () => {
  const gateway = testGateway({}, { JWT_SECRET: SECRET, JWT_AUDIENCE: 'tool-gateway' });

  it('lets a JWT call what its scope allows and names what it lacks', async () => {
    const token = await hs256({ sub: 'agent-1', aud: 'tool-gateway', scope: 'crm:read' });
    expect((await post(gateway, '/v1/tools/crm/getContact', { contact_id: '101' }, token)).status).toBe(200);
    const denied = await post(gateway, '/v1/tools/crm/deleteContact', { contact_id: '101' }, token);
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.permission).toBe('crm:destructive');
  });

  it('answers 401 with error="invalid_token" and the reason in the message, never the token', async () => {
    const token = await hs256({ sub: 'agent-1', aud: 'wrong' });
    const r = await post(gateway, '/v1/tools/crm/getContact', { contact_id: '101' }, token);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(r.body.error.message).toContain('another audience');
    expect(r.raw).not.toContain(token);
  });

  it('keeps API keys and the demo token working next to JWTs', async () => {
    expect((await post(gateway, '/v1/tools/crm/getContact', { contact_id: '101' })).status).toBe(200);
  });
});
