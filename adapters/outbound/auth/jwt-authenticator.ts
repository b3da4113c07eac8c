import type * as Jose from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import {
  DEFAULT_TENANT,
  principalId,
  TENANT_ID,
  type AuthFailure,
  type Authenticator,
  type Principal,
} from '../../../ports/authenticator.js';

export interface JwtOptions {
  /** Shared secret for HS256. */
  readonly secret?: string;
  /** JWKS address for RS256, ES256 and EdDSA; keys are cached and fetched again for an unknown `kid`. */
  readonly jwksUrl?: string;
  readonly issuer?: string;
  readonly audience?: string;
  /** Allowed clock difference for exp and nbf. */
  readonly leewaySeconds?: number;
  /** Least time between two JWKS fetches for unknown key ids (default 30 s). */
  readonly jwksCooldownMs?: number;
  /** The claim that names the caller's tenant (default `tenant`); a token without it acts for `default`. */
  readonly tenantClaim?: string;
  /**
   * The longest lifetime accepted (default a day): `exp - iat`, or `exp - now` for a token without `iat`
   * (and never less than that, so that an `iat` in the future does not stretch it). A longer-lived token
   * is refused: a leaked one would otherwise stay good for as long as its issuer wrote.
   */
  readonly maxLifetimeSeconds?: number;
  /** How long a verified token is remembered at most (default 5 minutes), and never past its `exp`. */
  readonly cacheSeconds?: number;
}

export const DEFAULT_JWT_MAX_LIFETIME_SECONDS = 86_400;
const DEFAULT_CACHE_SECONDS = 300;
/** Most verified tokens remembered; past it the cache starts again. */
const MAX_CACHED = 10_000;

const HMAC = ['HS256'];
const ASYMMETRIC = ['RS256', 'ES256', 'EdDSA'];

const looksLikeJwt = (token: string): boolean => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);

/** jose's errors in words for the 401 message (never echoing the token). */
const reasonOf = ({ errors }: typeof Jose, e: unknown): string => {
  if (e instanceof errors.JWTExpired) return 'the token has expired';
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === 'aud') return 'the token is for another audience';
    if (e.claim === 'iss') return 'the token comes from another issuer';
    if (e.claim === 'nbf') return 'the token is not valid yet';
    return `the token's "${e.claim}" claim is not valid`;
  }
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'the token signature is not valid';
  if (e instanceof errors.JOSEAlgNotAllowed) return 'the token is signed with an algorithm that is not allowed';
  if (e instanceof errors.JWKSNoMatchingKey) return 'the token is signed with an unknown key';
  if (e instanceof errors.JWKSTimeout || e instanceof errors.JOSEError) return 'the token could not be verified';
  return 'the token could not be verified';
};

/**
 * Who the token speaks for, namespaced by its issuer (`jwt:<iss>:<sub>`): the same subject from two
 * issuers, or a subject equal to an API key's name, is another principal. A token without `sub` falls
 * back to its `client_id` (a separate namespace under the issuer).
 */
const principalOf = (payload: JWTPayload, permissions: readonly string[], tenant: string): Principal => {
  const issuer = typeof payload.iss === 'string' ? payload.iss : '';
  const clientId = typeof payload['client_id'] === 'string' ? (payload['client_id'] as string) : undefined;
  const id =
    typeof payload.sub === 'string'
      ? principalId('jwt', issuer, payload.sub)
      : clientId !== undefined
        ? principalId('jwt', issuer, 'client', clientId)
        : principalId('jwt', issuer);
  return { id, name: String(payload.sub ?? clientId ?? 'jwt'), permissions: new Set(permissions), tenant };
};

/** The tenant a token names in `claim`, `default` when it names none, or undefined when the claim is not a tenant id. */
const tenantOf = (payload: JWTPayload, claim: string): string | undefined => {
  const value = payload[claim];
  if (value === undefined) return DEFAULT_TENANT;
  return typeof value === 'string' && TENANT_ID.test(value) ? value : undefined;
};

const permissionsOf = (payload: JWTPayload): string[] => {
  const fromScope = typeof payload['scope'] === 'string' ? (payload['scope'] as string).split(' ').filter(Boolean) : [];
  const list = payload['permissions'];
  const fromList = Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
  return [...fromScope, ...fromList];
};

/** Why a token's lifetime is refused, or undefined when it is within `max` seconds (with `leeway` for clocks). */
const lifetimeProblem = (payload: JWTPayload, nowSeconds: number, max: number, leeway: number): string | undefined => {
  const exp = payload.exp ?? 0;
  const iat = typeof payload.iat === 'number' ? payload.iat : undefined;
  const from = iat === undefined ? nowSeconds : Math.min(iat, nowSeconds);
  const lifetime = exp - from;
  if (lifetime <= max + leeway) return undefined;
  const what = iat === undefined ? 'it has no "iat" and expires' : 'it is valid for';
  return `the token lives too long: ${what} ${Math.round(lifetime)} s, over the ${max}-second maximum this gateway accepts (JWT_MAX_LIFETIME_SECONDS). Ask the issuer for a shorter-lived token`;
};

/**
 * Verifies JWT access tokens with jose. HS256 tokens are checked only against the shared secret and
 * asymmetric ones only against the JWKS, so an HMAC token can never be checked with a public key; `none`
 * is never allowed, nor a token that lives longer than `maxLifetimeSeconds`. Verified tokens are
 * remembered for a few minutes (never past their expiry), so a busy client pays once in a while.
 */
export class JwtAuthenticator implements Authenticator {
  private readonly secret?: Uint8Array;
  private readonly jwksUrl?: URL;
  /** jose and the key set, loaded by the first token checked (issue 39: nothing of jose at start-up). */
  private loading?: Promise<{ jose: typeof Jose; jwks?: JWTVerifyGetKey }>;
  private readonly verified = new Map<string, { principal: Principal; expiresAt: number }>();

  constructor(private readonly options: JwtOptions) {
    if (options.secret) this.secret = new TextEncoder().encode(options.secret);
    if (options.jwksUrl) this.jwksUrl = new URL(options.jwksUrl);
  }

  private load(): Promise<{ jose: typeof Jose; jwks?: JWTVerifyGetKey }> {
    return (this.loading ??= import('jose').then((jose) => ({
      jose,
      jwks: this.jwksUrl
        ? jose.createRemoteJWKSet(this.jwksUrl, {
            cacheMaxAge: 10 * 60_000,
            cooldownDuration: this.options.jwksCooldownMs ?? 30_000,
          })
        : undefined,
    })));
  }

  static handles(token: string): boolean {
    return looksLikeJwt(token);
  }

  async authenticate(token: string): Promise<Principal | AuthFailure> {
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.expiresAt > Date.now()) return cached.principal;
      this.verified.delete(token);
    }
    const { jose, jwks } = await this.load();
    let alg: string | undefined;
    try {
      alg = jose.decodeProtectedHeader(token).alg;
    } catch {
      return { reason: 'the token is not a well-formed JWT' };
    }
    const leeway = this.options.leewaySeconds ?? 30;
    const common = {
      issuer: this.options.issuer,
      audience: this.options.audience,
      clockTolerance: leeway,
      requiredClaims: ['exp'],
    };
    try {
      let payload: JWTPayload;
      if (alg && HMAC.includes(alg)) {
        if (!this.secret) return { reason: 'HS256 tokens are not accepted here' };
        payload = (await jose.jwtVerify(token, this.secret, { ...common, algorithms: HMAC })).payload;
      } else if (alg && ASYMMETRIC.includes(alg)) {
        if (!jwks) return { reason: `${alg} tokens are not accepted here` };
        payload = (await jose.jwtVerify(token, jwks, { ...common, algorithms: ASYMMETRIC })).payload;
      } else {
        return { reason: `the token algorithm "${alg ?? 'none'}" is not allowed` };
      }
      const now = Date.now();
      const tooLong = lifetimeProblem(
        payload,
        now / 1000,
        this.options.maxLifetimeSeconds ?? DEFAULT_JWT_MAX_LIFETIME_SECONDS,
        leeway,
      );
      if (tooLong) return { reason: tooLong };
      const claim = this.options.tenantClaim ?? 'tenant';
      const tenant = tenantOf(payload, claim);
      if (tenant === undefined) {
        return { reason: `the token's "${claim}" claim is not a tenant id (1 to 64 letters, digits, ".", "_" or "-")` };
      }
      const principal = principalOf(payload, permissionsOf(payload), tenant);
      if (this.verified.size >= MAX_CACHED) this.verified.clear();
      const expiresAt = Math.min(
        (payload.exp ?? 0) * 1000,
        now + (this.options.cacheSeconds ?? DEFAULT_CACHE_SECONDS) * 1000,
      );
      this.verified.set(token, { principal, expiresAt });
      return principal;
    } catch (e) {
      return { reason: reasonOf(jose, e) };
    }
  }
}
