import type { ServiceIdentifier } from 'inversify';

/** Who is calling, and what they may do (`crm:read`, `records:write`, `files:destructive`, `crm:*`, `*`). */
export interface Principal {
  readonly name: string;
  readonly permissions: ReadonlySet<string>;
}

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
