import { sql, type Kysely, type Selectable } from 'kysely';
import {
  isVendor,
  type Connection,
  type ConnectionSecret,
  type ConnectionStatus,
  type ConnectionStore,
  type ConnectionSummary,
  type Vendor,
} from '../../../ports/connection-store.js';
import type { ConnectionsTable, GatewayDatabase } from './schema.js';
import type { SecretBox } from './secret-box.js';

/** The row a sealed secret belongs to, as authenticated data: a secret copied to another row does not open. */
const contextOf = (tenant: string, vendor: string, owner: string): string => `${tenant}\n${vendor}\n${owner}`;

const summaryOf = (row: Selectable<ConnectionsTable>): ConnectionSummary => {
  if (!isVendor(row.vendor)) throw new Error(`unknown vendor "${row.vendor}" in gateway_connections`);
  return {
    tenant: row.tenant,
    vendor: row.vendor,
    owner: row.owner,
    kind: row.kind === 'key' ? 'key' : 'oauth',
    status: row.status === 'needs_reauthorization' ? 'needs_reauthorization' : 'connected',
    label: row.label,
    details: JSON.parse(row.details) as Record<string, string>,
    connectedAt: new Date(row.connected_at),
    ...(row.refreshed_at ? { refreshedAt: new Date(row.refreshed_at) } : {}),
  };
};

/** Connections in a SQL database (PostgreSQL or the embedded SQLite: the same code and schema). */
export class SqlConnectionStore implements ConnectionStore {
  constructor(
    private readonly db: Kysely<GatewayDatabase>,
    private readonly box: SecretBox,
    private readonly onClose: () => Promise<void> = () => db.destroy(),
  ) {}

  async withDetail(vendor: Vendor, key: string, value: string, limit: number): Promise<ConnectionSummary[]> {
    if (key.length > 64 || value.length > 256) return [];
    const max = Math.max(1, Math.min(1000, Math.floor(limit)));
    // details is JSON text written by JSON.stringify, so `"key":"value"` appears as it is; LIKE narrows the
    // rows on both databases (escape character given: SQLite has none by default), the parse decides
    const fragment = `${JSON.stringify(key)}:${JSON.stringify(value)}`.replace(/[\\%_]/g, (c) => `\\${c}`);
    const rows = await this.db
      .selectFrom('gateway_connections')
      .selectAll()
      .where('vendor', '=', vendor)
      .where(sql<boolean>`details like ${`%${fragment}%`} escape '\\'`)
      .orderBy('tenant')
      .orderBy('owner')
      .limit(max)
      .execute();
    return rows.map(summaryOf).filter((c) => c.details[key] === value);
  }

  async list(tenant: string): Promise<ConnectionSummary[]> {
    const rows = await this.db
      .selectFrom('gateway_connections')
      .selectAll()
      .where('tenant', '=', tenant)
      .orderBy('vendor')
      .orderBy('owner')
      .execute();
    return rows.map(summaryOf);
  }

  async find(tenant: string, vendor: Vendor, owner: string): Promise<Connection | undefined> {
    const row = await this.db
      .selectFrom('gateway_connections')
      .selectAll()
      .where('tenant', '=', tenant)
      .where('vendor', '=', vendor)
      .where('owner', '=', owner)
      .executeTakeFirst();
    if (!row) return undefined;
    const secret = JSON.parse(
      this.box.open({ keyId: row.key_id, sealed: row.secret }, contextOf(tenant, vendor, owner)),
    ) as ConnectionSecret;
    return { ...summaryOf(row), secret };
  }

  async save(c: Connection): Promise<void> {
    const sealed = this.box.seal(JSON.stringify(c.secret), contextOf(c.tenant, c.vendor, c.owner));
    const now = new Date().toISOString();
    const values = {
      kind: c.kind,
      status: c.status,
      label: c.label,
      details: JSON.stringify(c.details),
      secret: sealed.sealed,
      key_id: sealed.keyId,
      connected_at: c.connectedAt.toISOString(),
      refreshed_at: c.refreshedAt?.toISOString() ?? null,
      updated_at: now,
    };
    await this.db
      .insertInto('gateway_connections')
      .values({ tenant: c.tenant, vendor: c.vendor, owner: c.owner, ...values })
      .onConflict((oc) => oc.columns(['tenant', 'vendor', 'owner']).doUpdateSet(values))
      .execute();
  }

  async saveSecret(
    tenant: string,
    vendor: Vendor,
    owner: string,
    secret: ConnectionSecret,
    refreshedAt: Date,
  ): Promise<void> {
    const sealed = this.box.seal(JSON.stringify(secret), contextOf(tenant, vendor, owner));
    await this.db
      .updateTable('gateway_connections')
      .set({
        secret: sealed.sealed,
        key_id: sealed.keyId,
        status: 'connected',
        refreshed_at: refreshedAt.toISOString(),
        updated_at: new Date().toISOString(),
      })
      .where('tenant', '=', tenant)
      .where('vendor', '=', vendor)
      .where('owner', '=', owner)
      .execute();
  }

  async setStatus(tenant: string, vendor: Vendor, owner: string, status: ConnectionStatus): Promise<void> {
    await this.db
      .updateTable('gateway_connections')
      .set({ status, updated_at: new Date().toISOString() })
      .where('tenant', '=', tenant)
      .where('vendor', '=', vendor)
      .where('owner', '=', owner)
      .execute();
  }

  async remove(tenant: string, vendor: Vendor, owner: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('gateway_connections')
      .where('tenant', '=', tenant)
      .where('vendor', '=', vendor)
      .where('owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  close(): Promise<void> {
    return this.onClose();
  }
}
