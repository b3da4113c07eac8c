import { principalId, TENANT_ID } from '../../ports/authenticator.js';
import type { SignedIn } from './sign-in.js';

// Who a person is when they sign in at the gateway's authorization server through an external OpenID
// provider: the claims of an ID token the adapter has already validated (signature, issuer, audience, nonce,
// expiry) mapped to a tenant, a principal and permissions. Pure rules; the protocol is in
// adapters/inbound/oauth/oidc-federation.ts.

export interface ClaimMapping {
  /** The claim naming the gateway tenant (default `tenant`); ignored when `tenant` is set. */
  readonly tenantClaim?: string;
  /** One fixed tenant for everyone this provider signs in (a provider per organisation). */
  readonly tenant?: string;
  /** The claim listing the person's gateway permissions (an array, or a space-separated string). */
  readonly permissionsClaim?: string;
  /** The permissions when that claim is absent (or none is configured); default none. */
  readonly defaultPermissions?: readonly string[];
  /**
   * The claim's values are group or role names (Entra ID group ids, Okta groups, Keycloak roles), each given
   * the permissions listed here; values not listed give none. Unset: the values are permissions themselves.
   */
  readonly permissionsByGroup?: Readonly<Record<string, readonly string[]>>;
}

export const DEFAULT_TENANT_CLAIM = 'tenant';
export const DEFAULT_PERMISSIONS_CLAIM = 'gateway_permissions';

/** A permission as the gateway writes them (`crm:read`, `files:*`, `*`). */
const PERMISSION = /^[A-Za-z0-9*][A-Za-z0-9:*._-]{0,127}$/;

const MAX_SUB = 255;
const MAX_NAME = 200;

/**
 * A claim by name; a name with dots that is not itself a claim is a path into nested objects
 * (Keycloak's `realm_access.roles`). Entra ID's claim names are URLs with dots: the exact name wins.
 */
export const claimAt = (claims: Readonly<Record<string, unknown>>, name: string): unknown => {
  if (name in claims) return claims[name];
  let at: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
};

const permissionsOf = (
  value: unknown,
  byGroup: Readonly<Record<string, readonly string[]>> | undefined,
): string[] | undefined => {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/\s+/) : undefined;
  if (!list) return undefined;
  const values = list.filter((v): v is string => typeof v === 'string');
  const permissions = byGroup
    ? values.flatMap((group) => (Object.hasOwn(byGroup, group) ? (byGroup[group] ?? []) : []))
    : values;
  return [...new Set(permissions.filter((p) => PERMISSION.test(p)))];
};

const nameOf = (claims: Readonly<Record<string, unknown>>, sub: string): string => {
  for (const key of ['name', 'preferred_username', 'email']) {
    const v = claims[key];
    if (typeof v === 'string' && v.trim()) return v.trim().slice(0, MAX_NAME);
  }
  return sub.slice(0, MAX_NAME);
};

/**
 * The signed-in person of a validated ID token from `issuer`, or why it cannot sign in (for the error page:
 * says which claim, never its value). The principal id is `oidc:<issuer>:<sub>`, so the same `sub` at two
 * providers, or an API key named like it, is another principal.
 */
export const signedInFromIdToken = (
  issuer: string,
  claims: Readonly<Record<string, unknown>>,
  mapping: ClaimMapping,
): SignedIn | { readonly reason: string } => {
  const sub = claims['sub'];
  if (typeof sub !== 'string' || !sub || sub.length > MAX_SUB) return { reason: 'the ID token names no subject' };
  const tenantClaim = mapping.tenantClaim ?? DEFAULT_TENANT_CLAIM;
  const tenant = mapping.tenant ?? claimAt(claims, tenantClaim);
  if (typeof tenant !== 'string' || !TENANT_ID.test(tenant))
    return {
      reason:
        tenant === undefined
          ? `the account has no "${tenantClaim}" claim naming its workspace`
          : `the account's "${tenantClaim}" claim is not a valid workspace id`,
    };
  const permissionsClaim = mapping.permissionsClaim ?? DEFAULT_PERMISSIONS_CLAIM;
  const fromClaim = permissionsOf(claimAt(claims, permissionsClaim), mapping.permissionsByGroup);
  const permissions = fromClaim ?? [...(mapping.defaultPermissions ?? [])];
  return { tenant, principalId: principalId('oidc', issuer, sub), name: nameOf(claims, sub), permissions };
};
