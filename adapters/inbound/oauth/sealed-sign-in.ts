import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { SignedIn } from '../../../application/identity/sign-in.js';

// Between the sign-in form and the consent form, the signed-in person travels in a hidden field, MACed
// (HMAC-SHA256 under a key derived from the cookie keys) and bound to one interaction and ten minutes. No
// server state, so the consent may be posted to another instance than the sign-in; the key itself is never
// in it, only what the key resolved to.

const LIFETIME_MS = 10 * 60_000;

interface Payload {
  readonly uid: string;
  readonly exp: number;
  readonly who: SignedIn;
}

export interface SignInSeal {
  seal(uid: string, who: SignedIn, now?: number): string;
  /** The person, when the seal is genuine, for this interaction and not expired. */
  open(sealed: string, uid: string, now?: number): SignedIn | undefined;
}

export const signInSeal = (secrets: readonly string[]): SignInSeal => {
  const keys = secrets.map((s) =>
    Buffer.from(hkdfSync('sha256', Buffer.from(s, 'utf8'), Buffer.alloc(0), 'tool-gateway/oauth-sign-in', 32)),
  );
  const [current] = keys;
  if (!current) throw new Error('the authorization server needs at least one cookie key');
  const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest();
  return {
    seal: (uid, who, now = Date.now()) => {
      const body = Buffer.from(JSON.stringify({ uid, exp: now + LIFETIME_MS, who } satisfies Payload)).toString(
        'base64url',
      );
      return `${body}.${mac(current, body).toString('base64url')}`;
    },
    open: (sealed, uid, now = Date.now()) => {
      const [body, tag, extra] = sealed.split('.');
      if (!body || !tag || extra !== undefined) return undefined;
      const given = Buffer.from(tag, 'base64url');
      const genuine = keys.some((k) => {
        const expected = mac(k, body);
        return expected.length === given.length && timingSafeEqual(expected, given);
      });
      if (!genuine) return undefined;
      try {
        const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
        if (p.uid !== uid || typeof p.exp !== 'number' || p.exp < now) return undefined;
        return p.who;
      } catch {
        return undefined;
      }
    },
  };
};
