import { VENDORS, type ConnectionSummary, type Vendor } from '../../ports/connection-store.js';
import type { Principal } from '../../ports/authenticator.js';

export type ConnectionScope = 'tenant' | 'user';

/** One row of `GET /v1/connections`: never a secret. */
export interface ConnectionListing {
  readonly vendor: Vendor;
  readonly scope: ConnectionScope;
  readonly owner?: string;
  readonly status: 'connected' | 'needs_reauthorization' | 'not_connected';
  readonly kind?: 'oauth' | 'key' | 'environment';
  readonly account?: string;
  readonly connected_at?: string;
  readonly last_refreshed_at?: string;
  /** `environment`: made from the environment's credentials (the default tenant's; not deletable here). */
  readonly source?: 'environment';
  /** For the environment's connection: false while a stored tenant-wide connection is used instead. */
  readonly in_use?: boolean;
  /** How to connect (or connect again): the authorize endpoint, or the key endpoint. */
  readonly connect?: { readonly authorize_url?: string; readonly key_endpoint?: string };
}

/** What a listing needs besides the stored rows. */
export interface ListingDeps {
  /** The connection the environment's credentials make for a tenant (the default one only), if any. */
  readonly environment: (tenant: string, vendor: Vendor) => ConnectionSummary | undefined;
  /** Vendors whose group is backed by the vendor. */
  readonly inUse: ReadonlySet<Vendor>;
  /** How to connect `vendor` (the authorize or key endpoint). */
  readonly connect: (vendor: Vendor) => ConnectionListing['connect'];
}

/** One stored connection as `GET /v1/connections` shows it: never a secret. */
export const listingOf = (
  c: ConnectionSummary,
  connect: (vendor: Vendor) => ConnectionListing['connect'],
): ConnectionListing => ({
  vendor: c.vendor,
  scope: c.owner === '' ? 'tenant' : 'user',
  ...(c.owner ? { owner: c.owner } : {}),
  status: c.status,
  kind: c.kind,
  account: c.label,
  connected_at: c.connectedAt.toISOString(),
  ...(c.refreshedAt ? { last_refreshed_at: c.refreshedAt.toISOString() } : {}),
  ...(c.status === 'needs_reauthorization' ? { connect: connect(c.vendor) } : {}),
});

/**
 * A principal's view of its tenant's connections: the tenant-wide ones and its own; the environment's
 * (default tenant only: listed, not deletable, unused while a stored tenant-wide one exists); and, for a
 * vendor in use with none, a row saying how to connect it.
 */
export const listConnections = (
  principal: Principal,
  stored: readonly ConnectionSummary[],
  deps: ListingDeps,
): ConnectionListing[] => {
  const visible = stored.filter((c) => c.owner === '' || c.owner === principal.id);
  const rows: ConnectionListing[] = visible.map((c) => listingOf(c, deps.connect));
  for (const vendor of VENDORS) {
    const environment = deps.environment(principal.tenant, vendor);
    const tenantWide = rows.some((r) => r.vendor === vendor && r.scope === 'tenant');
    if (environment) {
      rows.push({
        vendor,
        scope: 'tenant',
        status: 'connected',
        kind: 'environment',
        account: environment.label,
        source: 'environment',
        in_use: !tenantWide,
      });
      continue;
    }
    if (tenantWide || !deps.inUse.has(vendor) || rows.some((r) => r.vendor === vendor)) continue;
    rows.push({ vendor, scope: 'tenant', status: 'not_connected', connect: deps.connect(vendor) });
  }
  return rows.sort((a, b) => a.vendor.localeCompare(b.vendor) || a.scope.localeCompare(b.scope));
};
