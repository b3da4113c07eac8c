import type { Connection, ConnectionStore } from '../../ports/connection-store.js';
import type { VendorConnector } from '../../ports/vendor-connector.js';

/** How many connections of one vendor account are read across tenants: one other is enough to skip. */
const SAME_ACCOUNT_LOOKUP_LIMIT = 50;

/**
 * Revokes a connection at its vendor before it is forgotten, best effort (a revoke that fails or throws never
 * keeps the connection), given the details of the tenant's other connections of the vendor and a count of the
 * stored connections of the same vendor account in every tenant: ShareFile skips a revoke that would end
 * theirs too (issue 42). Answers the connector's sentence about what happened, if any.
 */
export const revokeAtVendor = async (
  connector: VendorConnector | undefined,
  store: Pick<ConnectionStore, 'list' | 'withDetail'>,
  existing: Connection,
): Promise<string | undefined> => {
  if (!connector?.revoke) return undefined;
  const revoke = connector.revoke;
  // other tenants' connections of the same vendor account count too: a revoke ends the account's grant
  const sameAccount = async (key: string, value: string): Promise<number> =>
    (await store.withDetail(existing.vendor, key, value, SAME_ACCOUNT_LOOKUP_LIMIT)).filter(
      (c) => !(c.tenant === existing.tenant && c.owner === existing.owner),
    ).length;
  try {
    const others = (await store.list(existing.tenant))
      .filter((c) => c.vendor === existing.vendor && c.owner !== existing.owner)
      .map((c) => c.details);
    const said = await revoke(existing.secret, existing.details, others, sameAccount);
    return typeof said === 'string' ? said : undefined;
  } catch {
    return undefined;
  }
};
