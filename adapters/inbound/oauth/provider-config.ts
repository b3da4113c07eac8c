import type { AdapterFactory, ClientMetadata, Configuration, KoaContextWithOIDC, ResourceServer } from 'oidc-provider';
import type * as oidc from 'oidc-provider';
import {
  stillAllowed,
  type AccountStanding,
  type AccountStandingOf,
} from '../../../application/identity/account-standing.js';
import { accountIdOf, accountOf } from '../../../application/identity/sign-in.js';
import { ACCOUNT_CLAIM, GRANT_CLAIM, TENANT_CLAIM } from './access-tokens.js';
import { errorPage } from './pages.js';
import type { SigningJwk } from './signing-keys.js';

// oidc-provider's configuration for the gateway: an OAuth 2.1 authorization server for one protected
// resource (the gateway's MCP URL), authorization code with PKCE S256 only, JWT access tokens for that
// resource, rotating refresh tokens, revocation, dynamic registration and (optionally) Client ID Metadata
// Documents. The sign-in and consent pages are the gateway's own (interaction-routes.ts).

/** The endpoints, at the issuer's root (advertised in the metadata). */
export const ROUTES = {
  authorization: '/authorize',
  token: '/token',
  registration: '/register',
  revocation: '/revoke',
  jwks: '/oauth/jwks',
  // Not enabled; given paths under /oauth so that none takes a path the gateway uses.
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  end_session: '/oauth/session/end',
  pushed_authorization_request: '/oauth/par',
  device_authorization: '/oauth/device/auth',
  code_verification: '/oauth/device',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
  credential: '/oauth/credential',
} as const;

/** Where the sign-in and consent pages live: `/oauth/interaction/{uid}`. */
export const INTERACTION_PREFIX = '/oauth/interaction';

export interface ProviderSettings {
  readonly resource: string;
  /** Every scope a token may carry (the gateway's permissions). */
  readonly scopes: readonly string[];
  readonly signingKeys: readonly SigningJwk[];
  readonly cookieKeys: readonly string[];
  readonly adapter: AdapterFactory | undefined;
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  readonly clients: readonly ClientMetadata[];
  readonly registration: boolean;
  readonly clientIdMetadataDocuments:
    | {
        readonly allowFetch?: (clientId: string) => boolean | Promise<boolean>;
        readonly fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
      }
    | undefined;
  /** Is the account still there, and with which permissions (asked at every sign-in and refresh)? */
  readonly accountStanding: AccountStandingOf;
  /** A refresh was refused because its account is gone (for the audit log). */
  readonly onAccountGone: (account: { tenant: string; principalId: string }, clientId: string) => void;
  readonly serviceName: string;
}

const CIMD_DRAFT = 'draft-02';

/** Hosts a plain-http redirect URI may name (RFC 8252 7.3; a person's own machine). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** oidc-provider's errors, from the module loaded on first use (authorization-server.ts). */
export type ProviderErrors = typeof oidc.errors;

export const providerConfiguration = (s: ProviderSettings, errors: ProviderErrors): Configuration => {
  const resourceServer: ResourceServer = {
    scope: s.scopes.join(' '),
    audience: s.resource,
    accessTokenTTL: s.accessTokenTtlSeconds,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: 'ES256' } },
  };
  /** The account of an access token (a client credentials token has none; this server issues none). */
  const accountOfToken = (token: object) =>
    'accountId' in token && typeof token.accountId === 'string' ? accountOf(token.accountId) : undefined;
  const cimd = s.clientIdMetadataDocuments;
  const offered = new Set(['openid', 'offline_access', ...s.scopes]);
  return {
    adapter: s.adapter,
    clients: [...s.clients],
    jwks: { keys: s.signingKeys.map((k) => ({ ...k })) },
    cookies: {
      keys: [...s.cookieKeys],
      names: { session: 'oauth_session', interaction: 'oauth_interaction', resume: 'oauth_resume' },
    },
    routes: { ...ROUTES },
    responseTypes: ['code'],
    // OAuth 2.1: the redirect_uri is always sent and matched exactly.
    allowOmittingSingleRegisteredRedirectUri: false,
    pkce: { required: () => true },
    // The gateway's permissions are listed as the server's scopes too: dynamic registration accepts only
    // these in a client's `scope` (the MCP SDK registers with the resource's scopes_supported), and the
    // metadata advertises them. The consent grants them both ways (interaction-routes.ts).
    scopes: [...offered],
    // What a client registers (or its metadata document, or the operator's configuration) says in `scope` is
    // what it asks for first, not the most it may ever hold: oidc-provider refuses an authorization request
    // for a scope outside a client's registered `scope`, which would leave a client that registered with the
    // read scopes of the first challenge unable to step up to writes. Every client is therefore recorded with
    // every scope the server offers (a `scope` naming an unknown scope is left as sent, so that registration
    // refuses it); the limits are the signing-in key's permissions and what the person ticks at consent.
    extraClientMetadata: {
      properties: ['scope'],
      validator: (_ctx, key, value, metadata) => {
        if (key !== 'scope') return;
        const asked = typeof value === 'string' ? value.split(' ').filter(Boolean) : [];
        if (asked.every((scope) => offered.has(scope))) metadata['scope'] = [...offered].join(' ');
        // A web client's codes travel over the network to its redirect URI: https only, loopback aside
        // (oidc-provider itself allows plain http for a web client of the code flow).
        if ((metadata.application_type ?? 'web') === 'web')
          for (const uri of metadata.redirect_uris ?? []) {
            const url = URL.parse(uri);
            if (url?.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
              throw new errors.InvalidClientMetadata(
                'redirect_uris of a web client must use https (plain http only for localhost, 127.0.0.1 or [::1])',
              );
          }
      },
    },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      // A client revokes only its own tokens (another's is answered 200 and left alone, RFC 7009 2.2).
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx: KoaContextWithOIDC, client, token) => token.clientId === client.clientId,
      },
      // Open registration (RFC 7591). No registration access token: management (RFC 7592) is off, so one would
      // only be a row kept forever.
      registration: { enabled: s.registration, issueRegistrationAccessToken: false },
      resourceIndicators: {
        enabled: true,
        // A request without `resource` is for the gateway's MCP endpoint, the one resource this server serves.
        defaultResource: () => s.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx: KoaContextWithOIDC, indicator: string) => {
          if (indicator !== s.resource)
            throw new errors.InvalidTarget(`this server issues tokens only for ${s.resource}`);
          // A token (at a refresh above all) carries only what the account's permissions still allow: a
          // key narrowed since the consent narrows every token minted afterwards.
          const standing = (ctx.oidc?.account as { standing?: AccountStanding } | undefined)?.standing;
          return standing ? { ...resourceServer, scope: stillAllowed(s.scopes, standing).join(' ') } : resourceServer;
        },
      },
      clientIdMetadataDocument: cimd
        ? {
            enabled: true,
            ack: CIMD_DRAFT,
            allowFetch: async (_ctx: KoaContextWithOIDC, clientId: string) =>
              cimd.allowFetch ? cimd.allowFetch(clientId) : true,
          }
        : { enabled: false },
    },
    ...(cimd?.fetch ? { fetch: cimd.fetch } : {}),
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `${INTERACTION_PREFIX}/${interaction.uid}` },
    // A removed key's account is not found: its refresh tokens are refused (invalid_grant) and its sessions end.
    findAccount: async (ctx: KoaContextWithOIDC, accountId: string) => {
      const account = accountOf(accountId);
      if (!account) return undefined;
      const standing = await s.accountStanding(account);
      if (standing.kind === 'gone') {
        const refreshing = ctx.oidc?.entities.RefreshToken;
        if (refreshing) s.onAccountGone(account, refreshing.clientId ?? '');
        return undefined;
      }
      return { accountId, standing, claims: () => ({ sub: accountId }) };
    },
    // A refresh token for every client allowed the grant, with or without `offline_access`.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Rotated on every use; presenting a consumed one revokes the grant (oidc-provider's reuse detection).
    rotateRefreshToken: true,
    // Refresh tokens outlive the browser session that signed in.
    expiresWithSession: () => false,
    ttl: {
      AccessToken: s.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      RefreshToken: s.refreshTokenTtlSeconds,
      Grant: Math.max(s.refreshTokenTtlSeconds, 365 * 86_400),
      Interaction: 10 * 60,
      Session: 86_400,
      IdToken: 600,
    },
    extraTokenClaims: (_ctx, token) => {
      const account = accountOfToken(token);
      if (!account) return undefined;
      // The grant, so that a check of the token can tell its grant was revoked (access-tokens.ts).
      const grantId = 'grantId' in token && typeof token.grantId === 'string' ? token.grantId : undefined;
      return {
        [TENANT_CLAIM]: account.tenant,
        [ACCOUNT_CLAIM]: accountIdOf(account),
        ...(grantId ? { [GRANT_CLAIM]: grantId } : {}),
      };
    },
    formats: {
      customizers: {
        // `sub` is the principal id the gateway already knows (the key's), not the account id.
        jwt: (_ctx, token, parts) => {
          const account = accountOfToken(token);
          if (account) parts.payload.sub = account.principalId;
        },
      },
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
      ctx.body = errorPage(
        `${s.serviceName}: the request was refused`,
        `${out.error}${out.error_description ? `: ${out.error_description}` : ''}. Start again from your app.`,
      );
    },
  };
};
