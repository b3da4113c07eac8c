import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Connections } from '../../../application/connections/connections.js';
import { fromGatewayError } from '../../../application/runtime/tool-error.js';
import type { VerifyApiKey } from '../../../application/identity/sign-in.js';
import { E } from '../../../domain/shared/fp.js';
import { LRUCache } from 'lru-cache';
import type { RateLimiter } from '../../../ports/rate-limiter.js';
import { readCapped } from './body-reader.js';
import type { Federation } from '../oauth/oidc-federation.js';

// The connect page (issue 43): a connect link (`/connect/{vendor}?ticket=`, from a NOT_CONNECTED answer, an
// authorize_url, or a URL elicitation) asks whoever opens it to sign in to the gateway; only the person whose
// call asked for the link goes on to the vendor (connect-link.ts). The form is guarded against cross-site
// posts by a SameSite=Strict cookie that must match a field of the form, so no other site can sign a
// visitor in with a key of its own and have them connect their vendor account into a foreign workspace.

export interface ConnectPageDeps {
  readonly connections: Connections;
  /** Checks the key typed into the form (API keys and the demo token; never a JWT). */
  readonly verifyApiKey: VerifyApiKey;
  /** The external OpenID provider people sign in with, when configured: "Sign in with {name}" on the page. */
  readonly federation?: Federation | undefined;
  /**
   * Counts wrong keys per link: the gateway's rate limiter, shared by every instance when Redis is configured
   * (else this instance's). Without one, or while it fails, an LRU on this instance counts them.
   */
  readonly limiter?: RateLimiter | undefined;
}

/** Wrong keys allowed per link in WRONG_KEY_WINDOW_SECONDS (on every instance together, with Redis). */
const WRONG_KEYS = 10;
const WRONG_KEY_WINDOW_SECONDS = 600;
export const FORM_COOKIE = 'tg-connect-form';
const FORM_MAX_BYTES = 16 * 1024;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

const HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}label{display:block;margin:.4rem 0}input[type=password]{width:100%;padding:.5rem;font:inherit}
button{font:inherit;padding:.5rem 1rem;margin:.8rem 0 0}.error{color:#a40000}.muted{color:#555;font-size:.9rem}`;

export const html = (status: number, title: string, body: string, extra: Record<string, string> = {}): Response =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    { status, headers: { ...HEADERS, ...extra } },
  );

export const message = (status: number, title: string, text: string): Response =>
  html(status, title, `<p>${escapeHtml(text)}</p>`);

export interface FormView {
  readonly vendor: string;
  readonly label: string;
  readonly tenant: string;
  readonly ticket: string;
  readonly nonce: string;
  readonly error?: string;
  /** The OpenID provider's name, when the page offers "Sign in with {name}". */
  readonly provider?: string | undefined;
}

export const signInForm = (v: FormView, status: number, secure: boolean): Response =>
  html(
    status,
    `Connect ${v.label}`,
    `<p>Sign in to the gateway to connect your ${escapeHtml(v.label)} account to the workspace <strong>${escapeHtml(v.tenant)}</strong>.</p>` +
      `<p class="muted">This link works only for the person whose call asked for it: sign in with your own gateway API key. Someone else's key is refused.</p>` +
      (v.error ? `<p class="error" role="alert">${escapeHtml(v.error)}</p>` : '') +
      `<form method="post" action="/connect/${encodeURIComponent(v.vendor)}">` +
      `<input type="hidden" name="ticket" value="${escapeHtml(v.ticket)}">` +
      `<input type="hidden" name="form" value="${escapeHtml(v.nonce)}">` +
      `<label for="api_key">Your gateway API key</label>` +
      `<input type="password" id="api_key" name="api_key" autocomplete="off" required autofocus>` +
      `<button type="submit">Sign in and continue to ${escapeHtml(v.label)}</button></form>` +
      (v.provider
        ? `<form method="post" action="/connect/${encodeURIComponent(v.vendor)}/oidc">` +
          `<input type="hidden" name="ticket" value="${escapeHtml(v.ticket)}">` +
          `<input type="hidden" name="form" value="${escapeHtml(v.nonce)}">` +
          `<p class="muted">No API key (you signed in to your client through ${escapeHtml(v.provider)})?</p>` +
          `<button type="submit">Sign in with ${escapeHtml(v.provider)}</button></form>`
        : `<p class="muted">No API key (you signed in to your client through your organisation's provider)? This page cannot sign you in: ask an administrator of the workspace to connect ${escapeHtml(v.label)} for everyone.</p>`),
    { 'set-cookie': formCookie(v.nonce, WRONG_KEY_WINDOW_SECONDS, secure) },
  );

/** The form's cookie: SameSite=Strict, so a post from another site never carries it. */
export const formCookie = (value: string, maxAgeSeconds: number, secure: boolean): string =>
  `${FORM_COOKIE}=${value}; Max-Age=${maxAgeSeconds}; Path=/connect/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

/** The OAuth flow's cookie: HttpOnly, SameSite=Lax (sent on the vendor's top-level redirect back), Path=/. */
export const flowCookie = (name: string, value: string, maxAgeSeconds: number, secure: boolean): string =>
  `${name}=${value}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

export const sameNonce = (a: string | undefined, b: string | undefined): boolean =>
  !!a && !!b && a.length === b.length && a.length <= 64 && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export const readForm = async (c: Context): Promise<URLSearchParams | undefined> => {
  const body = await readCapped(c, FORM_MAX_BYTES);
  return body.kind === 'ok' ? new URLSearchParams(Buffer.from(body.bytes).toString('utf8')) : undefined;
};

export const mountConnectPage = (app: Hono, deps: ConnectPageDeps): void => {
  const { connections } = deps;
  const secure = connections.secureCookies;
  const provider = deps.federation?.name;
  const wrongKeys = wrongKeyCount(deps.limiter);

  // The link opened: which vendor and workspace, and the sign-in form (nothing is started yet).
  app.get('/connect/:vendor', (c) => {
    const vendor = c.req.param('vendor');
    const ticket = c.req.query('ticket') ?? '';
    const link = connections.readLink(vendor, ticket);
    if (E.isLeft(link)) {
      const e = fromGatewayError(link.left);
      return message(e.status, 'Cannot connect', e.message);
    }
    const nonce = randomBytes(18).toString('base64url');
    return signInForm({ vendor, ticket, nonce, provider, ...link.right }, 200, secure);
  });

  // The form posted: the same browser (the Strict cookie), a key that signs in, and the link's own person.
  app.post('/connect/:vendor', async (c) => {
    const vendor = c.req.param('vendor');
    const form = await readForm(c);
    if (!form) return message(413, 'Cannot connect', 'The form is larger than 16 KiB.');
    const ticket = form.get('ticket') ?? '';
    const link = connections.readLink(vendor, ticket);
    if (E.isLeft(link)) {
      const e = fromGatewayError(link.left);
      return message(e.status, 'Cannot connect', e.message);
    }
    const nonce = getCookie(c, FORM_COOKIE);
    if (!sameNonce(nonce, form.get('form') ?? undefined))
      return message(
        403,
        'Cannot connect',
        'This form was not sent from the connect page in this browser. Open the connect link again and sign in there.',
      );
    const again = (status: number, error: string) =>
      signInForm({ vendor, ticket, nonce: nonce!, error, provider, ...link.right }, status, secure);
    const limitKey = createLimitKey(ticket);
    const wait = await wrongKeys.refused(limitKey);
    if (wait !== undefined) {
      const minutes = Math.max(1, Math.ceil(wait / 60));
      return again(
        429,
        `Too many wrong keys for this link. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
    }
    const signedIn = await deps.verifyApiKey(form.get('api_key') ?? '');
    if (!signedIn) {
      await wrongKeys.count(limitKey);
      return again(401, 'That key does not sign in to this gateway.');
    }
    const opened = connections.openLink(vendor, ticket, signedIn);
    if (E.isLeft(opened)) {
      const e = fromGatewayError(opened.left);
      return message(e.status, 'Cannot connect', e.message);
    }
    const { location, cookie } = opened.right;
    const headers = new Headers({ location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    headers.append('set-cookie', flowCookie(cookie.name, cookie.value, cookie.maxAgeSeconds, cookie.secure));
    headers.append('set-cookie', formCookie('', 0, secure));
    return new Response(null, { status: 303, headers });
  });
};

/** One link's wrong-key count is kept under a hash of its ticket (the ticket itself is never a limiter key). */
const createLimitKey = (ticket: string): string => createHash('sha256').update(ticket).digest('base64url').slice(0, 22);

/**
 * Wrong keys per link: through the rate limiter (`peek` before a key is checked, `take` for a wrong one), or
 * an LRU on this instance (at most 10,000 links, each for ten minutes from its first wrong key) without a
 * limiter or while it fails. `refused` says how many seconds until the link takes a key again.
 */
const wrongKeyCount = (limiter: RateLimiter | undefined) => {
  const local = new LRUCache<string, number>({ max: 10_000, ttl: WRONG_KEY_WINDOW_SECONDS * 1000, noUpdateTTL: true });
  const localRefused = (key: string): number | undefined =>
    (local.get(key) ?? 0) >= WRONG_KEYS ? WRONG_KEY_WINDOW_SECONDS : undefined;
  const localCount = (key: string): void => void local.set(key, (local.get(key) ?? 0) + 1);
  const shared = `connect-wrong-key:`;
  return {
    refused: async (key: string): Promise<number | undefined> => {
      if (!limiter?.peek) return localRefused(key);
      try {
        const decision = await limiter.peek(`${shared}${key}`, WRONG_KEYS, WRONG_KEY_WINDOW_SECONDS);
        return decision.allowed ? localRefused(key) : decision.retryAfterSeconds;
      } catch {
        return localRefused(key);
      }
    },
    count: async (key: string): Promise<void> => {
      if (!limiter?.peek) return localCount(key);
      try {
        await limiter.take(`${shared}${key}`, WRONG_KEYS, WRONG_KEY_WINDOW_SECONDS);
      } catch {
        localCount(key);
      }
    },
  };
};
