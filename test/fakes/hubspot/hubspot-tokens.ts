import { createHash, randomUUID } from 'node:crypto';
import type { Clock } from '../../../ports/clock.js';
import { errorBody, MISSING_CREDENTIALS } from './hubspot-bodies.js';
import type { Reply } from './request-check.js';
import type { Operation } from './spec-catalogue.js';

// The HubSpot stand-in's tokens: private-app tokens, the OAuth refresh grant (POST /oauth/2026-03/token, and the deprecated /oauth/v1/token) with
// expiring access tokens, and the scope check of every authenticated call.

/** The private-app token the stand-in accepts unless told otherwise. */
export const HUBSPOT_TEST_TOKEN = 'pat-na1-11111111-2222-3333-4444-555555555555';

export interface IssuedToken {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresIn: number;
  readonly issuedAt: Date;
}

export interface OAuthAppSettings {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Refresh tokens the stand-in accepts at first. */
  readonly refreshTokens: readonly string[];
  /** Seconds an issued access token lives (HubSpot: 1800). */
  readonly expiresIn: number;
  /** Answer each refresh with a new refresh token (and forget the old one). */
  readonly rotateRefreshToken: boolean;
}

export interface TokenOptions {
  /** Private-app tokens accepted for as long as the server runs. */
  readonly accessTokens?: readonly string[];
  readonly oauth?: Partial<OAuthAppSettings>;
  /** Scopes every token holds; every scope when absent. */
  readonly grantedScopes?: readonly string[];
  readonly hubId?: number;
}

export class HubSpotTokens {
  /** Every OAuth token pair the token endpoint issued. */
  readonly issued: IssuedToken[] = [];
  readonly oauth: OAuthAppSettings;
  readonly hubId: number;

  readonly #clock: Clock;
  readonly #staticTokens: Set<string>;
  readonly #granted: ReadonlySet<string> | undefined;
  readonly #accessTokens = new Map<string, number>();
  readonly #refreshTokens: Set<string>;

  constructor(clock: Clock, options: TokenOptions) {
    this.#clock = clock;
    this.#staticTokens = new Set(options.accessTokens ?? [HUBSPOT_TEST_TOKEN]);
    this.#granted = options.grantedScopes ? new Set(options.grantedScopes) : undefined;
    this.oauth = {
      clientId: 'local-client-id',
      clientSecret: 'local-client-secret',
      refreshTokens: ['local-refresh-token'],
      expiresIn: 1800,
      rotateRefreshToken: false,
      ...options.oauth,
    };
    this.#refreshTokens = new Set(this.oauth.refreshTokens);
    this.hubId = options.hubId ?? 4242;
  }

  revokeRefreshToken(token: string): void {
    this.#refreshTokens.delete(token);
  }

  /** Refresh tokens HubSpot still honours (a revoked one is gone). */
  isLiveRefreshToken(token: string): boolean {
    return this.#refreshTokens.has(token);
  }

  readonly #codes = new Map<string, { redirectUri: string; codeChallenge?: string }>();

  /** What app.hubspot.com does when a person approves the app: a single-use code for the redirect. */
  grantCode(p: { redirectUri: string; codeChallenge?: string }): string {
    const code = `local-code-${randomUUID()}`;
    this.#codes.set(code, p);
    return code;
  }

  /** POST /oauth/2026-03/token/revoke: forgets the refresh token. */
  revoke(form: Record<string, string>): Reply {
    if (form['client_id'] !== this.oauth.clientId || form['client_secret'] !== this.oauth.clientSecret)
      return {
        status: 400,
        body: { status: 'BAD_CLIENT_ID', message: 'missing or unknown client', correlationId: randomUUID() },
      };
    this.#refreshTokens.delete(form['token'] ?? '');
    return { status: 204, body: undefined };
  }

  #exchangeCode(form: Record<string, string>, bad: (status: string, message: string) => Reply): Reply | string {
    const grant = this.#codes.get(form['code'] ?? '');
    if (!grant) return bad('BAD_AUTH_CODE', 'missing or unknown auth code');
    this.#codes.delete(form['code']!);
    if (form['redirect_uri'] !== grant.redirectUri) return bad('BAD_REDIRECT_URI', 'redirect_uri does not match');
    if (grant.codeChallenge !== undefined) {
      const verifier = form['code_verifier'] ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (challenge !== grant.codeChallenge) return bad('BAD_CODE_VERIFIER', 'code_verifier does not match');
    }
    const refreshToken = `local-refresh-${randomUUID()}`;
    this.#refreshTokens.add(refreshToken);
    return refreshToken;
  }

  /** POST /oauth/v1/token with the refresh_token grant. */
  token(form: Record<string, string>): Reply {
    const bad = (status: string, message: string): Reply => ({
      status: 400,
      body: { status, message, correlationId: randomUUID(), requestId: randomUUID() },
    });
    const grantType = form['grant_type'];
    if (grantType !== 'refresh_token' && grantType !== 'authorization_code')
      return bad('BAD_GRANT_TYPE', 'the local stand-in supports grant_type=refresh_token and authorization_code');
    if (form['client_id'] !== this.oauth.clientId) return bad('BAD_CLIENT_ID', 'missing or unknown client id');
    if (form['client_secret'] !== this.oauth.clientSecret)
      return bad('BAD_CLIENT_SECRET', 'missing or invalid client secret');
    let presented = form['refresh_token'] ?? '';
    if (grantType === 'authorization_code') {
      const exchanged = this.#exchangeCode(form, bad);
      if (typeof exchanged !== 'string') return exchanged;
      presented = exchanged;
    }
    if (!this.#refreshTokens.has(presented)) return bad('BAD_REFRESH_TOKEN', 'missing or unknown refresh token');
    let refreshToken = presented;
    if (this.oauth.rotateRefreshToken) {
      refreshToken = `local-refresh-${randomUUID()}`;
      this.#refreshTokens.delete(presented);
      this.#refreshTokens.add(refreshToken);
    }
    const issuedAt = this.#clock.now();
    const accessToken = `local-access-${randomUUID()}`;
    this.#accessTokens.set(accessToken, issuedAt.getTime() + this.oauth.expiresIn * 1000);
    this.issued.push({ accessToken, refreshToken, expiresIn: this.oauth.expiresIn, issuedAt });
    return {
      status: 200,
      body: {
        token_type: 'bearer',
        refresh_token: refreshToken,
        access_token: accessToken,
        expires_in: this.oauth.expiresIn,
        hub_id: this.hubId,
        user_id: 1,
        token_use: 'access_token',
      },
    };
  }

  /** HubSpot's 401 or 403 for the Authorization header, or undefined when the call may proceed. */
  authorise(op: Operation, header: string): Reply | undefined {
    const token = header.replace(/^Bearer /, '');
    if (!this.#staticTokens.has(token)) {
      const expiresAt = this.#accessTokens.get(token);
      if (expiresAt === undefined) {
        return { status: 401, body: errorBody(MISSING_CREDENTIALS, 'INVALID_AUTHENTICATION') };
      }
      const now = this.#clock.now().getTime();
      if (now >= expiresAt) {
        return {
          status: 401,
          body: errorBody(
            `The OAuth token used to make this call expired ${Math.ceil((now - expiresAt) / 1000)} second(s) ago.`,
            'EXPIRED_AUTHENTICATION',
          ),
        };
      }
    }
    const granted = this.#granted;
    if (!granted || op.scopes.length === 0 || op.scopes.some((alt) => alt.every((s) => granted.has(s))))
      return undefined;
    return {
      status: 403,
      body: errorBody(
        "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
        'MISSING_SCOPES',
        {
          errors: [
            {
              message: 'One or more of the following scopes are required.',
              context: { requiredGranularScopes: [...(op.scopes[0] ?? [])] },
            },
          ],
          links: { scopes: 'https://developers.hubspot.com/scopes' },
        },
      ),
    };
  }
}
