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
