import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type * as OpenIdClient from 'openid-client';
import { signedInFromIdToken, type ClaimMapping } from '../../../application/identity/oidc-sign-in.js';
import type { SignedIn } from '../../../application/identity/sign-in.js';
import { TENANT_ID } from '../../../ports/authenticator.js';

// Signing in at the gateway's authorization server through an external OpenID Connect provider (Okta, Entra
// ID, Google, Keycloak...), with openid-client: an authorization code flow with PKCE, state and nonce, from the
// provider's discovery document; the ID token is validated by openid-client (issuer, audience, nonce, expiry,
// and its signature against the provider's JWKS) and its claims mapped to a tenant, a principal and
// permissions (application/identity/oidc-sign-in.ts). State, nonce and PKCE verifier wait in a cookie of their
// own, encrypted (AES-256-GCM under a key derived from the cookie keys), bound to one interaction and ten
// minutes, and used once. openid-client is loaded on the first sign-in that uses it.

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface OpenIdProviderOptions extends ClaimMapping {
  /** The provider's issuer URL (its discovery document is `{issuer}/.well-known/openid-configuration`). */
  readonly issuer: string;
  readonly clientId: string;
  /** The client secret (client_secret_post); without one the client is public (PKCE only). */
  readonly clientSecret?: string;
  /** On the button: "Sign in with {name}". */
  readonly name: string;
  /** The scopes asked for (default `openid profile email`); `openid` is always asked. */
  readonly scope?: string;
  /**
   * Every request to the provider (discovery, token, JWKS) goes through this fetch when given: the gateway's
   * URL guard. Without it, the global fetch.
   */
  readonly fetch?: FetchLike;
}

/** The cookie holding one interaction's pending federation: `oauth_oidc_{uid}`. */
export const FEDERATION_COOKIE_PREFIX = 'oauth_oidc_';
/** The redirect URI registered at the provider: `{issuer}{FEDERATION_CALLBACK}`. */
export const FEDERATION_CALLBACK = '/oauth/oidc/callback';

/**
 * A federation started by the connect page (issue 43) rather than by an authorization interaction: its uid
 * starts with this, and the callback sends the browser on to CONNECT_FEDERATION_RETURN.
 */
export const CONNECT_FEDERATION_PREFIX = 'connect-';
export const CONNECT_FEDERATION_RETURN = '/connect/oidc/return';

const LIFETIME_MS = 10 * 60_000;

/** What waits in the cookie between the redirect to the provider and its callback. */
export interface Pending {
  readonly uid: string;
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
  readonly exp: number;
  /** Marks the cookie used (single use within this process; the provider's code is single use everywhere). */
  readonly id: string;
}

export interface Federation {
  readonly name: string;
  readonly redirectUri: string;
  /** Where to send the browser, and the sealed cookie value to set for `uid`. */
  start(uid: string): Promise<{ readonly url: string; readonly sealed: string }>;
  /** The pending federation in a cookie value, when genuine and not expired (not yet checked for reuse). */
  open(sealed: string, now?: number): Pending | undefined;
  /**
   * The callback's answer: validates it (state, `iss`, code exchange with the PKCE verifier, ID token) and maps
   * the claims. Marks `pending` used first, so a replay is refused even when this one fails.
   */
  finish(
    pending: Pending,
    callback: URL,
  ): Promise<{ readonly who: SignedIn } | { readonly refused: string; readonly cause?: unknown }>;
}

const isLoopback = (url: URL): boolean => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

const sealKeys = (secrets: readonly string[]): Buffer[] =>
  secrets.map((s) =>
    Buffer.from(hkdfSync('sha256', Buffer.from(s, 'utf8'), Buffer.alloc(0), 'tool-gateway/oidc-federation', 32)),
  );

const AAD = Buffer.from('tool-gateway/oidc-federation/v1');

export const openIdFederation = (
  options: OpenIdProviderOptions,
  gateway: { readonly issuer: string; readonly cookieKeys: readonly string[] },
): Federation => {
  const issuerUrl = new URL(options.issuer);
  if (issuerUrl.protocol !== 'https:' && !(issuerUrl.protocol === 'http:' && isLoopback(issuerUrl)))
    throw new Error(`the OpenID provider's issuer must be an https URL (got ${options.issuer})`);
  if (!options.clientId) throw new Error('the OpenID provider needs a client id');
  if (options.tenant !== undefined && !TENANT_ID.test(options.tenant))
    throw new Error(`the OpenID provider's fixed tenant is not a tenant id (got ${JSON.stringify(options.tenant)})`);
  const redirectUri = `${gateway.issuer}${FEDERATION_CALLBACK}`;
  const scope = [
    ...new Set(['openid', ...(options.scope ?? 'openid profile email').split(/\s+/).filter(Boolean)]),
  ].join(' ');
  const keys = sealKeys(gateway.cookieKeys);
  const [current] = keys;
  if (!current) throw new Error('the authorization server needs at least one cookie key');

  const seal = (p: Pending): string => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', current, iv).setAAD(AAD);
    const body = Buffer.concat([cipher.update(JSON.stringify(p), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  };
  const open = (sealed: string, now = Date.now()): Pending | undefined => {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < 29 || raw.length > 2048) return undefined;
    for (const key of keys) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12)).setAAD(AAD);
        decipher.setAuthTag(raw.subarray(12, 28));
        const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
        const p = JSON.parse(text) as Pending;
        if (typeof p.exp !== 'number' || p.exp < now || typeof p.uid !== 'string' || typeof p.state !== 'string')
          return undefined;
        return p;
      } catch {
        // another key, or not genuine
      }
    }
    return undefined;
  };

  // Cookies used in this process, until they expire anyway.
  const used = new Map<string, number>();
  const markUsed = (p: Pending, now: number): boolean => {
    for (const [id, exp] of used) if (exp < now) used.delete(id);
    if (used.has(p.id)) return false;
    used.set(p.id, p.exp);
    return true;
  };

  type Client = typeof OpenIdClient;
  const load = async (): Promise<{ client: Client; config: OpenIdClient.Configuration }> => {
    const client = await import('openid-client');
    const execute = issuerUrl.protocol === 'http:' ? [client.allowInsecureRequests] : [];
    const config = await client.discovery(issuerUrl, options.clientId, options.clientSecret, undefined, {
      execute,
      timeout: 10,
      ...(options.fetch ? { [client.customFetch]: options.fetch as OpenIdClient.CustomFetch } : {}),
    });
    // The ID token's signature is checked against the provider's JWKS too, not only trusted for coming over TLS.
    client.enableNonRepudiationChecks(config);
    return { client, config };
  };
  let loading: ReturnType<typeof load> | undefined;
  const loaded = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));

  return {
    name: options.name,
    redirectUri,
    start: async (uid) => {
      const { client, config } = await loaded();
      const verifier = client.randomPKCECodeVerifier();
      const pending: Pending = {
        uid,
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier,
        exp: Date.now() + LIFETIME_MS,
        id: randomBytes(16).toString('base64url'),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url: url.href, sealed: seal(pending) };
    },
    open,
    finish: async (pending, callback) => {
      if (!markUsed(pending, Date.now())) return { refused: 'this sign-in was already used' };
      let client: Client, config: OpenIdClient.Configuration;
      try {
        ({ client, config } = await loaded());
      } catch (cause) {
        return { refused: `${options.name} could not be reached`, cause };
      }
      let claims: Record<string, unknown> | undefined;
      try {
        const tokens = await client.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (error) {
        if (error instanceof client.AuthorizationResponseError)
          return { refused: `${options.name} did not sign you in (${error.error})` };
        // A refused ID token or code is the provider's word or an attack, not a failure of ours; a network or
        // server failure is logged.
        const protocol =
          error instanceof client.ResponseBodyError ||
          (error instanceof Error && /^OAUTH_/.test(String((error as { code?: unknown }).code)));
        return {
          refused: `the answer from ${options.name} could not be verified`,
          ...(protocol ? {} : { cause: error }),
        };
      }
      if (!claims) return { refused: `${options.name} sent no ID token` };
      const who = signedInFromIdToken(config.serverMetadata().issuer, claims, options);
      return 'reason' in who ? { refused: who.reason } : { who };
    },
  };
};
