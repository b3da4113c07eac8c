import type { Logger } from 'pino';
import type { UpstreamCall } from '../adapters/outbound/http/upstream-calls.js';
import { directCallLine } from '../adapters/outbound/observability/call-line.js';
import type { LineSink } from '../adapters/outbound/observability/turn-batched-lines.js';
import type { GatewayMetrics } from '../adapters/outbound/observability/gateway-metrics.js';
import { LoggingCallObserver } from '../adapters/outbound/observability/logging-call-observer.js';
import { startTracing, type GatewayTracing } from '../adapters/outbound/observability/tracing.js';
import type { CallObserver, ObservedCall } from '../ports/call-observer.js';
import type { GatewayConfig } from './config.js';
import { VERSION } from './version.js';

/**
 * What watches every tool call: the log line and metrics (and usage, through `onFinished`), inside a span per
 * call when OpenTelemetry tracing is configured (the SDK is loaded only then).
 */
export const callObserver = (deps: {
  readonly config: GatewayConfig;
  readonly logger: Logger;
  readonly metrics: GatewayMetrics;
  /** Some group reaches a vendor: the vendor calls of each tool call are collected. */
  readonly upstream: boolean;
  /** The gateway's own line sink, when it built the logger (call lines are then written directly). */
  readonly lines?: LineSink;
  readonly onFinished: (call: ObservedCall, result: unknown, upstream: readonly UpstreamCall[]) => void;
}): { readonly observer: CallObserver; readonly tracing?: GatewayTracing } => {
  const { config, logger, metrics } = deps;
  const logging = new LoggingCallObserver(
    logger,
    metrics,
    deps.upstream,
    deps.lines && directCallLine(logger, deps.lines),
    deps.onFinished,
  );
  const tracing = config.tracing && startTracing(config.tracing, VERSION);
  return tracing ? { observer: tracing.observer(logging), tracing } : { observer: logging };
};
