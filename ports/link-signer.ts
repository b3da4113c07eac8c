import type { ServiceIdentifier } from 'inversify';

export type LinkCheck = 'valid' | 'expired' | 'invalid';

/** Signed, expiring addresses on this gateway: whoever holds one may use it, without a bearer token. */
export interface LinkSigner {
  /** An absolute URL for `path` (which starts with "/"), valid until `expiresAt`. */
  sign(path: string, expiresAt: Date): string;
  /** Checks the `expires` and `sig` query values of a request to `path`. */
  verify(path: string, expires: string | undefined, sig: string | undefined, now: Date): LinkCheck;
}

export const LinkSigner = Symbol.for('LinkSigner') as ServiceIdentifier<LinkSigner>;
