import { createLocalJWKSet, errors, jwtVerify } from 'jose';
import { accountOf, nameOfPrincipal } from '../../../application/identity/sign-in.js';
import type { AuthFailure, Principal } from '../../../ports/authenticator.js';
import { publicJwks, type SigningJwk } from './signing-keys.js';

// The access tokens the gateway's authorization server issues: short-lived JWTs (RFC 9068, `typ: at+jwt`)
// signed with its own keys, `aud` the protected resource (the gateway's MCP URL), `sub` the principal id of
// the key that signed in, `tenant` its tenant, `scope` the permissions granted. Checked here without any
// store: nothing is looked up per call.

/** The claim carrying the tenant of the person who signed in. */
export const TENANT_CLAIM = 'tenant';
/** The claim carrying the account id (`tenant|principalId`); `sub` alone is the principal id. */
export const ACCOUNT_CLAIM = 'acct';

export interface AccessTokenVerifierOptions {
  readonly issuer: string;
  /** The resource the tokens must be for (`aud`), e.g. `https://gateway.example/mcp`. */
  readonly resource: string;
  readonly keys: readonly SigningJwk[];
  /** Allowed clock difference for `exp`/`nbf` (default 30 s, as the gateway's JWT verifier). */
  readonly leewaySeconds?: number;
}

/** A principal as the gateway's Authenticator port has it, plus the OAuth client the token was issued to. */
export interface OAuthPrincipal extends Principal {
  readonly clientId: string;
}

/** Verifies an access token; a refusal says why in words for the 401 (never the token itself). */
export type VerifyAccessToken = (token: string) => Promise<OAuthPrincipal | AuthFailure>;

const reasonOf = (e: unknown): string => {
  if (e instanceof errors.JWTExpired) return 'the token has expired';
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === 'aud') return 'the token is for another resource';
    if (e.claim === 'iss') return 'the token comes from another issuer';
    return `the token's "${e.claim}" claim is not valid`;
  }
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'the token signature is not valid';
  if (e instanceof errors.JWKSNoMatchingKey) return 'the token is signed with an unknown key';
  return 'the token could not be verified';
};

/**
 * The verifier the gateway's authenticator calls for a bearer token that is one of this server's access
 * tokens. ES256 only, `typ` must be `at+jwt` (an ID token or another JWT signed with the same key is not an
 * access token), and `iss`, `aud`, `exp` are required.
 */
export const accessTokenVerifier = (options: AccessTokenVerifierOptions): VerifyAccessToken => {
  const keySet = createLocalJWKSet(publicJwks(options.keys));
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keySet, {
        issuer: options.issuer,
        audience: options.resource,
        algorithms: ['ES256'],
        typ: 'at+jwt',
        requiredClaims: ['exp', 'iat', 'sub', 'client_id'],
        clockTolerance: options.leewaySeconds ?? 30,
      });
      const account = typeof payload[ACCOUNT_CLAIM] === 'string' ? accountOf(payload[ACCOUNT_CLAIM]) : undefined;
      if (!account || account.principalId !== payload.sub || account.tenant !== payload[TENANT_CLAIM])
        return { reason: 'the token does not name its tenant and principal' };
      const scope = typeof payload['scope'] === 'string' ? payload['scope'] : '';
      return {
        id: account.principalId,
        name: nameOfPrincipal(account.principalId),
        tenant: account.tenant,
        permissions: new Set(scope.split(' ').filter(Boolean)),
        clientId: String(payload['client_id']),
      };
    } catch (e) {
      return { reason: reasonOf(e) };
    }
  };
};

/** Does a bearer token look like one of ours (a JWS with `typ: at+jwt`)? Cheap, no verification. */
export const looksLikeAccessToken = (token: string): boolean => {
  const dot = token.indexOf('.');
  if (dot < 1 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) return false;
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8')) as { typ?: unknown };
    return header.typ === 'at+jwt';
  } catch {
    return false;
  }
};
