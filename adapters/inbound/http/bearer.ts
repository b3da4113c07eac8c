import { isAuthFailure, type AuthFailure, type Authenticator, type Principal } from '../../../ports/authenticator.js';

// The one reader of `Authorization: Bearer <token>` (RFC 6750 section 2.1) for every inbound surface: the
// REST tool calls and listing (and so the reference page at /docs, which signs in through
// `GET /v1/tools?callable=true`), /mcp, /metrics, the connection routes and the share pages. Each surface
// words its own refusal (a JSON envelope, a JSON-RPC error, a page); what counts as a bearer token, and
// what the authenticator is asked, is decided here only.

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The token of an `Authorization` header value of the form `Bearer <token>` (the scheme in any case, spaces
 * or tabs around the token); undefined for no header, another scheme, an empty token or a token with
 * whitespace inside.
 */
export const bearerToken = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined) return undefined;
  // The usual form, `Bearer <visible ASCII>`, without the regular expression (which cost about as much as
  // the rest of authentication); anything else, the expression decides.
  if (authorization.startsWith('Bearer ') && authorization.length > 7) {
    let plain = true;
    for (let i = 7; i < authorization.length; i++) {
      const c = authorization.charCodeAt(i);
      if (c <= 0x20 || c >= 0x7f) {
        plain = false;
        break;
      }
    }
    if (plain) return authorization.slice(7);
  }
  return BEARER.exec(authorization)?.[1];
};

/** What a request's bearer credential comes to. */
export type BearerOutcome =
  /** The header names an accepted token. */
  | { readonly kind: 'principal'; readonly token: string; readonly principal: Principal }
  /** No Authorization header at all. */
  | { readonly kind: 'missing' }
  /** A header that is not `Bearer <token>`. */
  | { readonly kind: 'malformed' }
  /** A bearer token the authenticator refused, and why (words for the 401 message, never the token). */
  | { readonly kind: 'refused'; readonly token: string; readonly reason: string };

const MISSING: BearerOutcome = Object.freeze({ kind: 'missing' });
const MALFORMED: BearerOutcome = Object.freeze({ kind: 'malformed' });

const outcomeOf = (token: string, answer: Principal | AuthFailure): BearerOutcome =>
  isAuthFailure(answer)
    ? { kind: 'refused', token, reason: answer.reason }
    : { kind: 'principal', token, principal: answer };

/**
 * Reads the bearer token from an `Authorization` header value and asks the authenticator about it. An
 * authenticator that answers at once (API keys, the demo token) is not made to wait a turn.
 */
export const authenticateBearer = (
  authenticator: Authenticator,
  authorization: string | undefined,
): BearerOutcome | Promise<BearerOutcome> => {
  if (authorization === undefined) return MISSING;
  const token = bearerToken(authorization);
  if (token === undefined) return MALFORMED;
  const answer = authenticator.authenticate(token);
  return answer instanceof Promise ? answer.then((a) => outcomeOf(token, a)) : outcomeOf(token, answer);
};
