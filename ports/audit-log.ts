import type { ServiceIdentifier } from 'inversify';

/** One Write or Destructive tool call, or one connection change: who did what to which ids, and how it ended. */
export interface AuditEntry {
  readonly at: Date;
  readonly tenant: string;
  /** The principal's id (`key:ops-bot`, `jwt:<iss>:<sub>`). */
  readonly principal: string;
  /** The tool (`crm_deleteContact`) or the connection change (`connections.connect`). */
  readonly tool: string;
  readonly vendor?: string;
  /** The ids the call named or made: never other argument values. */
  readonly targets: readonly string[];
  /** The outcome's HTTP status, and its error code if it failed. */
  readonly status: number;
  readonly code?: string;
  readonly requestId: string;
  /** A skip trace's permissible purpose (GLBA/DPPA). */
  readonly purpose?: string;
  /**
   * Who let a tool call run: `person` (approved through the MCP client), `model` (a confirm token the
   * model sent), or `nobody` (no approval was asked). Absent on connection changes and rows from before.
   */
  readonly approver?: 'person' | 'model' | 'nobody';
  /**
   * Set on a replay: the same write again under its Idempotency-Key, answered from the idempotency store
   * with nothing run. Its row shows the call was made; only the row without it counts as the write.
   */
  readonly replay?: boolean;
  /** A replay's original request id (absent when the stored outcome predates it). */
  readonly replayOf?: string;
}

export interface StoredAuditEntry extends AuditEntry {
  readonly id: number;
}

export interface AuditQuery {
  readonly tenant: string;
  readonly since?: Date;
  readonly tool?: string;
  readonly principal?: string;
  /** Only entries older than this id (the next page). */
  readonly before?: number;
  readonly limit: number;
}

/** The audit log: appended on every Write or Destructive call, read newest first. */
export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
  query(q: AuditQuery): Promise<StoredAuditEntry[]>;
  /** Can a row be kept now? False only when neither the store nor its local spool can take one (absent: yes). */
  accepting?(): boolean;
}

export const AuditLog = Symbol.for('AuditLog') as ServiceIdentifier<AuditLog>;
