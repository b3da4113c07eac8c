import type { Context, Hono, Next } from 'hono';
import { grantsScopeOf, type GrantsService, type GrantSummary } from '../../../application/identity/grants.js';
import { fromGatewayError } from '../../../application/runtime/tool-error.js';
import { E } from '../../../domain/shared/fp.js';
import type { Authenticator, Principal } from '../../../ports/authenticator.js';
import { failure, fromEither, json, principalOr401, storeUnavailableAnswer } from './api-answers.js';

// The grants endpoints (issue 29): the OAuth clients a person authorised at the gateway's own authorization
// server, and revoking one.
//   GET    /v1/grants              the caller's own; ?scope=tenant every one of the tenant (connections:manage)
//   DELETE /v1/grants/{grant_id}   revokes it: its refresh tokens and the grant (access tokens end within
//                                  their lifetime, ten minutes by default)
// No token or secret is ever listed.

export interface GrantRouteDeps {
  readonly authenticator: Authenticator;
  readonly grants: GrantsService;
  /** Told when the OAuth store failed under a request (answered 503). */
  readonly onStoreError?: (error: Error) => void;
}

/** How long a caller is told to wait when the OAuth store cannot be reached. */

const iso = (d: Date | undefined): string | undefined => d?.toISOString();

/** A grant as the API shows it (snake case, as every other answer of the gateway). */
export const grantView = (g: GrantSummary) => ({
  grant_id: g.grantId,
  client_id: g.clientId,
  ...(g.clientName !== undefined ? { client_name: g.clientName } : {}),
  redirect_hosts: g.redirectHosts,
  principal: g.principalId,
  scopes: g.scopes,
  ...(g.grantedAt ? { granted_at: iso(g.grantedAt) } : {}),
  updated_at: iso(g.updatedAt),
  ...(g.expiresAt ? { expires_at: iso(g.expiresAt) } : {}),
});

export const mountGrantRoutes = (app: Hono, deps: GrantRouteDeps): void => {
  const { authenticator, grants } = deps;

  // The OAuth store (the database) failing is the gateway's outage, not the caller's mistake: a 503 with a
  // retry time, never a 500.
  const storeDown = async (c: Context, next: Next) => {
    await next();
    if (!c.error) return;
    deps.onStoreError?.(c.error);
    c.res = storeUnavailableAnswer('authorization');
  };
  app.use('/v1/grants/*', storeDown); // Hono's `/*` matches `/v1/grants` itself too: once per request

  const who = (c: Context): Promise<Principal | Response> =>
    principalOr401(authenticator, c.req.header('authorization'));

  app.get('/v1/grants', async (c) => {
    const principal = await who(c);
    if (principal instanceof Response) return principal;
    const scope = grantsScopeOf(c.req.query('scope'));
    if (E.isLeft(scope)) return failure(fromGatewayError(scope.left));
    const listed = await grants.list(principal, scope.right);
    return fromEither(listed, (found) =>
      json(200, {
        success: true,
        data: { tenant: principal.tenant, scope: scope.right, grants: found.map(grantView) },
      }),
    );
  });

  app.delete('/v1/grants/:grant_id', async (c) => {
    const principal = await who(c);
    if (principal instanceof Response) return principal;
    const revoked = await grants.revoke(principal, c.req.param('grant_id'));
    return fromEither(revoked, (grant) =>
      json(200, { success: true, data: { revoked: true, grant_id: grant.grantId, client_id: grant.clientId } }),
    );
  });
};
