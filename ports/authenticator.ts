import type { ServiceIdentifier } from 'inversify';

/** Who is calling, and what they may do (`crm:read`, `records:write`, `files:destructive`, `crm:*`, `*`). */
export interface Principal {
  /**
   * Stable and unique across credential kinds: everything kept per caller (rate-limit buckets,
   * idempotency records) is keyed by it, so that a JWT whose `sub` equals an API key's name shares
   * nothing with that key. Built with `principalId`.
   */
  readonly id: string;
  /** For display and logs only (an API key's name, a JWT's subject); never a key for state. */
  readonly name: string;
  readonly permissions: ReadonlySet<string>;
  /**
   * The organisation the caller acts for. Everything kept per caller is kept per tenant as well (rate
   * limits, idempotency records); an API key names it, a JWT carries it in a claim, else `default`.
   */
  readonly tenant: string;
}

/** The tenant of a credential that names none (and of the demo token). */
export const DEFAULT_TENANT = 'default';

/** A tenant id: 1 to 64 letters, digits, `.`, `_` or `-`, starting with a letter or digit (never a `:`). */
export const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The credential kinds a principal can come from; each is its own namespace of ids. `oidc` is a person signed in
 * at the gateway's authorization server through an external OpenID provider (`oidc:<issuer>:<sub>`).
 */
export type CredentialKind = 'key' | 'demo' | 'jwt' | 'embedded' | 'oidc';

/**
 * A principal id: the credential kind, then each part percent-encoded, joined by `:`
 * (`key:ops-bot`, `jwt:https%3A%2F%2Fissuer.example:agent-7`). Encoding keeps the parts from running into
 * each other, so two different credentials never get one id.
 */
export const principalId = (kind: CredentialKind, ...parts: readonly string[]): string =>
  [kind, ...parts.map(encodeURIComponent)].join(':');

/** Why a credential was refused, in words for the 401 message (never the credential itself). */
export interface AuthFailure {
  readonly reason: string;
}

export const isAuthFailure = (x: Principal | AuthFailure): x is AuthFailure => 'reason' in x;

/**
 * Turns a bearer credential into a principal, or says why it cannot: configured API keys, JWTs, or
 * both behind one composite.
 */
export interface Authenticator {
  authenticate(bearer: string): Principal | AuthFailure | Promise<Principal | AuthFailure>;
}

export const Authenticator = Symbol.for('Authenticator') as ServiceIdentifier<Authenticator>;
