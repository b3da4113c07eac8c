import type * as Jose from 'jose';
import { LRUCache } from 'lru-cache';
import {
  stillAllowed,
  type AccountStanding,
  type AccountStandingOf,
} from '../../../application/identity/account-standing.js';
import { accountOf, nameOfPrincipal } from '../../../application/identity/sign-in.js';
import type { AuthFailure, Principal } from '../../../ports/authenticator.js';
import { publicJwks, type SigningJwk } from './signing-keys.js';

// The access tokens the gateway's authorization server issues: short-lived JWTs (RFC 9068, `typ: at+jwt`)
// signed with its own keys, `aud` the protected resource (the gateway's MCP URL), `sub` the principal id of
// the key that signed in, `tenant` its tenant, `gid` its grant, `scope` the permissions granted. Checked
// here: the signature and claims, then (issue 38) whether the account is still configured and with which
// permissions (in process), and whether the grant still exists (the store, at most once per grant every
// `revocationCheckSeconds`, so a revocation ends its tokens on every instance within that bound).

/** The claim carrying the tenant of the person who signed in. */
export const TENANT_CLAIM = 'tenant';
/** The claim carrying the account id (`tenant|principalId`); `sub` alone is the principal id. */
export const ACCOUNT_CLAIM = 'acct';
/** The claim carrying the id of the grant the token was issued under. */
export const GRANT_CLAIM = 'gid';

/** How long a grant's "still there" answer is kept by default: the bound on a revocation reaching every instance. */
export const REVOCATION_CHECK_SECONDS = 30;

export interface AccessTokenVerifierOptions {
  readonly issuer: string;
  /** The resource the tokens must be for (`aud`), e.g. `https://gateway.example/mcp`. */
  readonly resource: string;
  readonly keys: readonly SigningJwk[];
  /** Allowed clock difference for `exp`/`nbf` (default 30 s, as the gateway's JWT verifier). */
  readonly leewaySeconds?: number;
  /** The account's standing now: a removed key's tokens are refused, a narrowed key's carry less. */
  readonly accountStanding?: AccountStandingOf;
  /** Does a grant still exist (the OAuth store)? Rejects when the store cannot say. */
  readonly grantExists?: (grantId: string) => Promise<boolean>;
  /** How long an answer of `grantExists` is kept (default REVOCATION_CHECK_SECONDS). */
  readonly revocationCheckSeconds?: number;
  /** The store could not say whether a grant exists (the token is accepted meanwhile): for the log. */
  readonly onCheckError?: (error: unknown) => void;
}

/** A principal as the gateway's Authenticator port has it, plus the OAuth client the token was issued to. */
export interface OAuthPrincipal extends Principal {
  readonly clientId: string;
}

/** Verifies an access token; a refusal says why in words for the 401 (never the token itself). */
export type VerifyAccessToken = (token: string) => Promise<OAuthPrincipal | AuthFailure>;

/** A verifier that can be told at once of a grant revoked on this instance. */
export interface AccessTokenVerifier extends VerifyAccessToken {
  /** Forget what is known of a grant (revoked here: the next check asks the store). */
  forgetGrant(grantId: string): void;
}

/** How many grants' answers are kept (a busy gateway's active sign-ins). */
const GRANT_CHECKS_KEPT = 10_000;

const reasonOf = ({ errors }: typeof Jose, e: unknown): string => {
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
export const accessTokenVerifier = (options: AccessTokenVerifierOptions): AccessTokenVerifier => {
  // jose (46 modules) loads with the first token checked, not with the gateway (issue 39).
  const jwks = publicJwks(options.keys);
  let loading: Promise<{ jose: typeof Jose; keySet: ReturnType<typeof Jose.createLocalJWKSet> }> | undefined;
  const load = () =>
    (loading ??= import('jose').then((jose) => ({
      jose,
      keySet: jose.createLocalJWKSet(jwks),
    })));
  const ttl = (options.revocationCheckSeconds ?? REVOCATION_CHECK_SECONDS) * 1000;
  const grants = new LRUCache<string, boolean>({ max: GRANT_CHECKS_KEPT, ttl: Math.max(1, ttl) });
  /** Whether the grant still exists, asked of the store at most once per `ttl`; true when it cannot say. */
  const grantStands = async (grantId: string): Promise<boolean> => {
    const known = ttl > 0 ? grants.get(grantId) : undefined;
    if (known !== undefined || !options.grantExists) return known ?? true;
    try {
      const exists = await options.grantExists(grantId);
      if (ttl > 0) grants.set(grantId, exists);
      return exists;
    } catch (error) {
      options.onCheckError?.(error);
      return true;
    }
  };
  const verify = async (token: string): Promise<OAuthPrincipal | AuthFailure> => {
    const { jose, keySet } = await load();
    try {
      const { payload } = await jose.jwtVerify(token, keySet, {
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
      const standing: AccountStanding = options.accountStanding
        ? await options.accountStanding(account)
        : { kind: 'unknown' };
      if (standing.kind === 'gone') return { reason: 'the key that signed in is no longer configured here' };
      const grantId = payload[GRANT_CLAIM];
      if (typeof grantId === 'string' && !(await grantStands(grantId)))
        return { reason: 'the authorization behind the token was revoked' };
      return {
        id: account.principalId,
        name: nameOfPrincipal(account.principalId),
        tenant: account.tenant,
        permissions: new Set(stillAllowed(scope.split(' ').filter(Boolean), standing)),
        clientId: String(payload['client_id']),
      };
    } catch (e) {
      return { reason: reasonOf(jose, e) };
    }
  };
  return Object.assign(verify, { forgetGrant: (grantId: string) => void grants.delete(grantId) });
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
