import { randomBytes } from 'node:crypto';
import type { Clock } from '../../../ports/clock.js';
import { podioError, TOKEN_PATH, type PodioIssuedToken, type PodioReply } from './podio-protocol.js';

// The Podio stand-in's OAuth: the token endpoint's grants (app, password, refresh_token) and the access and
// refresh tokens it has issued.

type Json = Record<string, unknown>;

const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u);
const token = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

export interface PodioTokenOptions {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Seconds an access token lives (Podio: 28800). */
  readonly expiresIn?: number;
  /** Answer each refresh with a new refresh token and forget the old one. */
  readonly rotateRefreshToken?: boolean;
  /** Users the password grant accepts. */
  readonly users?: readonly { readonly username: string; readonly password: string; readonly userId: number }[];
  /** Apps the app grant accepts. */
  readonly apps?: readonly { readonly appId: number; readonly appToken: string }[];
  /** Refresh tokens accepted from the start, each for a user. */
  readonly refreshTokens?: readonly { readonly refreshToken: string; readonly userId: number }[];
}

export class PodioTokens {
  readonly issued: PodioIssuedToken[] = [];
  readonly clientId: string;
  readonly clientSecret: string;
  expiresIn: number;
  rotateRefreshToken: boolean;

  readonly #clock: Clock;
  readonly #users: NonNullable<PodioTokenOptions['users']>;
  readonly #apps: NonNullable<PodioTokenOptions['apps']>;
  readonly #access = new Map<string, PodioIssuedToken>();
  readonly #refresh = new Map<string, PodioIssuedToken['ref']>();

  constructor(clock: Clock, options: PodioTokenOptions) {
    this.#clock = clock;
    this.#users = options.users ?? [];
    this.#apps = options.apps ?? [];
    this.clientId = options.clientId ?? 'gateway-local';
    this.clientSecret = options.clientSecret ?? 'local-client-secret-123';
    this.expiresIn = options.expiresIn ?? 28_800;
    this.rotateRefreshToken = options.rotateRefreshToken ?? false;
    for (const r of options.refreshTokens ?? []) this.#refresh.set(r.refreshToken, { type: 'user', id: r.userId });
  }

  /** The issued access token, or undefined when it was never issued. */
  access(accessToken: string): PodioIssuedToken | undefined {
    return this.#access.get(accessToken);
  }

  /** Every access token issued so far expires now. */
  expireAll(): void {
    const now = this.#clock.now().getTime();
    for (const [k, v] of this.#access) this.#access.set(k, { ...v, expiresAt: now });
  }

  readonly #codes = new Map<string, { userId: number; redirectUri: string }>();

  /** What podio.com does when a user approves the app: a single-use code for the redirect. */
  grantCode(userId: number, redirectUri: string): string {
    const code = token('podio-code-');
    this.#codes.set(code, { userId, redirectUri });
    return code;
  }

  revokeRefreshToken(refreshToken: string): void {
    this.#refresh.delete(refreshToken);
  }

  /** POST /oauth/token/v2 with the refresh_token, password or app grant; departures go to `violations`. */
  token(body: unknown, violations: string[]): PodioReply {
    const req = { method: 'POST', path: TOKEN_PATH };
    if (!isObject(body)) {
      violations.push('token request without a JSON object body');
      return { status: 400, body: podioError('invalid_request', 'The request body must be a JSON object', req) };
    }
    if (body['client_id'] !== this.clientId || body['client_secret'] !== this.clientSecret) {
      return { status: 401, body: podioError('invalid_client', 'Invalid client_id or client_secret', req) };
    }
    const grant = body['grant_type'];
    if (grant === 'authorization_code') {
      const code = this.#codes.get(String(body['code'] ?? ''));
      if (!code || code.redirectUri !== body['redirect_uri'])
        return { status: 400, body: podioError('invalid_grant', 'Invalid code or redirect_uri', req) };
      this.#codes.delete(String(body['code']));
      return { status: 200, body: this.issue('authorization_code', { type: 'user', id: code.userId }, undefined) };
    }
    if (grant === 'refresh_token') {
      const rt = String(body['refresh_token'] ?? '');
      const ref = this.#refresh.get(rt);
      if (!ref) return { status: 400, body: podioError('invalid_grant', 'Invalid refresh_token', req) };
      if (this.rotateRefreshToken) this.#refresh.delete(rt);
      return { status: 200, body: this.issue('refresh_token', ref, this.rotateRefreshToken ? undefined : rt) };
    }
    if (grant === 'password') {
      const user = this.#users.find((u) => u.username === body['username'] && u.password === body['password']);
      if (!user) return { status: 400, body: podioError('invalid_grant', 'Invalid user credentials', req) };
      return { status: 200, body: this.issue('password', { type: 'user', id: user.userId }, undefined) };
    }
    if (grant === 'app') {
      const app = this.#apps.find(
        (a) => String(a.appId) === String(body['app_id']) && a.appToken === body['app_token'],
      );
      if (!app) return { status: 400, body: podioError('invalid_grant', 'Invalid app credentials', req) };
      return { status: 200, body: this.issue('app', { type: 'app', id: app.appId }, undefined) };
    }
    violations.push(`token request with grant_type ${String(grant)}`);
    return { status: 400, body: podioError('unsupported_grant_type', 'Unsupported grant type', req) };
  }

  issue(grantType: string, ref: PodioIssuedToken['ref'], keepRefresh: string | undefined): Json {
    const issued: PodioIssuedToken = {
      accessToken: token('podio-at-'),
      refreshToken: keepRefresh ?? token('podio-rt-'),
      grantType,
      ref,
      expiresAt: this.#clock.now().getTime() + this.expiresIn * 1000,
    };
    this.#access.set(issued.accessToken, issued);
    this.#refresh.set(issued.refreshToken, ref);
    this.issued.push(issued);
    return {
      access_token: issued.accessToken,
      token_type: 'bearer',
      expires_in: this.expiresIn,
      refresh_token: issued.refreshToken,
      ref,
      scope: 'global:all',
    };
  }
}
