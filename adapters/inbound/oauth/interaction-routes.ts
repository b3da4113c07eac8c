import type { HttpBindings } from '@hono/node-server';
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import {
  accountIdOf,
  grantedScopes,
  offeredScopes,
  type SignedIn,
  type VerifyApiKey,
} from '../../../application/identity/sign-in.js';
import {
  CONNECT_FEDERATION_PREFIX,
  CONNECT_FEDERATION_RETURN,
  FEDERATION_CALLBACK,
  FEDERATION_COOKIE_PREFIX,
  type Federation,
} from './oidc-federation.js';
import { consentPage, errorPage, PAGE_HEADERS, signInPage, type ClientView } from './pages.js';
import { INTERACTION_PREFIX } from './provider-config.js';
import type { SignInSeal } from './sealed-sign-in.js';

// The sign-in and consent steps of an authorization request, as the gateway's own pages:
//   GET  /oauth/interaction/{uid}          the sign-in form (field `api_key`)
//   POST /oauth/interaction/{uid}/login    checks the key; answers the consent page
//   POST /oauth/interaction/{uid}/confirm  the ticked scopes: grants their intersection with the key's
//   POST /oauth/interaction/{uid}/abort    cancel or deny: the client gets `access_denied`
// With an OpenID provider configured (oidc-federation.ts), a second way to sign in:
//   POST /oauth/interaction/{uid}/oidc         sets the sealed state cookie, redirects to the provider
//   GET  /oauth/oidc/callback                  the provider's redirect (the registered redirect URI): finds
//                                              the interaction by the cookie whose state matches, goes on to
//   GET  /oauth/interaction/{uid}/oidc/return  validates the answer, maps the claims; answers the consent page
// Every step needs oidc-provider's interaction cookie (SameSite=Lax, scoped to this path), so a form posted
// from another site carries none and is refused.

/** What the authorization server tells its owner (for the audit log); never a key or a token. */
export type AuthorizationEvent =
  | { readonly type: 'sign_in'; readonly tenant: string; readonly principalId: string; readonly clientId: string }
  | {
      readonly type: 'sign_in_refused';
      readonly clientId: string;
      /** Why an OpenID provider's sign-in was refused (absent for a wrong API key). */
      readonly reason?: string;
    }
  | {
      readonly type: 'consent';
      readonly tenant: string;
      readonly principalId: string;
      readonly clientId: string;
      readonly scopes: readonly string[];
      readonly grantId: string;
      /** An earlier consent of the same person for the same client covered the request: no page was shown. */
      readonly remembered: boolean;
    }
  | { readonly type: 'consent_denied'; readonly clientId: string; readonly principalId?: string }
  | { readonly type: 'grant_revoked'; readonly grantId: string }
  | {
      /** A refresh refused: the key that signed in is no longer configured. */
      readonly type: 'account_gone';
      readonly tenant: string;
      readonly principalId: string;
      readonly clientId: string;
    }
  | { readonly type: 'refresh_token_reused'; readonly clientId: string; readonly grantId: string };

export interface InteractionOptions {
  /** The provider, made on first use. */
  readonly provider: () => Promise<Provider>;
  readonly resource: string;
  readonly scopes: readonly string[];
  readonly verifyApiKey: VerifyApiKey;
  readonly seal: SignInSeal;
  readonly serviceName: string;
  readonly demoHint: boolean;
  readonly onEvent: (event: AuthorizationEvent) => void;
  /** The grant ids an account gave a client before, newest first (the store's `grants`), if remembered. */
  readonly rememberedGrants: ((accountId: string, clientId: string) => Promise<readonly string[]>) | undefined;
  /** Sign-in through an external OpenID provider, when one is configured. */
  readonly federation?: Federation | undefined;
  /** The issuer (the gateway's base URL): the provider's callback is `{issuer}/oauth/oidc/callback`. */
  readonly issuer?: string;
  /** A failure while talking to the OpenID provider (discovery, token endpoint), for the log. */
  readonly onError?: (error: unknown) => void;
}

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

const FORM_LIMIT = 16 * 1024;

const nodeOf = (c: Context): { req: IncomingMessage; res: ServerResponse } => {
  const env = c.env as Partial<HttpBindings> | undefined;
  if (!env?.incoming || !env.outgoing)
    throw new Error('the authorization server is served by @hono/node-server (it needs the Node request)');
  return { req: env.incoming, res: env.outgoing as ServerResponse };
};

const page = (c: Context, html: string, status: 200 | 400 | 401 | 502 = 200) => c.html(html, status, PAGE_HEADERS);

const expired = (c: Context) =>
  page(
    c,
    errorPage(
      'This sign-in has expired',
      'The request is no longer open (it lasts ten minutes, and the page must be opened in the browser that started it). Start again from your app.',
    ),
    400,
  );

const formString = (v: unknown): string => (typeof v === 'string' ? v : '');
const formList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];

export const interactionRoutes = (app: Hono, o: InteractionOptions): void => {
  const known = new Set(o.scopes);

  /**
   * The interaction of this browser for this uid, or undefined (no cookie, expired, another uid). A store
   * that fails is not an expired sign-in: that error goes on to the app's error handler.
   */
  const interactionOf = async (c: Context): Promise<Interaction | undefined> => {
    const { req, res } = nodeOf(c);
    const provider = await o.provider();
    try {
      const details = await provider.interactionDetails(req, res);
      return details.uid === c.req.param('uid') ? details : undefined;
    } catch (error) {
      if (error instanceof Error && error.name === 'SessionNotFound') return undefined;
      throw error;
    }
  };

  const clientOf = async (details: Interaction): Promise<ClientView> => {
    const clientId = String(details.params['client_id'] ?? '');
    const client = await (await o.provider()).Client.find(clientId);
    const redirect = URL.parse(String(details.params['redirect_uri'] ?? ''));
    return {
      clientId,
      name: client?.clientName ?? clientId,
      redirectHost: redirect ? redirect.host || redirect.protocol : 'unknown',
    };
  };

  const requestedOf = (details: Interaction): string[] =>
    String(details.params['scope'] ?? '')
      .split(' ')
      .filter((s) => known.has(s));
  const oidcScopesOf = (details: Interaction): string[] =>
    String(details.params['scope'] ?? '')
      .split(' ')
      .filter((s) => s === 'openid' || s === 'offline_access');

  /**
   * An earlier grant of this person to this client that covers the whole request, every scope of it still
   * held by the key: the consent page is not shown again (the sign-in still is). Only the newest few are
   * looked at.
   */
  const rememberedGrant = async (details: Interaction, who: SignedIn): Promise<string | undefined> => {
    if (!o.rememberedGrants) return undefined;
    const requested = requestedOf(details);
    if (!requested.length || grantedScopes(requested, requested, who.permissions).length !== requested.length)
      return undefined;
    const accountId = accountIdOf(who);
    const clientId = String(details.params['client_id'] ?? '');
    const provider = await o.provider();
    for (const grantId of (await o.rememberedGrants(accountId, clientId)).slice(0, 3)) {
      const grant = await provider.Grant.find(grantId);
      if (!grant || grant.accountId !== accountId || grant.clientId !== clientId) continue;
      const resourceScopes = new Set(grant.getResourceScope(o.resource).split(' '));
      const oidcScopes = new Set(grant.getOIDCScope().split(' '));
      if (requested.every((s) => resourceScopes.has(s)) && oidcScopesOf(details).every((s) => oidcScopes.has(s)))
        return grantId;
    }
    return undefined;
  };

  const finish = async (c: Context, result: InteractionResults) => {
    const { req, res } = nodeOf(c);
    const provider = await o.provider();
    const returnTo = await provider.interactionResult(req, res, result, { mergeWithLastSubmission: false });
    return c.redirect(returnTo, 303);
  };

  const base = `${INTERACTION_PREFIX}/:uid`;
  const limit = bodyLimit({ maxSize: FORM_LIMIT, onError: (c) => c.text('The form is too large.', 413) });

  const signInView = (uid: string, client: ClientView, error?: string) =>
    signInPage({
      service: o.serviceName,
      action: `${INTERACTION_PREFIX}/${uid}/login`,
      abortAction: `${INTERACTION_PREFIX}/${uid}/abort`,
      client,
      demoHint: o.demoHint,
      ...(o.federation ? { federation: { name: o.federation.name, action: `${INTERACTION_PREFIX}/${uid}/oidc` } } : {}),
      ...(error ? { error } : {}),
    });

  /** A person is signed in (by key or by OpenID provider): a remembered consent, or the consent page. */
  const signedIn = async (c: Context, details: Interaction, client: ClientView, who: SignedIn) => {
    const uid = details.uid;
    o.onEvent({ type: 'sign_in', tenant: who.tenant, principalId: who.principalId, clientId: client.clientId });
    const remembered = await rememberedGrant(details, who);
    if (remembered) {
      o.onEvent({
        type: 'consent',
        tenant: who.tenant,
        principalId: who.principalId,
        clientId: client.clientId,
        scopes: requestedOf(details),
        grantId: remembered,
        remembered: true,
      });
      return finish(c, { login: { accountId: accountIdOf(who) }, consent: { grantId: remembered } });
    }
    const { offered, withheld } = offeredScopes(requestedOf(details), who.permissions);
    return page(
      c,
      consentPage({
        service: o.serviceName,
        action: `${INTERACTION_PREFIX}/${uid}/confirm`,
        abortAction: `${INTERACTION_PREFIX}/${uid}/abort`,
        client,
        signedInAs: who.name,
        tenant: who.tenant,
        offered,
        withheld,
        signIn: o.seal.seal(uid, who),
      }),
    );
  };

  app.get(base, async (c) => {
    const details = await interactionOf(c);
    if (!details) return expired(c);
    return page(c, signInView(details.uid, await clientOf(details)));
  });

  app.post(`${base}/login`, limit, async (c) => {
    const details = await interactionOf(c);
    if (!details) return expired(c);
    const client = await clientOf(details);
    const form = await c.req.parseBody();
    const who: SignedIn | undefined = await o.verifyApiKey(formString(form['api_key']));
    if (!who) {
      o.onEvent({ type: 'sign_in_refused', clientId: client.clientId });
      return page(c, signInView(details.uid, client, 'That key is not known here. Check it and try again.'), 401);
    }
    return signedIn(c, details, client, who);
  });

  const federation = o.federation;
  if (federation) {
    const secure = (o.issuer ?? '').startsWith('https:');
    const cookieName = (uid: string) => `${FEDERATION_COOKIE_PREFIX}${uid}`;
    const cookieOptions = { path: '/oauth', httpOnly: true, sameSite: 'Lax', secure } as const;
    const refused = (c: Context, uid: string | undefined, why: string, status: 400 | 502 = 400) =>
      page(
        c,
        errorPage(
          `Sign-in with ${federation.name} failed`,
          `${why[0]!.toUpperCase()}${why.slice(1)}. Nothing was granted.`,
          uid ? { href: `${INTERACTION_PREFIX}/${uid}`, label: 'Back to the sign-in' } : undefined,
        ),
        status,
      );

    // The button: a new state, nonce and PKCE verifier, sealed in this interaction's cookie; off to the provider.
    app.post(`${base}/oidc`, limit, async (c) => {
      const details = await interactionOf(c);
      if (!details) return expired(c);
      let started: Awaited<ReturnType<Federation['start']>>;
      try {
        started = await federation.start(details.uid);
      } catch (error) {
        o.onError?.(error);
        return refused(c, details.uid, `${federation.name} could not be reached`, 502);
      }
      setCookie(c, cookieName(details.uid), started.sealed, { ...cookieOptions, maxAge: 600 });
      return c.redirect(started.url, 303);
    });

    // The registered redirect URI. The interaction's own cookie is scoped to its path, so this only finds which
    // interaction the answer is for (the pending cookie whose state the answer carries) and goes on there.
    app.get(FEDERATION_CALLBACK, (c) => {
      const url = new URL(c.req.url);
      const state = url.searchParams.get('state') ?? '';
      for (const [name, value] of Object.entries(getCookie(c))) {
        if (!name.startsWith(FEDERATION_COOKIE_PREFIX)) continue;
        const pending = federation.open(value);
        if (!pending || !state || pending.state !== state || cookieName(pending.uid) !== name) continue;
        // The connect page's own sign-in (connect-page-federation.ts) finishes there.
        if (pending.uid.startsWith(CONNECT_FEDERATION_PREFIX))
          return c.redirect(`${CONNECT_FEDERATION_RETURN}${url.search}`, 303);
        return c.redirect(`${INTERACTION_PREFIX}/${encodeURIComponent(pending.uid)}/oidc/return${url.search}`, 303);
      }
      return refused(c, undefined, 'this answer belongs to no sign-in open in this browser (expired, used, or forged)');
    });

    app.get(`${base}/oidc/return`, async (c) => {
      const details = await interactionOf(c);
      if (!details) return expired(c);
      const uid = details.uid;
      const client = await clientOf(details);
      const sealed = getCookie(c, cookieName(uid));
      deleteCookie(c, cookieName(uid), cookieOptions);
      const pending = sealed ? federation.open(sealed) : undefined;
      if (!pending || pending.uid !== uid) {
        o.onEvent({ type: 'sign_in_refused', clientId: client.clientId, reason: 'no pending sign-in' });
        return refused(c, uid, 'this sign-in has expired or was already used');
      }
      // The answer as the provider sent it to the registered redirect URI (openid-client takes the
      // redirect_uri of the token request from it).
      const callback = new URL(`${federation.redirectUri}${new URL(c.req.url).search}`);
      const result = await federation.finish(pending, callback);
      if ('refused' in result) {
        if (result.cause !== undefined) o.onError?.(result.cause);
        o.onEvent({ type: 'sign_in_refused', clientId: client.clientId, reason: result.refused });
        return refused(c, uid, result.refused);
      }
      return signedIn(c, details, client, result.who);
    });
  }

  app.post(`${base}/confirm`, limit, async (c) => {
    const details = await interactionOf(c);
    if (!details) return expired(c);
    const form = await c.req.parseBody({ all: true });
    const who = o.seal.open(formString(form['sign_in']), details.uid);
    if (!who) return expired(c);
    const clientId = String(details.params['client_id'] ?? '');
    const requested = requestedOf(details);
    const scopes = grantedScopes(requested, formList(form['scope']), who.permissions);
    if (!scopes.length) {
      o.onEvent({ type: 'consent_denied', clientId, principalId: who.principalId });
      return finish(c, { error: 'access_denied', error_description: 'no permission was granted' });
    }
    const accountId = accountIdOf(who);
    // A new grant each time: what the person ticked now is what the client gets (never an older, wider grant).
    const grant = new (await o.provider()).Grant({ accountId, clientId });
    grant.addResourceScope(o.resource, scopes.join(' '));
    // Those not granted are recorded as refused, so the provider does not ask for them again.
    const refused = requested.filter((r) => !scopes.includes(r));
    if (refused.length) grant.rejectResourceScope(o.resource, refused.join(' '));
    // The same scopes as the provider's own scopes (see provider-config.ts), with openid/offline_access.
    grant.addOIDCScope([...oidcScopesOf(details), ...scopes].join(' '));
    if (refused.length) grant.rejectOIDCScope(refused.join(' '));
    const grantId = await grant.save();
    o.onEvent({
      type: 'consent',
      tenant: who.tenant,
      principalId: who.principalId,
      clientId,
      scopes,
      grantId,
      remembered: false,
    });
    return finish(c, { login: { accountId }, consent: { grantId } });
  });

  app.post(`${base}/abort`, limit, async (c) => {
    const details = await interactionOf(c);
    if (!details) return expired(c);
    o.onEvent({ type: 'consent_denied', clientId: String(details.params['client_id'] ?? '') });
    return finish(c, { error: 'access_denied', error_description: 'the person declined' });
  });
};
