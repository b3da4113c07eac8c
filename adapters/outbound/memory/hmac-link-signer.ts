import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { LinkCheck, LinkSigner } from '../../../ports/link-signer.js';

/**
 * Signed links: HMAC-SHA256 over the path and the expiry second. Instances that serve the same links
 * must share the secret (FILES_SIGNING_SECRET); without one each process makes its own.
 */
export class HmacLinkSigner implements LinkSigner {
  readonly #secret: Buffer;
  constructor(
    private readonly baseUrl: string,
    secret?: string,
  ) {
    this.#secret = secret ? Buffer.from(secret, 'utf8') : randomBytes(32);
  }

  #mac(path: string, expires: string): string {
    return createHmac('sha256', this.#secret).update(`${path}\n${expires}`).digest('base64url');
  }

  sign(path: string, expiresAt: Date): string {
    const expires = String(Math.floor(expiresAt.getTime() / 1000));
    return `${this.baseUrl.replace(/\/+$/, '')}${path}?expires=${expires}&sig=${this.#mac(path, expires)}`;
  }

  verify(path: string, expires: string | undefined, sig: string | undefined, now: Date): LinkCheck {
    if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.#mac(path, expires));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return Number(expires) * 1000 < now.getTime() ? 'expired' : 'valid';
  }
}
