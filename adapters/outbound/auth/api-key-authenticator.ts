import { createHash, timingSafeEqual } from 'node:crypto';
import {
  DEFAULT_TENANT,
  principalId,
  type AuthFailure,
  type Authenticator,
  type Principal,
} from '../../../ports/authenticator.js';

export interface ApiKey {
  readonly name: string;
  readonly permissions: readonly string[];
  /** The token itself (local use) or, preferably, the hex SHA-256 of it. */
  readonly token?: string;
  readonly sha256?: string;
  /** `demo` for the demo token, so that an API key named "demo" is a different principal. */
  readonly kind?: 'key' | 'demo';
  /** The tenant the key acts for (default `default`). */
  readonly tenant?: string;
}

const UNKNOWN: AuthFailure = { reason: 'the token is not a known API key' };

const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * Bearer tokens from configuration. Only SHA-256 digests are kept in memory; a presented token is
 * hashed, looked up by digest and confirmed with a constant-time comparison, so neither the lookup nor
 * the comparison tells anything about a stored token.
 */
export class ApiKeyAuthenticator implements Authenticator {
  private readonly keys = new Map<string, { digest: Buffer; principal: Principal }>();
  /** The same principals by `tenant|principalId`, to tell whether an account that signed in is still configured. */
  private readonly byAccount = new Map<string, Principal>();
  /**
   * Tokens already verified, so that a busy client does not pay for a SHA-256 on every call. Bounded;
   * only accepted tokens enter it, so unknown tokens cannot grow it.
   */
  private readonly verified = new Map<string, Principal>();
  private static readonly MAX_VERIFIED = 1024;

  constructor(keys: readonly ApiKey[]) {
    for (const k of keys) {
      const d = k.sha256 ? Buffer.from(k.sha256, 'hex') : digest(k.token ?? '');
      if (d.length !== 32) throw new Error(`API key ${k.name}: a SHA-256 digest has 32 bytes`);
      const principal: Principal = {
        id: principalId(k.kind ?? 'key', k.name),
        name: k.name,
        permissions: new Set(k.permissions),
        tenant: k.tenant ?? DEFAULT_TENANT,
      };
      this.keys.set(d.toString('hex'), { digest: d, principal });
      this.byAccount.set(`${principal.tenant}|${principal.id}`, principal);
    }
  }

  authenticate(bearer: string): Principal | AuthFailure {
    return this.find(bearer) ?? UNKNOWN;
  }

  /** The principal a configured key signs in as in `tenant`, by its id (`key:ops`), or undefined. */
  principalOf(tenant: string, id: string): Principal | undefined {
    return this.byAccount.get(`${tenant}|${id}`);
  }

  /** The principal of a configured key, or undefined. */
  find(bearer: string): Principal | undefined {
    if (!bearer) return undefined;
    const known = this.verified.get(bearer);
    if (known) return known;
    const d = digest(bearer);
    const entry = this.keys.get(d.toString('hex'));
    if (!entry || !timingSafeEqual(entry.digest, d)) return undefined;
    if (this.verified.size >= ApiKeyAuthenticator.MAX_VERIFIED)
      this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(bearer, entry.principal);
    return entry.principal;
  }
}

/** Hex SHA-256 of a token, for GATEWAY_API_KEYS. */
export const sha256Hex = (token: string): string => digest(token).toString('hex');
