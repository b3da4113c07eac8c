import { join } from 'node:path';
import type { Logger } from 'pino';
import { SpooledAuditLog } from '../adapters/outbound/persistence/audit-spool.js';
import type { AuditLog } from '../ports/audit-log.js';
import type { AuditPolicy } from '../application/runtime/executor-types.js';
import type { GatewayConfig } from './config.js';
import { throttledWarn } from './store-faults.js';

/** The spool file of audit rows waiting for the database, in the data directory. */
export const AUDIT_SPOOL_FILE = 'audit-spool.jsonl';

/**
 * The audit log in the database, with a local spool for the rows it cannot take while it is away (issue 37):
 * no write answers without its row kept somewhere durable, and past the spool's bound writes are refused
 * before they run. A warning at most every 10 s while rows are spooled, and one line when they are back.
 */
export const spooledAudit = (database: AuditLog, config: GatewayConfig, logger: Logger): SpooledAuditLog => {
  const file = join(config.storage.dataDir, AUDIT_SPOOL_FILE);
  const warn = throttledWarn(logger);
  return new SpooledAuditLog(database, {
    file,
    maxBytes: config.storage.auditSpoolBytes,
    onFault: (error, operation) =>
      warn(
        `audit-spool:${operation}`,
        { store: 'audit', operation, file, err: { message: error instanceof Error ? error.message : String(error) } },
        operation === 'record'
          ? 'audit log unavailable: its rows are kept in the local spool until the database is back'
          : 'audit log unavailable: the spooled rows wait for the next attempt',
      ),
    onReplayed: (rows) => logger.info({ store: 'audit', rows, file }, 'spooled audit rows written to the database'),
  });
};

/** The executor's audit policy: the log (a write is refused before it runs when it cannot keep a row). */
export const auditPolicyOf = (audit: AuditLog, vendorOf: (group: string) => string | undefined): AuditPolicy => ({
  record: (entry) => audit.record(entry),
  accepting: () => audit.accepting?.() ?? true,
  vendorOf,
});
