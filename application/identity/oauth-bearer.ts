import type { AuthFailure, Authenticator, Principal } from '../../ports/authenticator.js';

// How the gateway's authenticator takes the access tokens of its own authorization server beside what it
// already accepts (API keys, the demo token, an external issuer's JWTs): a bearer JWT whose `iss` is this
// server goes to its verifier, and only there (a refusal is final, never retried as another kind of token);
// anything else goes where it went before.

/** Verifies one of this server's access tokens (adapters/inbound/oauth `verifyAccessToken`). */
export type VerifyOwnAccessToken = (token: string) => Promise<Principal | AuthFailure>;

/** The `iss` of a JWS-shaped token, read without verifying (only to route it), or undefined. */
export const unverifiedIssuer = (token: string): string | undefined => {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1] || parts[1].length > 8192) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof payload.iss === 'string' ? payload.iss : undefined;
  } catch {
    return undefined;
  }
};

export const withOwnAccessTokens = (
  fallback: Authenticator,
  issuer: string,
  verify: VerifyOwnAccessToken,
): Authenticator => ({
  authenticate: (bearer) => (unverifiedIssuer(bearer) === issuer ? verify(bearer) : fallback.authenticate(bearer)),
});
