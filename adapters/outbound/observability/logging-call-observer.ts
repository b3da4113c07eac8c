import type { Logger } from 'pino';
import type { CallObserver, ObservedCall } from '../../../ports/call-observer.js';
import { collectUpstreamCalls, type UpstreamCall } from '../http/upstream-calls.js';
import type { GatewayMetrics } from './gateway-metrics.js';

/**
 * One structured log line per tool call (request id, principal, tool, status, duration, upstream calls)
 * and the Prometheus metrics. Arguments, tokens and results are never logged.
 */
export class LoggingCallObserver implements CallObserver {
  constructor(
    private readonly logger: Logger,
    private readonly metrics: GatewayMetrics,
  ) {}

  async observe<R extends { readonly ok: boolean; readonly error?: { readonly status: number; readonly code: string } }>(call: ObservedCall, run: () => Promise<R>): Promise<R> {
    const started = performance.now();
    const upstream: UpstreamCall[] = [];
    const result = await collectUpstreamCalls(upstream, run);
    const seconds = (performance.now() - started) / 1000;
    const status = result.ok ? 200 : (result.error?.status ?? 500);
    const label = { tool: call.tool, status: String(status) };
    this.metrics.toolCalls.inc(label);
    this.metrics.toolDuration.observe(label, seconds);
    if (status === 429 && result.error?.code === 'RATE_LIMITED') this.metrics.rateLimited.inc({ group: call.group });
    for (const u of upstream) {
      this.metrics.upstreamCalls.inc({ vendor: u.vendor, status: String(u.status) });
      this.metrics.upstreamDuration.observe({ vendor: u.vendor }, u.ms / 1000);
      if (u.status === 0 || u.status === 429 || u.status >= 500) this.metrics.upstreamErrors.inc({ vendor: u.vendor });
    }
    const line = {
      requestId: call.requestId,
      principal: call.principal,
      tool: call.tool,
      status,
      ...(result.ok ? {} : { code: result.error?.code }),
      durationMs: Math.round(seconds * 1000 * 10) / 10,
      upstreamCalls: upstream.length,
      ...(upstream.length ? { upstream: upstream.map((u) => `${u.vendor} ${u.method} ${u.status} ${u.ms}ms`) } : {}),
    };
    if (status >= 500) this.logger.error(line, 'tool call');
    else this.logger.info(line, 'tool call');
    return result;
  }
}
