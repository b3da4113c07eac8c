import { permits } from './sign-in.js';

// Whether an account that signed in at the gateway's authorization server may still use its grants, and
// with what (issue 38): asked on every refresh, and (cheaply, in process) whenever one of its access tokens
// is checked. Pure rules; where the answer comes from is the composition's (the API keys in force).

/** What the gateway knows now of an account that once signed in. */
export type AccountStanding =
  /** The key was removed: its grants are over. */
  | { readonly kind: 'gone' }
  /** The account's permissions as configured now (narrower than at consent, perhaps). */
  | { readonly kind: 'current'; readonly permissions: readonly string[] }
  /**
   * Nothing here can say (a person who signed in through an external OpenID provider: only that provider
   * knows them): the grant stands as consented until it is revoked or expires.
   */
  | { readonly kind: 'unknown' };

export type AccountStandingOf = (account: {
  readonly tenant: string;
  readonly principalId: string;
}) => Promise<AccountStanding>;

/** The scopes of a grant or token the account may still use: those its permissions still allow. */
export const stillAllowed = (scopes: readonly string[], standing: AccountStanding): string[] =>
  standing.kind === 'gone'
    ? []
    : standing.kind === 'current'
      ? scopes.filter((scope) => permits(standing.permissions, scope))
      : [...scopes];

/** Principal kinds a person signs in with by typing them (sign-in.ts): their source is the gateway's own configuration. */
const CONFIGURED_KINDS = ['key:', 'demo:'];

/**
 * The standing of accounts over the configured API keys (and the demo token): a key still configured is
 * `current` with its permissions, one no longer configured is `gone`; any other account is `unknown`.
 */
export const configuredAccountStanding =
  (
    find: (tenant: string, principalId: string) => { readonly permissions: Iterable<string> } | undefined,
  ): AccountStandingOf =>
  (account) => {
    if (!CONFIGURED_KINDS.some((kind) => account.principalId.startsWith(kind)))
      return Promise.resolve({ kind: 'unknown' });
    const found = find(account.tenant, account.principalId);
    return Promise.resolve(found ? { kind: 'current', permissions: [...found.permissions] } : { kind: 'gone' });
  };
