import type { Logger } from 'pino';
import type { Counter, Histogram } from 'prom-client';
import type { CallObserver, ObservedCall } from '../../../ports/call-observer.js';
import { collectUpstreamCalls, type UpstreamCall } from '../http/upstream-calls.js';
import type { GatewayMetrics } from './gateway-metrics.js';

/** Child metrics per label set, so that the hot path does not hash labels on every call. */
class Children<T> {
  private readonly cache = new Map<string, T>();
  constructor(private readonly make: (...labels: string[]) => T) {}
  get(...labels: string[]): T {
    const key = labels.join('\u0000');
    let child = this.cache.get(key);
    if (!child) {
      child = this.make(...labels);
      this.cache.set(key, child);
    }
    return child;
  }
}

/**
 * One structured log line per tool call (request id, principal, tool, status, duration, upstream calls)
 * and the Prometheus metrics. Arguments, tokens and results are never logged.
 */
export class LoggingCallObserver implements CallObserver {
  private readonly calls: Children<ReturnType<Counter['labels']>>;
  private readonly durations: Children<ReturnType<Histogram['labels']>>;

  constructor(
    private readonly logger: Logger,
    private readonly metrics: GatewayMetrics,
    /**
     * Collect the vendor calls each tool call makes. Off when every group runs in memory: the request
     * scope it needs (AsyncLocalStorage) slows every promise on Node 20.
     */
    private readonly trackUpstream = true,
  ) {
    this.calls = new Children((tool, status) => metrics.toolCalls.labels(tool!, status!));
    this.durations = new Children((tool, status) => metrics.toolDuration.labels(tool!, status!));
  }

  async observe<
    R extends { readonly ok: boolean; readonly error?: { readonly status: number; readonly code: string } },
  >(call: ObservedCall, run: () => Promise<R>): Promise<R> {
    const started = performance.now();
    const upstream: UpstreamCall[] = [];
    const result = this.trackUpstream ? await collectUpstreamCalls(upstream, run) : await run();
    const seconds = (performance.now() - started) / 1000;
    const status = result.ok ? 200 : (result.error?.status ?? 500);
    const statusLabel = String(status);
    this.calls.get(call.tool, statusLabel).inc();
    this.durations.get(call.tool, statusLabel).observe(seconds);
    if (status === 429 && result.error?.code === 'RATE_LIMITED') this.metrics.rateLimited.inc({ group: call.group });
    for (const u of upstream) {
      this.metrics.upstreamCalls.inc({ vendor: u.vendor, status: String(u.status) });
      this.metrics.upstreamDuration.observe({ vendor: u.vendor }, u.ms / 1000);
      if (u.status === 0 || u.status === 429 || u.status >= 500) this.metrics.upstreamErrors.inc({ vendor: u.vendor });
    }
    const level = status >= 500 ? 'error' : 'info';
    if (!this.logger.isLevelEnabled(level)) return result;
    this.logger[level](
      {
        requestId: call.requestId,
        principal: call.principal,
        tool: call.tool,
        status,
        ...(result.ok ? {} : { code: result.error?.code }),
        durationMs: Math.round(seconds * 10_000) / 10,
        upstreamCalls: upstream.length,
        ...(upstream.length ? { upstream: upstream.map((u) => `${u.vendor} ${u.method} ${u.status} ${u.ms}ms`) } : {}),
      },
      'tool call',
    );
    return result;
  }
}
