import type { ServiceIdentifier } from 'inversify';

/** Who is calling, and what they may do (`crm:read`, `records:write`, `files:destructive`, `crm:*`, `*`). */
export interface Principal {
  readonly name: string;
  readonly permissions: ReadonlySet<string>;
}

/**
 * Turns a bearer credential into a principal, or undefined when it is unknown. Configured API keys
 * today; JWT verification plugs in here later without touching the surfaces.
 */
export interface Authenticator {
  authenticate(bearer: string): Principal | undefined | Promise<Principal | undefined>;
}

export const Authenticator = Symbol.for('Authenticator') as ServiceIdentifier<Authenticator>;

/**
 * Called after authentication and before a tool runs, for limits that span requests (rate limits and
 * idempotency arrive here in a later issue). The default guard lets every call through.
 */
export interface CallGuard {
  admit(principal: Principal, toolName: string): Promise<{ readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number; readonly message: string }>;
}

export const CallGuard = Symbol.for('CallGuard') as ServiceIdentifier<CallGuard>;
