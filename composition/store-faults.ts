import type { Logger } from 'pino';
import type { StoreFault } from '../application/runtime/executor.js';
import type { GatewayMetrics } from '../adapters/outbound/observability/gateway-metrics.js';

/** Least time between two log lines about the same kind of store failure. */
export const STORE_FAULT_LOG_INTERVAL_MS = 10_000;

/**
 * Logs at most one line per `intervalMs` for each `kind`, with the number of occurrences held back since
 * the last line: a Redis outage under load is a handful of lines, not one per call.
 */
export const throttledWarn = (
  logger: Logger,
  intervalMs = STORE_FAULT_LOG_INTERVAL_MS,
  now: () => number = Date.now,
) => {
  const last = new Map<string, { at: number; suppressed: number }>();
  return (kind: string, fields: Record<string, unknown>, message: string): void => {
    const t = now();
    const seen = last.get(kind);
    if (seen && t - seen.at < intervalMs) {
      seen.suppressed++;
      return;
    }
    last.set(kind, { at: t, suppressed: 0 });
    logger.warn({ ...fields, ...(seen?.suppressed ? { suppressed: seen.suppressed } : {}) }, message);
  };
};

const describe = (fault: StoreFault): string => {
  if (fault.store === 'rate-limit') return 'rate limiter unavailable: calls are let through unchecked (fail open)';
  if (fault.store === 'audit') return 'audit log unavailable: a write was answered without its audit row';
  if (fault.operation === 'claim')
    return 'idempotency store unavailable: keyed writes are refused with 503 (fail closed)';
  return `idempotency store unavailable: the outcome of a keyed write could not be ${fault.operation === 'complete' ? 'stored' : 'released'}`;
};

/** The executor's `onStoreError`: a metric for every failure, a warning at most every 10 s per kind. */
export const storeFaultReporter = (
  logger: Logger,
  metrics: GatewayMetrics,
  intervalMs = STORE_FAULT_LOG_INTERVAL_MS,
) => {
  const warn = throttledWarn(logger, intervalMs);
  return (fault: StoreFault): void => {
    metrics.storeErrors.inc({ store: fault.store, operation: fault.operation });
    if (fault.store === 'rate-limit') metrics.rateLimitFailOpen.inc();
    const error = fault.error instanceof Error ? fault.error.message : String(fault.error);
    warn(
      `${fault.store}:${fault.operation}`,
      {
        store: fault.store,
        operation: fault.operation,
        tool: fault.tool,
        requestId: fault.requestId,
        err: { message: error },
      },
      describe(fault),
    );
  };
};

/**
 * The database pool's fault listener (databases.ts): a PostgreSQL session lost outside any awaited query
 * (terminated by the server, a dropped socket). Counted, and a warning at most every 10 s per source; the
 * process goes on, the queries on that session fail (answered 503, or an audit fault), and the pool
 * opens a new connection for the next one.
 */
export const databaseFaultReporter = (
  logger: Logger,
  metrics: GatewayMetrics,
  intervalMs = STORE_FAULT_LOG_INTERVAL_MS,
) => {
  const warn = throttledWarn(logger, intervalMs);
  return (error: Error, source: 'client' | 'pool'): void => {
    metrics.storeErrors.inc({ store: 'database', operation: source === 'pool' ? 'idle-connection' : 'connection' });
    const code = (error as { code?: unknown }).code;
    warn(
      `database:${source}`,
      { store: 'database', source, err: { message: error.message, ...(typeof code === 'string' ? { code } : {}) } },
      'database connection lost: it is discarded and the next query opens a new one',
    );
  };
};
