import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

// A local OpenID provider standing in for Okta, Entra ID, Google or Keycloak: oidc-provider itself, on
// 127.0.0.1, with its development sign-in pages (any password; the login names an account below) and one
// confidential client, the gateway. Its accounts' claims carry a tenant and gateway permissions, and go into
// the ID token. The test holds its signing key, to mint ID tokens that are genuine but wrong.

export const STANDIN_CLIENT = { id: 'tool-gateway', secret: 'tool-gateway-secret-0123456789' };

/** The people at the provider: their claims beyond `sub`. */
export const ACCOUNTS: Record<string, Record<string, unknown>> = {
  alice: { name: 'Alice Example', tenant: 'acme', gateway_permissions: ['crm:read', 'files:read'] },
  bob: { name: 'Bob Example', tenant: 'globex', gateway_permissions: 'crm:* records:read' },
  mallory: { name: 'Mallory', tenant: 'acme corp!', gateway_permissions: ['*'] },
  nobody: { name: 'No Tenant', gateway_permissions: ['crm:read'] },
};

export interface StandIn {
  readonly issuer: string;
  /** Sets up the provider once the gateway's callback URL is known. */
  configure(redirectUri: string): Promise<void>;
  /** Signs claims with the provider's own key (a genuine signature). */
  sign(payload: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export const startStandIn = async (): Promise<StandIn> => {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'standin-1', alg: 'RS256', use: 'sig' };
  return {
    issuer,
    configure: async (redirectUri) => {
      const { default: Provider } = await import('oidc-provider');
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: STANDIN_CLIENT.id,
            client_secret: STANDIN_CLIENT.secret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        jwks: { keys: [jwk] },
        claims: { openid: ['sub', 'tenant', 'gateway_permissions'], profile: ['name'], email: ['email'] },
        // The scope's claims in the ID token itself (as Okta, Entra ID and Keycloak can be configured to do).
        conformIdTokenClaims: false,
        features: { devInteractions: { enabled: true } },
        ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
        findAccount: (_ctx, id) => {
          const claims = ACCOUNTS[id];
          return claims ? { accountId: id, claims: () => ({ sub: id, ...claims }) } : undefined;
        },
      });
      const listener = provider.callback();
      handler = (req, res) => void listener(req, res);
    },
    sign: (payload) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: 'standin-1', typ: 'JWT' }).sign(privateKey),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** A browser keeping cookies per name (paths and ports ignored), which a test may also set by hand. */
export class Jar {
  readonly cookies = new Map<string, string>();

  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0\b/i.test(line) || value === '')
        this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  post(url: string, form: Record<string, string | string[]>): Promise<Response> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    return this.go(url, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }
}

/**
 * A person at the stand-in's development pages: signs in as `login` (or cancels) and consents, following
 * the provider's redirects until one leaves it. Returns that redirect (the gateway's callback).
 */
export const signInAtProvider = async (
  jar: Jar,
  authorizationUrl: string,
  issuer: string,
  login: string | { abort: true },
): Promise<URL> => {
  let res = await jar.go(authorizationUrl);
  for (let step = 0; step < 12; step++) {
    const to = res.headers.get('location');
    if (to) {
      const next = new URL(to, issuer);
      if (next.origin !== new URL(issuer).origin) return next;
      res = await jar.go(next.href);
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`the provider answered ${res.status}: ${html}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at the provider: ${html}`);
    if (typeof login !== 'string') {
      const abort = /href="([^"]*abort[^"]*)"/.exec(html)?.[1];
      if (!abort) throw new Error('no abort link at the provider');
      res = await jar.go(new URL(abort.replace(/&amp;/g, '&'), issuer).href);
    } else if (html.includes('name="login"')) {
      res = await jar.post(new URL(action, issuer).href, { prompt: 'login', login, password: 'any' });
    } else {
      res = await jar.post(new URL(action, issuer).href, { prompt: 'consent' });
    }
  }
  throw new Error('the provider never sent the browser back');
};
