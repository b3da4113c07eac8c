import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono, type Context } from 'hono';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { AdapterFactory, ClientMetadata } from 'oidc-provider';
import type { AccountStandingOf } from '../../../application/identity/account-standing.js';
import type { VerifyApiKey } from '../../../application/identity/sign-in.js';
import { accessTokenVerifier, type VerifyAccessToken } from './access-tokens.js';
import { interactionRoutes, type AuthorizationEvent } from './interaction-routes.js';
import { authorizationLimits, type AuthorizationLimitSettings, type LimitedRequest } from './limits.js';
import { answerOutagesOf, answerOutagesOn, outageAwareAdapter, StoreUnavailable } from './store-outage.js';
import {
  FEDERATION_CALLBACK,
  openIdFederation,
  type Federation,
  type OpenIdProviderOptions,
} from './oidc-federation.js';
import { providerConfiguration, ROUTES } from './provider-config.js';
import { signInSeal } from './sealed-sign-in.js';
import { publicJwks, type SigningJwk } from './signing-keys.js';

// The gateway's own OAuth 2.1 authorization server (issue 29), built on oidc-provider and mounted on a Hono
// app served by @hono/node-server. The protocol endpoints are oidc-provider's (its Node request listener,
// handed the raw request and response); the sign-in and consent pages are Hono routes. oidc-provider (and
// Koa under it, about 250 ms of imports) loads on the first request to one of these routes, not with the
// gateway; verifyAccessToken needs only jose, so checking tokens never loads it.

export interface AuthorizationServerOptions {
  /** The issuer: the gateway's public base URL (PUBLIC_BASE_URL), an origin without a path. */
  readonly issuer: string;
  /** The protected resource tokens are for (their `aud`): the gateway's MCP URL, `{issuer}/mcp`. */
  readonly resource: string;
  /** Every scope a token may carry: the gateway's permissions (`crm:read`, `files:write`, ...). */
  readonly scopes: readonly string[];
  /** Checks the key typed into the sign-in form (`verifyApiKeyWith(authenticator)` builds one). */
  readonly verifyApiKey: VerifyApiKey;
  /**
   * Is the account still there, and with which permissions (default: unknown, so every grant stands)? Asked at
   * every sign-in, refresh and access-token check: a removed key's refreshes get invalid_grant and its access
   * tokens are refused; a narrowed key's tokens carry only what it still holds.
   */
  readonly accountStanding?: AccountStandingOf;
  /**
   * Does a grant still exist (the OAuth store's `grant`)? Asked when an access token is checked, at most once
   * per grant every `revocationCheckSeconds` (default 30): the bound on a revocation ending its access tokens
   * on every instance. Unset: access tokens live to their expiry.
   */
  readonly grantExists?: (grantId: string) => Promise<boolean>;
  readonly revocationCheckSeconds?: number;
  /** ES256 keys, the first signs (`derivedSigningKey` / `randomSigningKey`). */
  readonly signingKeys: readonly SigningJwk[];
  /** Secrets for the cookies and the consent form's seal; the first signs, the others still verify. */
  readonly cookieKeys: readonly string[];
  /** Storage of clients, grants, codes, refresh tokens and sessions; undefined keeps them in this process. */
  readonly adapter?: AdapterFactory;
  /** Access token lifetime (default 10 minutes). */
  readonly accessTokenTtlSeconds?: number;
  /** Refresh token lifetime, renewed by each rotation (default 30 days). */
  readonly refreshTokenTtlSeconds?: number;
  /** Clients registered in configuration. */
  readonly clients?: readonly ClientMetadata[];
  /** Dynamic client registration (RFC 7591) at /register (default on). */
  readonly registration?: boolean;
  /**
   * Client ID Metadata Documents (a URL as client_id), off unless given. `fetch` replaces oidc-provider's own
   * (which already refuses private addresses): give it the gateway's URL guard.
   */
  readonly clientIdMetadataDocuments?: {
    readonly allowFetch?: (clientId: string) => boolean | Promise<boolean>;
    readonly fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  };
  /** The name on the pages (default "Tool Gateway"). */
  readonly serviceName?: string;
  /** Mention the demo token on the sign-in page (memory mode). */
  readonly demoHint?: boolean;
  /**
   * The grant ids an account gave a client before, newest first (`sqlOAuthStore(...).grants`): when one covers
   * a new request, the person signs in but is not shown the consent page again. Unset: consent every time.
   */
  readonly rememberedGrants?: (accountId: string, clientId: string) => Promise<readonly string[]>;
  /** Sign-ins, consents, denials, revocations and refresh-token reuse, for the audit log. */
  readonly onEvent?: (event: AuthorizationEvent) => void;
  /**
   * Limits per address and per client on /register, /token and the sign-in form (limits.ts), answered 429 with
   * Retry-After; unset: none.
   */
  readonly limits?: AuthorizationLimitSettings;
  /** A request refused by those limits (at most one report per endpoint and address every 10 s), for the audit log. */
  readonly onLimited?: (refused: LimitedRequest) => void;
  /** A failure inside the server (a store that did not answer...): for the log. */
  readonly onError?: (error: unknown) => void;
  /**
   * Sign-in through an external OpenID Connect provider too (oidc-federation.ts): a "Sign in with {name}"
   * button beside the API key form. Register `{issuer}/oauth/oidc/callback` as its redirect URI.
   */
  readonly openIdProvider?: OpenIdProviderOptions;
}

export interface AuthorizationServer {
  /** Mount at the root: `app.route('/', server.routes)`. */
  readonly routes: Hono;
  /** The paths `routes` answers (exact, or a prefix when ending with `/*`), for the owner's middleware order. */
  readonly paths: readonly string[];
  readonly issuer: string;
  readonly resource: string;
  /** For the protected resource metadata's `authorization_servers`. */
  readonly metadataUrl: string;
  /** Verifies the access tokens this server issues (for the gateway's authenticator). */
  readonly verifyAccessToken: VerifyAccessToken;
  /** The public keys access tokens are signed with. */
  readonly jwks: ReturnType<typeof publicJwks>;
  /** The external OpenID provider sign-in, when configured (the connect page offers it too). */
  readonly federation?: Federation | undefined;
  /** The oidc-provider instance (its models: Grant, RefreshToken, Client...) for the grants API. */
  readonly provider: () => Promise<Provider>;
  /**
   * Revokes a grant as oidc-provider's own revocation does (`helpers/revoke.js`): every refresh token,
   * authorization code and stored access token of the grant, then the grant itself. Its access tokens (JWTs)
   * are refused at once on this instance, and on the others within `revocationCheckSeconds` (with
   * `grantExists`; without it they live to their expiry, `accessTokenTtlSeconds`).
   * Emits no event: the caller (the grants API) records who revoked it.
   */
  readonly revokeGrant: (grantId: string) => Promise<void>;
}

/** The protocol paths oidc-provider answers, Hono patterns. */
const PROVIDER_PATHS = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  ROUTES.authorization,
  `${ROUTES.authorization}/*`,
  ROUTES.token,
  ROUTES.registration,
  ROUTES.revocation,
  ROUTES.jwks,
];

/**
 * oidc-provider 9 prints "Unsupported runtime. Use Node.js v22.x LTS" when it loads on Node 20. The gateway
 * supports Node 20.19 (package.json engines): CI runs the authorization server's tests and the OAuth client
 * matrix on 20, 22 and 24. That one line, printed at a person's first sign-in, is therefore dropped, knowingly
 * (docs/operations.md, "Supported Node.js versions"); every other warning passes.
 */
const UNSUPPORTED_RUNTIME = 'oidc-provider WARNING: Unsupported runtime';
const importQuietly = async () => {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith(UNSUPPORTED_RUNTIME)) return;
    warn(...args);
  };
  try {
    return await import('oidc-provider');
  } finally {
    console.warn = warn;
  }
};

const issuerOf = (issuer: string): URL => {
  const url = new URL(issuer);
  if (url.pathname !== '/' || url.search || url.hash)
    throw new Error(`the OAuth issuer is an origin without a path (got ${issuer}); serve the gateway at its root`);
  return url;
};

export const createAuthorizationServer = (options: AuthorizationServerOptions): AuthorizationServer => {
  const issuerUrl = issuerOf(options.issuer);
  const issuer = issuerUrl.origin;
  const serviceName = options.serviceName ?? 'Tool Gateway';
  const accessTokenTtlSeconds = options.accessTokenTtlSeconds ?? 600;
  const onEvent = options.onEvent ?? (() => undefined);
  const onError = options.onError ?? (() => undefined);
  if (!options.signingKeys.length) throw new Error('the authorization server needs a signing key');

  const settings = {
    resource: options.resource,
    scopes: options.scopes,
    signingKeys: options.signingKeys,
    cookieKeys: options.cookieKeys,
    // A store that fails answers 503 with Retry-After (store-outage.ts), not oidc-provider's 500.
    adapter: options.adapter && outageAwareAdapter(options.adapter),
    accessTokenTtlSeconds,
    refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? 30 * 86_400,
    clients: options.clients ?? [],
    registration: options.registration ?? true,
    clientIdMetadataDocuments: options.clientIdMetadataDocuments,
    accountStanding: options.accountStanding ?? (() => Promise.resolve({ kind: 'unknown' } as const)),
    onAccountGone: (account: { tenant: string; principalId: string }, clientId: string) =>
      onEvent({ type: 'account_gone', tenant: account.tenant, principalId: account.principalId, clientId }),
    serviceName,
  };

  const made = async () => {
    const { default: ProviderClass, errors } = await importQuietly();
    const provider = new ProviderClass(issuer, providerConfiguration(settings, errors));
    // The Host and scheme are pinned to the issuer's below, so the metadata and every URL the provider
    // writes name the issuer, whatever Host header a request carried.
    provider.proxy = true;
    answerOutagesOf(provider);
    provider.on('server_error', (_ctx, error) => onError(error));
    provider.on('grant.revoked', (_ctx, grantId: string) => onEvent({ type: 'grant_revoked', grantId }));
    provider.on('grant.error', (ctx, error: Error) => {
      const refresh = ctx.oidc?.entities?.RefreshToken;
      if (refresh?.consumed && /grant request is invalid/.test(error.message))
        onEvent({ type: 'refresh_token_reused', clientId: refresh.clientId ?? '', grantId: refresh.grantId ?? '' });
    });
    return { provider, listener: provider.callback() };
  };
  let making: ReturnType<typeof made> | undefined;
  const instance = () =>
    (making ??= made().catch((error: unknown) => {
      making = undefined;
      throw error;
    }));
  const provider = async () => (await instance()).provider;

  const defaultScope = options.scopes.join(' ');

  const toProvider = async (c: Context) => {
    const env = c.env as Partial<HttpBindings> | undefined;
    if (!env?.incoming || !env.outgoing)
      throw new Error('the authorization server is served by @hono/node-server (it needs the Node request)');
    const { listener } = await instance();
    const req = env.incoming as IncomingMessage;
    req.headers['host'] = issuerUrl.host;
    req.headers['x-forwarded-host'] = issuerUrl.host;
    req.headers['x-forwarded-proto'] = issuerUrl.protocol.slice(0, -1);
    // RFC 6749 3.3: a request without `scope` is for the default, every permission (narrowed at consent).
    if (req.method === 'GET' && c.req.path === ROUTES.authorization) {
      const url = new URL(req.url ?? '/', issuer);
      if (!url.searchParams.get('scope')) {
        url.searchParams.set('scope', defaultScope);
        req.url = `${url.pathname}${url.search}`;
      }
    }
    await listener(req, env.outgoing as ServerResponse);
    return RESPONSE_ALREADY_SENT;
  };

  const routes = new Hono();
  if (options.limits)
    authorizationLimits(routes, {
      settings: options.limits,
      onLimited: options.onLimited ?? (() => undefined),
      onError,
    });
  answerOutagesOn(routes, ['/oauth/interaction/*']);
  for (const path of PROVIDER_PATHS) routes.all(path, toProvider);
  const remembered = options.rememberedGrants;
  const federation =
    options.openIdProvider && openIdFederation(options.openIdProvider, { issuer, cookieKeys: options.cookieKeys });
  interactionRoutes(routes, {
    provider,
    resource: options.resource,
    scopes: options.scopes,
    verifyApiKey: options.verifyApiKey,
    seal: signInSeal(options.cookieKeys),
    serviceName,
    demoHint: options.demoHint ?? false,
    onEvent,
    rememberedGrants:
      remembered &&
      ((account: string, client: string) =>
        remembered(account, client).catch((error: unknown) => {
          throw new StoreUnavailable(error);
        })),
    ...(federation ? { federation, issuer, onError } : {}),
  });

  const verifyAccessToken = accessTokenVerifier({
    issuer,
    resource: options.resource,
    keys: options.signingKeys,
    ...(options.accountStanding ? { accountStanding: options.accountStanding } : {}),
    ...(options.grantExists ? { grantExists: options.grantExists } : {}),
    ...(options.revocationCheckSeconds !== undefined ? { revocationCheckSeconds: options.revocationCheckSeconds } : {}),
    onCheckError: onError,
  });

  return {
    routes,
    paths: [...PROVIDER_PATHS, '/oauth/interaction/*', ...(options.openIdProvider ? [FEDERATION_CALLBACK] : [])],
    issuer,
    resource: options.resource,
    metadataUrl: `${issuer}/.well-known/oauth-authorization-server`,
    verifyAccessToken,
    jwks: publicJwks(options.signingKeys),
    federation,
    provider,
    revokeGrant: async (grantId) => {
      const p = await provider();
      await Promise.all(
        [p.AccessToken, p.RefreshToken, p.AuthorizationCode].map((model) => model.revokeByGrantId(grantId)),
      );
      await p.Grant.adapter.destroy(grantId);
      verifyAccessToken.forgetGrant(grantId);
    },
  };
};
