import { createECDH, createHash, generateKeyPairSync, hkdfSync, randomBytes } from 'node:crypto';
import type { JWK } from 'jose';

// The keys the authorization server signs its access tokens with (ES256). Either derived from a secret the
// deployment already has (every instance derives the same key, so a token one instance issues verifies on
// another, and nothing new is stored), or made at random for one process (memory mode, tests).

/** A P-256 private key as a JWK, with its `kid` (the RFC 7638 thumbprint), `alg` and `use`. */
export type SigningJwk = JWK & { kty: 'EC'; crv: 'P-256'; d: string; x: string; y: string; kid: string };

/** The order of P-256's group; a private scalar is in [1, n-1]. */
const P256_N = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

/** The RFC 7638 thumbprint of an EC public key: SHA-256 over its required members in lexical order. */
const thumbprint = (jwk: { crv: string; kty: string; x: string; y: string }): string =>
  createHash('sha256')
    .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }))
    .digest('base64url');

// Synchronous throughout, so that the gateway (built synchronously) has its keys at once.
const withKid = (jwk: Omit<SigningJwk, 'kid'>): SigningJwk => ({
  ...jwk,
  kid: thumbprint(jwk),
  alg: 'ES256',
  use: 'sig',
});

/**
 * The signing key derived from `secret` (32 bytes or more, e.g. GATEWAY_ENCRYPTION_KEY) with HKDF-SHA256 under
 * `label`. A different label gives an unrelated key, so a new label is a key rotation.
 */
export const derivedSigningKey = (secret: Buffer, label = 'tool-gateway/oauth-signing-key/1'): SigningJwk => {
  if (secret.length < 32) throw new Error('the secret an OAuth signing key is derived from has at least 32 bytes');
  // 48 bytes reduced modulo n: the bias is below 2^-128.
  const wide = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), label, 48));
  const scalar = (BigInt(`0x${wide.toString('hex')}`) % (P256_N - 1n)) + 1n;
  const d = Buffer.from(scalar.toString(16).padStart(64, '0'), 'hex');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey(); // 0x04 || x || y
  return withKid({
    kty: 'EC',
    crv: 'P-256',
    d: d.toString('base64url'),
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
  });
};

/** A random signing key for this process only: tokens it signs stop verifying when the process ends. */
export const randomSigningKey = (): SigningJwk => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as SigningJwk;
  return withKid({ kty: 'EC', crv: 'P-256', d: jwk.d, x: jwk.x, y: jwk.y });
};

/** The public half of signing keys, as served at the JWKS endpoint. */
export const publicJwks = (keys: readonly SigningJwk[]): { keys: JWK[] } => ({
  keys: keys.map(({ kty, crv, x, y, kid, alg, use }) => ({ kty, crv, x, y, kid, alg, use })),
});

/**
 * The server's keys from one secret (GATEWAY_ENCRYPTION_KEY's 32 bytes): every instance derives the same
 * signing key and cookie key, so tokens and sign-ins in flight survive a restart and cross instances. Without
 * a secret, keys for this process only: access tokens and open sign-ins end with it, while stored refresh
 * tokens keep working (a client refreshes and carries on).
 */
export const serverKeys = (secret?: Buffer): { signingKeys: SigningJwk[]; cookieKeys: string[] } => {
  if (!secret) return { signingKeys: [randomSigningKey()], cookieKeys: [randomBytes(32).toString('base64url')] };
  return {
    signingKeys: [derivedSigningKey(secret)],
    cookieKeys: [
      Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'tool-gateway/oauth-cookies/1', 32)).toString(
        'base64url',
      ),
    ],
  };
};
