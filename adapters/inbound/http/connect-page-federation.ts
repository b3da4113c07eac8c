import { randomBytes } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Connections } from '../../../application/connections/connections.js';
import { fromGatewayError } from '../../../application/runtime/tool-error.js';
import { E } from '../../../domain/shared/fp.js';
import {
  CONNECT_FEDERATION_PREFIX,
  CONNECT_FEDERATION_RETURN,
  FEDERATION_COOKIE_PREFIX,
  type Federation,
} from '../oauth/oidc-federation.js';
import { flowCookie, FORM_COOKIE, formCookie, message, readForm, sameNonce } from './connect-page-routes.js';

// "Sign in with {provider}" on the connect page (issue 43): a person who has no gateway API key (they signed
// in to their client through the organisation's OpenID provider, or call with that provider's JWTs) proves
// who they are at the provider, through the same federation as the authorization server's sign-in page
// (oidc-federation.ts: PKCE, state, nonce, the ID token checked). The provider sends the browser back to the
// one registered redirect URI, which hands a connect-page sign-in on to CONNECT_FEDERATION_RETURN; there the
// person must be the link's own caller (connect-link.ts) before going on to the vendor.
//
//   POST /connect/{vendor}/oidc   the connect page's button: the same Strict form cookie as the key form; a
//                                 pending federation sealed in `oauth_oidc_connect-{id}` (Path=/, for the
//                                 callback and the return) and the link in `tg-connect-oidc-{id}`
//   GET  /connect/oidc/return     the provider's answer: checked, the claims mapped; the link's caller only

export interface ConnectFederationDeps {
  readonly connections: Connections;
  readonly federation: Federation;
}

const LINK_COOKIE_PREFIX = 'tg-connect-oidc-';
const LIFETIME_SECONDS = 600;
/** The id in both cookie names: base64url, 22 characters. */
const ID = /^[\w-]{22}$/;

const cookie = (name: string, value: string, path: string, maxAgeSeconds: number, secure: boolean): string =>
  `${name}=${value}; Max-Age=${maxAgeSeconds}; Path=${path}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/** The link a pending sign-in is for, as its cookie keeps it: vendor and sealed ticket. */
const linkOf = (value: string | undefined): { vendor: string; ticket: string } | undefined => {
  if (!value || value.length > 4096) return undefined;
  const dot = value.indexOf('.');
  if (dot < 1) return undefined;
  const vendor = value.slice(0, dot);
  // Vendor names are plain words: anything else is not a cookie this page set.
  return /^[a-z][a-z0-9-]{0,39}$/.test(vendor) ? { vendor, ticket: value.slice(dot + 1) } : undefined;
};

export const mountConnectFederation = (app: Hono, deps: ConnectFederationDeps): void => {
  const { connections, federation } = deps;
  const secure = connections.secureCookies;
  const failed = (status: number, why: string) =>
    message(
      status,
      `Sign-in with ${federation.name} failed`,
      `${why[0]!.toUpperCase()}${why.slice(1)}. Nothing was connected: open the connect link again.`,
    );

  app.post('/connect/:vendor/oidc', async (c) => {
    const vendor = c.req.param('vendor');
    const form = await readForm(c);
    if (!form) return message(413, 'Cannot connect', 'The form is larger than 16 KiB.');
    const ticket = form.get('ticket') ?? '';
    const link = connections.readLink(vendor, ticket);
    if (E.isLeft(link)) {
      const e = fromGatewayError(link.left);
      return message(e.status, 'Cannot connect', e.message);
    }
    // Login CSRF: only the connect page in this browser starts a sign-in (the provider's answer would
    // otherwise sign this browser in as whoever started it elsewhere).
    if (!sameNonce(getCookie(c, FORM_COOKIE), form.get('form') ?? undefined))
      return message(
        403,
        'Cannot connect',
        'This form was not sent from the connect page in this browser. Open the connect link again and sign in there.',
      );
    const id = randomBytes(16).toString('base64url');
    let started: Awaited<ReturnType<Federation['start']>>;
    try {
      started = await federation.start(`${CONNECT_FEDERATION_PREFIX}${id}`);
    } catch {
      return failed(502, `${federation.name} could not be reached`);
    }
    const headers = new Headers({
      location: started.url,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    headers.append(
      'set-cookie',
      cookie(
        `${FEDERATION_COOKIE_PREFIX}${CONNECT_FEDERATION_PREFIX}${id}`,
        started.sealed,
        '/',
        LIFETIME_SECONDS,
        secure,
      ),
    );
    headers.append(
      'set-cookie',
      cookie(`${LINK_COOKIE_PREFIX}${id}`, `${vendor}.${ticket}`, '/connect/', LIFETIME_SECONDS, secure),
    );
    headers.append('set-cookie', formCookie('', 0, secure));
    return new Response(null, { status: 303, headers });
  });

  app.get(CONNECT_FEDERATION_RETURN, async (c: Context) => {
    const url = new URL(c.req.url);
    const state = url.searchParams.get('state') ?? '';
    const cookies = getCookie(c);
    // The pending sign-in whose state the answer carries (as the callback found it).
    let found: { id: string; pending: NonNullable<ReturnType<Federation['open']>> } | undefined;
    for (const [name, value] of Object.entries(cookies)) {
      const prefix = `${FEDERATION_COOKIE_PREFIX}${CONNECT_FEDERATION_PREFIX}`;
      if (!name.startsWith(prefix)) continue;
      const id = name.slice(prefix.length);
      const pending = ID.test(id) ? federation.open(value) : undefined;
      if (pending && state && pending.state === state && pending.uid === `${CONNECT_FEDERATION_PREFIX}${id}`)
        found = { id, pending };
    }
    const link = found && linkOf(cookies[`${LINK_COOKIE_PREFIX}${found.id}`]);
    const answer = await (async (): Promise<Response> => {
      if (!found || !link)
        return failed(400, 'this sign-in has expired, was already used, or began in another browser');
      const readable = connections.readLink(link.vendor, link.ticket);
      if (E.isLeft(readable)) {
        const e = fromGatewayError(readable.left);
        return message(e.status, 'Cannot connect', e.message);
      }
      const callback = new URL(`${federation.redirectUri}${url.search}`);
      const result = await federation.finish(found.pending, callback);
      if ('refused' in result) return failed(401, result.refused);
      const opened = connections.openLink(link.vendor, link.ticket, result.who);
      if (E.isLeft(opened)) {
        const e = fromGatewayError(opened.left);
        return message(e.status, 'Cannot connect', e.message);
      }
      const { location, cookie: flow } = opened.right;
      const headers = new Headers({ location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      headers.append('set-cookie', flowCookie(flow.name, flow.value, flow.maxAgeSeconds, flow.secure));
      return new Response(null, { status: 303, headers });
    })();
    // The pending sign-in and its link are used once, whatever the outcome.
    if (found) {
      const headers = new Headers(answer.headers);
      headers.append(
        'set-cookie',
        cookie(`${FEDERATION_COOKIE_PREFIX}${CONNECT_FEDERATION_PREFIX}${found.id}`, '', '/', 0, secure),
      );
      headers.append('set-cookie', cookie(`${LINK_COOKIE_PREFIX}${found.id}`, '', '/connect/', 0, secure));
      return new Response(answer.body, { status: answer.status, headers });
    }
    return answer;
  });
};
