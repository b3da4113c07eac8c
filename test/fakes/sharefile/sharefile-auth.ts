import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { LoggedRequest, Responder, Violation } from './exchange.js';

// The ShareFile stand-in's OAuth: the refresh grant at /oauth/token (form-encoded, a new refresh token with
// every access token) and the bearer check of every API call.

export const SHAREFILE_TEST_CLIENT = {
  clientId: 'sf-client-id',
  clientSecret: 'sf-client-secret',
  refreshToken: 'sf-refresh-token-1',
};

/** An access token the stand-in accepts without the token endpoint. */
const STATIC_TOKEN = 'sf-static-token';

export class ShareFileAuth {
  #counter = 0;
  #refreshToken = SHAREFILE_TEST_CLIENT.refreshToken;
  readonly #codes = new Set<string>();

  /** What secure.sharefile.com does when a person approves the app: a single-use code for the redirect. */
  grantCode(): string {
    const code = `sf-code-${++this.#counter}`;
    this.#codes.add(code);
    return code;
  }

  constructor(
    private readonly issuedTokens: string[],
    private readonly violations: Violation[],
    private readonly reply: Responder,
  ) {}

  /** POST /oauth/token. */
  token(res: ServerResponse, logged: LoggedRequest, text: string): void {
    const problems: string[] = [];
    // The .NET SDK puts requirev3=true on the token URL of every grant.
    if (logged.query.get('requirev3') !== 'true') problems.push('the token URL must carry requirev3=true');
    if (!(logged.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      problems.push('the token request must be form-encoded');
    const form = new URLSearchParams(text);
    const keys = [...form.keys()].sort();
    // The .NET SDK's fields: the refresh grant, or the code grant (GetAuthorizationCodeForTokenQuery: no redirect_uri).
    const expected =
      form.get('grant_type') === 'authorization_code'
        ? 'client_id,client_secret,code,grant_type'
        : 'client_id,client_secret,grant_type,refresh_token';
    if (keys.join(',') !== expected) problems.push(`form fields ${keys.join(',')}`);
    if (problems.length) {
      this.violations.push({ method: logged.method, path: logged.path, problems });
      return this.reply.send(res, 400, { error: 'invalid_request', error_description: problems.join('; ') });
    }
    const byCode = form.get('grant_type') === 'authorization_code' && this.#codes.delete(form.get('code') ?? '');
    if (
      (!byCode && (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== this.#refreshToken)) ||
      form.get('client_id') !== SHAREFILE_TEST_CLIENT.clientId ||
      form.get('client_secret') !== SHAREFILE_TEST_CLIENT.clientSecret
    ) {
      return this.reply.send(res, 400, {
        error: 'invalid_grant',
        error_description: 'The refresh token is invalid or expired.',
      });
    }
    const token = `sf-access-${++this.#counter}`;
    this.issuedTokens.push(token);
    this.#refreshToken = `sf-refresh-token-${this.#counter + 1}`;
    return this.reply.send(res, 200, {
      access_token: token,
      refresh_token: this.#refreshToken,
      token_type: 'bearer',
      expires_in: 28800,
      subdomain: 'harborline',
      apicp: 'sf-api.com',
      appcp: 'sharefile.com',
    });
  }

  /** Answers 401 and returns false unless the call carries a token the stand-in issued (or the static one). */
  admit(res: ServerResponse, headers: IncomingHttpHeaders): boolean {
    const auth = /^Bearer (\S+)$/.exec(headers.authorization ?? '');
    if (auth && (this.issuedTokens.includes(auth[1]!) || auth[1] === STATIC_TOKEN)) return true;
    this.reply.send(
      res,
      401,
      { code: 'Unauthorized', message: { lang: 'en-US', value: 'Authorization failed' } },
      { 'www-authenticate': 'Bearer' },
    );
    return false;
  }
}
