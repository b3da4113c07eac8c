import type { GrantIndex, GrantRegistry, GrantSummary, StoredGrantRow } from '../../../application/identity/grants.js';
import { accountIdOf, accountOf } from '../../../application/identity/sign-in.js';
import type { AuthorizationServer } from './authorization-server.js';

// The grants API's registry (application/identity/grants.ts) over the authorization server: which grants
// exist comes from the OAuth store's clear columns (account, client, expiry), what each grants from
// oidc-provider's own Grant model (the sealed payload), the client's name and redirect hosts from its Client
// model (a registered client, a configured one, or a Client ID Metadata Document, cached by oidc-provider),
// and revocation is the server's `revokeGrant` (what oidc-provider's revocation endpoint does).

export interface GrantRegistryDeps {
  /** The OAuth store (`sqlOAuthStore(...)`): its grants by account, by tenant, by id. */
  readonly index: GrantIndex;
  readonly server: Pick<AuthorizationServer, 'provider' | 'resource' | 'revokeGrant'>;
}

interface ClientView {
  readonly name: string | undefined;
  readonly hosts: readonly string[];
}

const UNKNOWN_CLIENT: ClientView = { name: undefined, hosts: [] };

const hostOf = (uri: string): string | undefined => {
  const url = URL.parse(uri);
  return url ? url.host || url.protocol : undefined;
};

export const oauthGrantRegistry = (deps: GrantRegistryDeps): GrantRegistry => {
  const { index, server } = deps;

  /** The rows with their payloads read: expired, unreadable or inconsistent ones are left out. */
  const describe = async (rows: readonly StoredGrantRow[]): Promise<GrantSummary[]> => {
    if (!rows.length) return [];
    const provider = await server.provider();
    const clients = new Map<string, Promise<ClientView>>();
    const clientOf = (clientId: string): Promise<ClientView> => {
      let found = clients.get(clientId);
      if (!found) {
        // A metadata document that cannot be fetched now still lists the grant, without a name.
        found = provider.Client.find(clientId).then(
          (client): ClientView =>
            client
              ? {
                  name: client.clientName,
                  hosts: [
                    ...new Set((client.redirectUris ?? []).map(hostOf).filter((h): h is string => h !== undefined)),
                  ],
                }
              : UNKNOWN_CLIENT,
          () => UNKNOWN_CLIENT,
        );
        clients.set(clientId, found);
      }
      return found;
    };
    const described = await Promise.all(
      rows.map(async (row): Promise<GrantSummary | undefined> => {
        const account = accountOf(row.accountId);
        if (!account) return undefined;
        const grant = await provider.Grant.find(row.grantId);
        if (!grant || grant.accountId !== row.accountId || grant.clientId !== row.clientId) return undefined;
        const client = await clientOf(row.clientId);
        return {
          grantId: row.grantId,
          tenant: account.tenant,
          principalId: account.principalId,
          clientId: row.clientId,
          clientName: client.name,
          redirectHosts: client.hosts,
          scopes: grant.getResourceScope(server.resource).split(' ').filter(Boolean),
          grantedAt: grant.iat ? new Date(grant.iat * 1000) : undefined,
          updatedAt: row.updatedAt,
          expiresAt: row.expiresAt ?? (grant.exp ? new Date(grant.exp * 1000) : undefined),
        };
      }),
    );
    return described.filter((g): g is GrantSummary => g !== undefined);
  };

  return {
    ofAccount: async (tenant, principalId) => describe(await index.grants(accountIdOf({ tenant, principalId }))),
    ofTenant: async (tenant) => describe(await index.grantsOfTenant(tenant)),
    find: async (grantId) => {
      const row = await index.grant(grantId);
      return row ? (await describe([row]))[0] : undefined;
    },
    revoke: (grantId) => server.revokeGrant(grantId),
  };
};
