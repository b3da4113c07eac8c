import { calculateJwkThumbprint } from 'jose';
import { describe, expect, it } from 'vitest';
import { signInSeal } from '../../../../adapters/inbound/oauth/sealed-sign-in.js';
import { derivedSigningKey, serverKeys } from '../../../../adapters/inbound/oauth/signing-keys.js';
import {
  accountIdOf,
  accountOf,
  grantedScopes,
  offeredScopes,
  verifyApiKeyWith,
} from '../../../../application/identity/sign-in.js';
import { unverifiedIssuer, withOwnAccessTokens } from '../../../../application/identity/oauth-bearer.js';
import type { Authenticator, Principal } from '../../../../ports/authenticator.js';

// The rules under the sign-in and consent pages: which typed credentials sign in, which scopes are granted,
// the account id, the sealed sign-in between the two forms, and the derived signing key.

const principal = (id: string, permissions: string[], tenant = 'acme'): Principal => ({
  id,
  name: id.split(':').pop()!,
  tenant,
  permissions: new Set(permissions),
});

const authenticator: Authenticator = {
  authenticate: (bearer) =>
    ({
      'the-key': principal('key:ops', ['crm:read']),
      'the-demo': principal('demo:demo', ['*'], 'default'),
      'a.jwt.token': principal('jwt:https%3A%2F%2Fidp:agent', ['*']),
    })[bearer] ?? { reason: 'unknown' },
};

describe('verifyApiKeyWith', () => {
  const verify = verifyApiKeyWith(authenticator);

  it('signs in an API key or the demo token as its tenant and principal', async () => {
    expect(await verify(' the-key ')).toEqual({
      tenant: 'acme',
      principalId: 'key:ops',
      name: 'ops',
      permissions: ['crm:read'],
    });
    expect(await verify('the-demo')).toMatchObject({ principalId: 'demo:demo', tenant: 'default' });
  });

  it('refuses an unknown key, an empty field, and a JWT the authenticator would accept as a bearer token', async () => {
    expect(await verify('nope')).toBeUndefined();
    expect(await verify('')).toBeUndefined();
    expect(await verify('a.jwt.token')).toBeUndefined();
  });
});

describe('scopes', () => {
  it('grants the requested scopes that are ticked and held, wildcards included', () => {
    expect(grantedScopes(['crm:read', 'crm:write', 'files:read'], ['crm:read', 'files:read'], ['crm:*'])).toEqual([
      'crm:read',
    ]);
    expect(grantedScopes(['files:destructive'], ['files:destructive'], ['*'])).toEqual(['files:destructive']);
    expect(grantedScopes(['crm:read', 'crm:read'], ['crm:read', 'x:y'], ['crm:read'])).toEqual(['crm:read']);
    expect(grantedScopes(['crm:read'], [], ['*'])).toEqual([]);
  });

  it('offers what the key holds and lists the rest', () => {
    expect(offeredScopes(['crm:read', 'files:write'], ['crm:read'])).toEqual({
      offered: ['crm:read'],
      withheld: ['files:write'],
    });
  });
});

describe('account ids', () => {
  it('keep the tenant and the principal apart, both ways', () => {
    const id = accountIdOf({ tenant: 'acme', principalId: 'key:ops|x' });
    expect(accountOf(id)).toEqual({ tenant: 'acme', principalId: 'key:ops|x' });
    expect(accountOf('no-bar')).toBeUndefined();
    expect(accountOf('bad tenant|key:x')).toBeUndefined();
  });
});

describe('the sealed sign-in', () => {
  const who = { tenant: 'acme', principalId: 'key:ops', name: 'ops', permissions: ['crm:read'] };

  it('opens for its own interaction within ten minutes, under the current or an older key', () => {
    const old = signInSeal(['old-secret']);
    const rotated = signInSeal(['new-secret', 'old-secret']);
    const sealed = old.seal('uid-1', who, 1_000);
    expect(rotated.open(sealed, 'uid-1', 2_000)).toEqual(who);
    expect(rotated.open(sealed, 'uid-2', 2_000)).toBeUndefined();
    expect(rotated.open(sealed, 'uid-1', 1_000 + 10 * 60_000 + 1)).toBeUndefined();
    expect(signInSeal(['other']).open(sealed, 'uid-1', 2_000)).toBeUndefined();
  });

  it('refuses a seal whose content was changed', () => {
    const seal = signInSeal(['s']);
    const [body, tag] = seal.seal('u', who).split('.');
    const changed = JSON.parse(Buffer.from(body!, 'base64url').toString());
    changed.who.permissions = ['*'];
    const forged = `${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${tag}`;
    expect(seal.open(forged, 'u')).toBeUndefined();
  });
});

describe('derivedSigningKey', () => {
  it('is the same key for the same secret and label, another for another label', async () => {
    const secret = Buffer.alloc(32, 7);
    const a = derivedSigningKey(secret);
    const b = derivedSigningKey(secret);
    const c = derivedSigningKey(secret, 'tool-gateway/oauth-signing-key/2');
    expect(a).toEqual(b);
    expect(c.kid).not.toBe(a.kid);
    expect(a).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    // The kid is the RFC 7638 thumbprint, as jose computes it.
    expect(a.kid).toBe(await calculateJwkThumbprint({ kty: a.kty, crv: a.crv, x: a.x, y: a.y }));
    expect(() => derivedSigningKey(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});

describe('withOwnAccessTokens', () => {
  const issuer = 'https://gateway.example';
  const jwt = (payload: object) =>
    ['{"alg":"ES256","typ":"at+jwt"}', JSON.stringify(payload), 'sig']
      .map((p, i) => (i < 2 ? Buffer.from(p).toString('base64url') : p))
      .join('.');
  const own = jwt({ iss: issuer, sub: 'key:ops' });
  const external = jwt({ iss: 'https://idp.example', sub: 'agent' });
  const seen: string[] = [];
  const combined = withOwnAccessTokens(
    { authenticate: (bearer) => (seen.push(`fallback:${bearer}`), { reason: 'fallback' }) },
    issuer,
    (token) => (seen.push(`own:${token}`), Promise.resolve({ reason: 'own' })),
  );

  it("sends this server's tokens to its verifier only, and everything else where it went before", async () => {
    expect(await combined.authenticate(own)).toEqual({ reason: 'own' });
    expect(await combined.authenticate(external)).toEqual({ reason: 'fallback' });
    expect(await combined.authenticate('an-api-key')).toEqual({ reason: 'fallback' });
    expect(seen).toEqual([`own:${own}`, `fallback:${external}`, 'fallback:an-api-key']);
    expect(unverifiedIssuer('a.b')).toBeUndefined();
    expect(unverifiedIssuer('a.!!!.c')).toBeUndefined();
  });
});

describe('serverKeys', () => {
  it('derives the same keys from the same secret, and random ones without', () => {
    const secret = Buffer.alloc(32, 3);
    expect(serverKeys(secret)).toEqual(serverKeys(secret));
    const [a, b] = [serverKeys(), serverKeys()];
    expect(a.signingKeys[0]!.kid).not.toBe(b.signingKeys[0]!.kid);
    expect(a.cookieKeys[0]).not.toBe(b.cookieKeys[0]);
  });
});
