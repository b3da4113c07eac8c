import { isAuthFailure, TENANT_ID, type Authenticator, type Principal } from '../../ports/authenticator.js';

// Who signs in at the gateway's own authorization server, and what an access token it issues may carry.
// Pure rules and types; the HTTP pages and the OAuth protocol live in adapters/inbound/oauth.

/** The person behind a sign-in: an API key's (or the demo token's) tenant, principal and permissions. */
export interface SignedIn {
  readonly tenant: string;
  /** The principal id the gateway already uses for that key (`key:ops-bot`, `demo:demo`). */
  readonly principalId: string;
  readonly name: string;
  readonly permissions: readonly string[];
}

/** Checks what a person typed into the sign-in form's `api_key` field. Never throws for a wrong key. */
export type VerifyApiKey = (key: string) => Promise<SignedIn | undefined>;

/** The kinds of credential a person may sign in with by typing it: API keys and the demo token, never a JWT. */
const TYPED_KINDS = ['key:', 'demo:'];

/**
 * A `VerifyApiKey` over the gateway's own Authenticator port. Only API keys and the demo token sign in:
 * a JWT pasted into the form is refused even though the same authenticator accepts it as a bearer token
 * (a token issued for another audience must not become a browser sign-in).
 */
export const verifyApiKeyWith =
  (authenticator: Authenticator): VerifyApiKey =>
  async (key) => {
    const trimmed = key.trim();
    if (!trimmed || trimmed.length > 4096) return undefined;
    const found = await authenticator.authenticate(trimmed);
    if (isAuthFailure(found)) return undefined;
    if (!TYPED_KINDS.some((kind) => found.id.startsWith(kind))) return undefined;
    return signedInOf(found);
  };

export const signedInOf = (principal: Principal): SignedIn => ({
  tenant: principal.tenant,
  principalId: principal.id,
  name: principal.name,
  permissions: [...principal.permissions],
});

/** Does a set of permissions (with `*` and `<group>:*` wildcards) allow one concrete permission? */
export const permits = (permissions: Iterable<string>, permission: string): boolean => {
  const held = new Set(permissions);
  if (held.has('*') || held.has(permission)) return true;
  const colon = permission.indexOf(':');
  return colon > 0 && held.has(`${permission.slice(0, colon)}:*`);
};

/**
 * The scopes a token may carry: those requested, that the person left ticked on the consent page, and
 * that the key itself holds (wildcards in the key's permissions expanded against the requested scopes).
 * In the order requested, without repeats.
 */
export const grantedScopes = (
  requested: readonly string[],
  consented: Iterable<string>,
  permissions: readonly string[],
): string[] => {
  const ticked = new Set(consented);
  return [...new Set(requested)].filter((scope) => ticked.has(scope) && permits(permissions, scope));
};

/** The requested scopes split into those the key holds (offered on the consent page) and those it does not. */
export const offeredScopes = (
  requested: readonly string[],
  permissions: readonly string[],
): { readonly offered: string[]; readonly withheld: string[] } => {
  const unique = [...new Set(requested)];
  return {
    offered: unique.filter((s) => permits(permissions, s)),
    withheld: unique.filter((s) => !permits(permissions, s)),
  };
};

/**
 * The account id the authorization server keeps for a signed-in person (in its sessions, grants and
 * tokens): the tenant and the principal id joined by `|` (a tenant id never contains one), so that the
 * same principal id in two tenants is two accounts.
 */
export const accountIdOf = (who: Pick<SignedIn, 'tenant' | 'principalId'>): string =>
  `${who.tenant}|${who.principalId}`;

/** The tenant and principal id of an account id, or undefined when it is not one `accountIdOf` made. */
export const accountOf = (accountId: string): { tenant: string; principalId: string } | undefined => {
  const bar = accountId.indexOf('|');
  if (bar < 1) return undefined;
  const tenant = accountId.slice(0, bar);
  const principalId = accountId.slice(bar + 1);
  if (!TENANT_ID.test(tenant) || !principalId) return undefined;
  return { tenant, principalId };
};

/** The display name of a principal id (`key:ops-bot` is `ops-bot`): its last part, decoded. */
export const nameOfPrincipal = (principalId: string): string => {
  const last = principalId.slice(principalId.lastIndexOf(':') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
};
