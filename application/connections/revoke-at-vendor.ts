import type { Connection, ConnectionStore } from '../../ports/connection-store.js';
import type { VendorConnector } from '../../ports/vendor-connector.js';

/**
 * Revokes a connection at its vendor before it is forgotten, best effort (a revoke that fails or throws never
 * keeps the connection), given the details of the tenant's other connections of the vendor: ShareFile skips a
 * revoke that would end theirs too (issue 42). Answers the connector's sentence about what happened, if any.
 */
export const revokeAtVendor = async (
  connector: VendorConnector | undefined,
  store: Pick<ConnectionStore, 'list'>,
  existing: Connection,
): Promise<string | undefined> => {
  if (!connector?.revoke) return undefined;
  const revoke = connector.revoke;
  try {
    const others = (await store.list(existing.tenant))
      .filter((c) => c.vendor === existing.vendor && c.owner !== existing.owner)
      .map((c) => c.details);
    const said = await revoke(existing.secret, existing.details, others);
    return typeof said === 'string' ? said : undefined;
  } catch {
    return undefined;
  }
};
