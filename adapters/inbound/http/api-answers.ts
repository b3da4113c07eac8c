import { errorEnvelope } from '../../../application/runtime/envelope.js';
import { fromGatewayError, toolError, type ToolError } from '../../../application/runtime/tool-error.js';
import { STORE_RETRY_SECONDS, storeUnavailable, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import type { Authenticator, Principal } from '../../../ports/authenticator.js';
import { authenticateBearer } from './bearer.js';
import { JSON_TYPE } from './call-response.js';

// The answers of the gateway's management APIs (connections, audit, grants): JSON never cached, errors in
// the tool-call envelope, and the caller from the one bearer reader or a 401 saying what to send.

export const json = (status: number, body: unknown, extra: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...extra },
  });

export const failure = (e: ToolError): Response => {
  const presented = errorEnvelope(e);
  return json(presented.status, presented.body);
};

/** The one answer when a store of the gateway's own cannot be reached: 503 UNAVAILABLE with Retry-After. */
export const storeUnavailableAnswer = (store: string): Response => {
  const answer = failure(fromGatewayError(storeUnavailable(store)));
  answer.headers.set('retry-after', String(STORE_RETRY_SECONDS));
  return answer;
};

export const fromEither = <A>(outcome: Either<GatewayError, A>, ok: (a: A) => Response): Response =>
  E.isLeft(outcome) ? failure(fromGatewayError(outcome.left)) : ok(outcome.right);

/** The caller of `authorization`, or the 401 answer (missing, malformed or refused token). */
export const principalOr401 = async (
  authenticator: Authenticator,
  authorization: string | undefined,
): Promise<Principal | Response> => {
  const outcome = await authenticateBearer(authenticator, authorization);
  if (outcome.kind === 'missing' || outcome.kind === 'malformed')
    return json(
      401,
      errorEnvelope(toolError(401, 'UNAUTHORIZED', 'Missing bearer token. Send "Authorization: Bearer <token>".')).body,
      { 'www-authenticate': 'Bearer realm="tool-gateway"' },
    );
  if (outcome.kind === 'refused')
    return json(
      401,
      errorEnvelope(toolError(401, 'UNAUTHORIZED', `The bearer token was refused: ${outcome.reason}.`)).body,
      { 'www-authenticate': 'Bearer realm="tool-gateway", error="invalid_token"' },
    );
  return outcome.principal;
};
