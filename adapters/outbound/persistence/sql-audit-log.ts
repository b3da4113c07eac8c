import type { Kysely } from 'kysely';
import type { AuditEntry, AuditLog, AuditQuery, StoredAuditEntry } from '../../../ports/audit-log.js';
import type { GatewayDatabase } from './schema.js';

const isApprover = (v: string | null): v is 'person' | 'model' | 'nobody' =>
  v === 'person' || v === 'model' || v === 'nobody';

/** The audit log in the gateway's database (PostgreSQL or the embedded SQLite). */
export class SqlAuditLog implements AuditLog {
  constructor(private readonly db: () => Promise<Kysely<GatewayDatabase>>) {}

  async record(e: AuditEntry): Promise<void> {
    await (
      await this.db()
    )
      .insertInto('gateway_audit')
      .values({
        at: e.at.toISOString(),
        tenant: e.tenant,
        principal: e.principal,
        tool: e.tool,
        vendor: e.vendor ?? null,
        targets: JSON.stringify(e.targets),
        status: e.status,
        code: e.code ?? null,
        request_id: e.requestId,
        purpose: e.purpose ?? null,
        approver: e.approver ?? null,
        replay: e.replay ? 1 : null,
        replay_of: e.replay ? (e.replayOf ?? null) : null,
      })
      .execute();
  }

  async query(q: AuditQuery): Promise<StoredAuditEntry[]> {
    let query = (await this.db()).selectFrom('gateway_audit').selectAll().where('tenant', '=', q.tenant);
    if (q.since) query = query.where('at', '>=', q.since.toISOString());
    if (q.tool) query = query.where('tool', '=', q.tool);
    if (q.principal) query = query.where('principal', '=', q.principal);
    if (q.before !== undefined) query = query.where('id', '<', q.before);
    const rows = await query.orderBy('id', 'desc').limit(q.limit).execute();
    return rows.map((r) => ({
      id: Number(r.id),
      at: new Date(r.at),
      tenant: r.tenant,
      principal: r.principal,
      tool: r.tool,
      ...(r.vendor ? { vendor: r.vendor } : {}),
      targets: JSON.parse(r.targets) as string[],
      status: Number(r.status),
      ...(r.code ? { code: r.code } : {}),
      requestId: r.request_id,
      ...(r.purpose ? { purpose: r.purpose } : {}),
      ...(isApprover(r.approver) ? { approver: r.approver } : {}),
      ...(Number(r.replay) === 1 ? { replay: true, ...(r.replay_of ? { replayOf: r.replay_of } : {}) } : {}),
    }));
  }
}
