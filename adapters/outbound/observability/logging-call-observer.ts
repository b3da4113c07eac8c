import type { Logger } from 'pino';
import {
  observedStatus,
  type CallObserver,
  type ObservedCall,
  type ObservedOutcome,
} from '../../../ports/call-observer.js';
import { collectUpstreamCalls, type UpstreamCall } from '../http/upstream-calls.js';
import { loggedCallLine, type CallLineFields, type CallLineLevel } from './call-line.js';
import type { GatewayMetrics } from './gateway-metrics.js';

/** Child metrics per pair of label values (tool and status, tenant and group), so that the hot path neither hashes labels nor joins a key. */
class LabelledChildren<T> {
  private readonly byTool = new Map<string, Map<string, T>>();
  constructor(private readonly make: (tool: string, status: string) => T) {}
  get(tool: string, status: string): T {
    let byStatus = this.byTool.get(tool);
    if (!byStatus) this.byTool.set(tool, (byStatus = new Map()));
    let child = byStatus.get(status);
    if (!child) byStatus.set(status, (child = this.make(tool, status)));
    return child;
  }
}

/** Distinct tenant labels on the metrics; later tenants are counted under "other". */
export const MAX_TENANT_LABELS = 100;

/** Status labels as strings, made once. */
const statusLabels = new Map<number, string>();
const statusLabel = (status: number): string => {
  let label = statusLabels.get(status);
  if (label === undefined) statusLabels.set(status, (label = String(status)));
  return label;
};

const NO_UPSTREAM: readonly UpstreamCall[] = [];

/**
 * One structured log line per tool call (request id, principal, tool, status, duration, upstream calls)
 * and the Prometheus metrics. Arguments, tokens and results are never logged.
 */
export class LoggingCallObserver implements CallObserver {
  private readonly calls: LabelledChildren<() => void>;
  private readonly durations: LabelledChildren<(seconds: number) => void>;

  constructor(
    private readonly logger: Logger,
    private readonly metrics: GatewayMetrics,
    /**
     * Collect the vendor calls each tool call makes. Off when every group runs in memory: the request
     * scope it needs (AsyncLocalStorage) slows every promise on Node 20.
     */
    private readonly trackUpstream = true,
    /** How the call line is written: through the logger unless the gateway built both (see call-line.ts). */
    private readonly writeLine: (level: CallLineLevel, fields: CallLineFields) => void = loggedCallLine(logger),
    /** Told of every finished call with its vendor calls (usage per tenant); must not throw. */
    private readonly onFinished?: (call: ObservedCall, result: unknown, upstream: readonly UpstreamCall[]) => void,
  ) {
    this.calls = new LabelledChildren((tool, status) => metrics.toolCalls.bind({ tool, status }));
    this.durations = new LabelledChildren((tool, status) => metrics.toolDuration.bind({ tool, status }));
    this.byTenant = new LabelledChildren((tenant, group) => metrics.tenantCalls.bind({ tenant, group }));
  }

  private readonly byTenant: LabelledChildren<() => void>;
  private readonly tenantLabels = new Set<string>();

  private tenantCalls(tenant: string, group: string): () => void {
    if (!this.tenantLabels.has(tenant)) {
      if (this.tenantLabels.size >= MAX_TENANT_LABELS) return this.byTenant.get('other', group);
      this.tenantLabels.add(tenant);
    }
    return this.byTenant.get(tenant, group);
  }

  observe<R extends ObservedOutcome>(call: ObservedCall, run: () => Promise<R>): Promise<R> {
    const started = performance.now();
    // A promise chain rather than an async function: one promise and one turn of the microtask queue
    // fewer on every call.
    try {
      if (!this.trackUpstream) return run().then((result) => this.record(call, started, result, NO_UPSTREAM));
      const collected: UpstreamCall[] = [];
      return collectUpstreamCalls(collected, run).then((result) => this.record(call, started, result, collected));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /** The metrics and the log line of a finished call. */
  private record<R extends ObservedOutcome>(
    call: ObservedCall,
    started: number,
    result: R,
    upstream: readonly UpstreamCall[],
  ): R {
    const seconds = (performance.now() - started) / 1000;
    const { status, code } = observedStatus(result);
    const label = statusLabel(status);
    this.calls.get(call.tool, label)();
    this.tenantCalls(call.tenant, call.group)();
    this.durations.get(call.tool, label)(seconds);
    if (status === 429 && code === 'RATE_LIMITED') this.metrics.rateLimited.inc({ group: call.group });
    for (const u of upstream) {
      this.metrics.upstreamCalls.inc({ vendor: u.vendor, status: String(u.status) });
      this.metrics.upstreamDuration.observe({ vendor: u.vendor }, u.ms / 1000);
      if (u.status === 0 || u.status === 429 || u.status >= 500) this.metrics.upstreamErrors.inc({ vendor: u.vendor });
    }
    this.onFinished?.(call, result, upstream);
    const level = status >= 500 ? 'error' : 'info';
    if (!this.logger.isLevelEnabled(level)) return result;
    this.writeLine(level, {
      requestId: call.requestId,
      tenant: call.tenant,
      principal: call.principal,
      principalId: call.principalId,
      tool: call.tool,
      status,
      code,
      durationMs: Math.round(seconds * 10_000) / 10,
      upstreamCalls: upstream.length,
      upstream: upstream.length ? upstream.map((u) => `${u.vendor} ${u.method} ${u.status} ${u.ms}ms`) : undefined,
    });
    return result;
  }
}
