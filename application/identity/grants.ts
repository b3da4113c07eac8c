import { randomUUID } from 'node:crypto';
import { forbidden, invalidInput, notFound, type GatewayError } from '../../domain/shared/errors.js';
import { E, type Either } from '../../domain/shared/fp.js';
import type { AuditLog } from '../../ports/audit-log.js';
import type { Principal } from '../../ports/authenticator.js';
import { isAllowed } from '../runtime/define-tool.js';

// The grants API's use cases (issue 29): a person's authorised OAuth clients (or, with connections:manage,
// the whole tenant's), and revoking one. The rules live here; the storage and oidc-provider behind a grant
// are the adapter's (adapters/inbound/oauth/grants-registry.ts), the HTTP surface is grant-routes.ts.

/** Who may see and revoke every grant of the tenant, not only their own (the connections' permission). */
export const GRANTS_MANAGE_PERMISSION = 'connections:manage';

/** A grant's clear columns, as the OAuth store keeps them (`sqlOAuthStore`'s `StoredGrant`). */
export interface StoredGrantRow {
  readonly grantId: string;
  /** `tenant|principalId` (`accountIdOf`). */
  readonly accountId: string;
  readonly clientId: string;
  readonly updatedAt: Date;
  readonly expiresAt: Date | undefined;
}

/** What the OAuth store answers about grants without opening a payload (`sqlOAuthStore` is one). */
export interface GrantIndex {
  grants(accountId: string): Promise<readonly StoredGrantRow[]>;
  grantsOfTenant(tenant: string): Promise<readonly StoredGrantRow[]>;
  grant(grantId: string): Promise<StoredGrantRow | undefined>;
}

/** One person's authorisation of one OAuth client. */
export interface GrantSummary {
  readonly grantId: string;
  readonly tenant: string;
  /** The principal who consented (`key:ops`, `demo:demo`). */
  readonly principalId: string;
  readonly clientId: string;
  /** Its registered or metadata-document `client_name`, when known. */
  readonly clientName: string | undefined;
  /** The hosts of its redirect URIs (where its codes go), when known. */
  readonly redirectHosts: readonly string[];
  /** The permissions granted (for the gateway's MCP resource). */
  readonly scopes: readonly string[];
  /** When the person consented. */
  readonly grantedAt: Date | undefined;
  readonly updatedAt: Date;
  /** When the grant ends (its refresh tokens end with it at the latest). */
  readonly expiresAt: Date | undefined;
}

/** The port: grants as the authorization server keeps them. */
export interface GrantRegistry {
  ofAccount(tenant: string, principalId: string): Promise<GrantSummary[]>;
  ofTenant(tenant: string): Promise<GrantSummary[]>;
  find(grantId: string): Promise<GrantSummary | undefined>;
  /** Its refresh tokens and codes, then the grant itself. */
  revoke(grantId: string): Promise<void>;
}

export type GrantsScope = 'user' | 'tenant';

export interface GrantsDeps {
  readonly registry: GrantRegistry;
  /** Every revocation is recorded (best effort: the grant is revoked whether or not the log answers). */
  readonly audit?: Pick<AuditLog, 'record'>;
  /** Told when the audit log failed to record a revocation. */
  readonly onAuditError?: (error: unknown) => void;
  readonly now?: () => Date;
}

/** A grant id as oidc-provider makes them (nanoid, 43 characters); anything else is no grant. */
const GRANT_ID = /^[A-Za-z0-9_-]{1,128}$/;

const canManage = (principal: Principal): boolean => isAllowed(principal, GRANTS_MANAGE_PERMISSION);

const owns = (principal: Principal, grant: GrantSummary): boolean =>
  grant.tenant === principal.tenant && grant.principalId === principal.id;

const noSuchGrant = (grantId: string) => notFound('grant', grantId, `No grant "${grantId}" in your workspace.`);

/** The grants API's use cases. */
export class GrantsService {
  constructor(private readonly deps: GrantsDeps) {}

  /** The caller's own grants (`user`), or every grant of the caller's tenant (`tenant`, connections:manage). */
  async list(principal: Principal, scope: GrantsScope): Promise<Either<GatewayError, GrantSummary[]>> {
    if (scope === 'user') return E.right(await this.deps.registry.ofAccount(principal.tenant, principal.id));
    if (!canManage(principal))
      return E.left(
        forbidden(`Listing every grant of the workspace needs the "${GRANTS_MANAGE_PERMISSION}" permission.`, {
          permission: GRANTS_MANAGE_PERMISSION,
        }),
      );
    return E.right(await this.deps.registry.ofTenant(principal.tenant));
  }

  /**
   * Revokes a grant: the caller's own, or any of the tenant's with connections:manage. Another tenant's grant,
   * or none, is not found (its existence is not told); another person's in the same tenant is forbidden.
   */
  async revoke(principal: Principal, grantId: string): Promise<Either<GatewayError, GrantSummary>> {
    if (!GRANT_ID.test(grantId)) return E.left(noSuchGrant(grantId.slice(0, 128)));
    const grant = await this.deps.registry.find(grantId);
    if (!grant || grant.tenant !== principal.tenant) return E.left(noSuchGrant(grantId));
    if (!owns(principal, grant) && !canManage(principal))
      return E.left(
        forbidden(`Revoking another person's grant needs the "${GRANTS_MANAGE_PERMISSION}" permission.`, {
          permission: GRANTS_MANAGE_PERMISSION,
        }),
      );
    await this.deps.registry.revoke(grantId);
    await this.deps.audit
      ?.record({
        at: (this.deps.now ?? (() => new Date()))(),
        tenant: grant.tenant,
        principal: principal.id,
        tool: 'oauth.grant_revoked',
        targets: [
          grant.clientId,
          `grant:${grant.grantId}`,
          ...(grant.principalId !== principal.id ? [grant.principalId] : []),
        ],
        status: 200,
        requestId: randomUUID(),
      })
      .catch((error: unknown) => this.deps.onAuditError?.(error));
    return E.right(grant);
  }
}

/** `?scope=`: `user` (the default) or `tenant`. */
export const grantsScopeOf = (value: string | undefined): Either<GatewayError, GrantsScope> =>
  value === undefined || value === 'user' || value === 'tenant'
    ? E.right(value ?? 'user')
    : E.left(
        invalidInput('scope is "user" (the default: your own grants) or "tenant".', 'scope', '"user" or "tenant"'),
      );
