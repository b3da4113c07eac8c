import type { Clock } from '../../ports/clock.js';
import { usagePeriodsOf, type UsageCounts, type UsageStore } from '../../ports/usage-store.js';
import type { ToolResult } from './executor-types.js';

// What each tenant spends (issue 32): tool calls by tool and outcome, vendor calls by vendor, the bytes of
// the vendors' bodies received and sent, and BatchData skip traces (lookups, and the matches BatchData bills). Counted per call in memory and added to the shared
// store about once a second, so a call never waits on it; GET /v1/usage reads the store.

/** How a call ended, for usage: it ran (`ok`), was answered from the idempotency store (`replayed`), was
 * refused or failed on the caller's side (`refused`, 4xx), or failed on the gateway's or vendor's (`failed`). */
export type UsageOutcome = 'ok' | 'accepted' | 'replayed' | 'refused' | 'failed';

export const usageOutcomeOf = (result: ToolResult): UsageOutcome => {
  if (result.meta?.replayed) return 'replayed';
  // a call that started a job: the job's own run is the call's `ok` or `failed`, so a job is one tool call
  if (result.ok && result.meta?.deferred) return 'accepted';
  if (result.ok) return 'ok';
  // A person's approval asked for: nothing ran yet, as a refusal on the caller's side (428).
  if (result.awaiting === 'approval') return 'refused';
  return result.error.status >= 500 ? 'failed' : 'refused';
};

/** The matches a skip trace's answer reports (BatchData bills each); 0 for any other answer. */
export const skipTraceMatchesOf = (payload: unknown): number => {
  const n = (payload as { results?: { meta?: { results?: { matchCount?: unknown } } } } | null)?.results?.meta?.results
    ?.matchCount;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 0;
};

/** One finished tool call, as usage counts it. */
export interface CountedCall {
  readonly tenant: string;
  readonly tool: string;
  readonly group: string;
  readonly outcome: UsageOutcome;
  /** The vendor of each vendor call it made. */
  readonly vendors: readonly string[];
  /** Skip traces: 1 when the lookup reached the vendor (not a replay), and the matches it billed. */
  readonly skipTraces: number;
  readonly matches: number;
  /** Body bytes received from the vendors and sent to them (0 when the HTTP layer did not report them). */
  readonly bytesIn: number;
  readonly bytesOut: number;
}

/** The vendor calls of a call, as the HTTP layer reports them (upstream-calls.ts). */
export interface CountedVendorCall {
  readonly vendor: string;
  readonly bytes?: number;
  readonly bytesSent?: number;
}

const byteCount = (n: number | undefined): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);

export const countedCall = (
  call: { readonly tenant: string; readonly tool: string; readonly group: string },
  result: ToolResult,
  upstream: readonly CountedVendorCall[],
): CountedCall => {
  const outcome = usageOutcomeOf(result);
  const traced = call.group === 'skiptrace' && outcome === 'ok';
  let bytesIn = 0;
  let bytesOut = 0;
  for (const u of upstream) {
    bytesIn += byteCount(u.bytes);
    bytesOut += byteCount(u.bytesSent);
  }
  return {
    tenant: call.tenant,
    tool: call.tool,
    group: call.group,
    outcome,
    vendors: upstream.map((u) => u.vendor),
    skipTraces: traced ? 1 : 0,
    matches: traced && result.ok ? skipTraceMatchesOf(result.payload) : 0,
    bytesIn,
    bytesOut,
  };
};

export interface UsageMeterOptions {
  readonly store: UsageStore;
  readonly clock: Clock;
  /** How often the counts gathered here are added to the store (default 1 s). */
  readonly flushMs?: number;
  /** Most tenants gathered between two additions; one more adds them at once (default 1000). */
  readonly maxPending?: number;
  /** Told when the store failed (those counts are lost; usage is best-effort, never a call's failure). */
  readonly onError?: (error: unknown) => void;
}

/** A view of one period's counters, as GET /v1/usage answers it. */
export interface UsageView {
  readonly period: string;
  readonly tool_calls: {
    readonly total: number;
    readonly by_tool: Record<string, Partial<Record<UsageOutcome, number>>>;
  };
  readonly vendor_calls: { readonly total: number; readonly by_vendor: Record<string, number> };
  /** Body bytes received from the vendors (`vendor_in`) and sent to them (`vendor_out`). */
  readonly bytes: { readonly vendor_in: number; readonly vendor_out: number };
  readonly skip_traces: { readonly lookups: number; readonly matches: number };
}

export const usageView = (period: string, counts: UsageCounts): UsageView => {
  const byTool: Record<string, Partial<Record<UsageOutcome, number>>> = {};
  const byVendor: Record<string, number> = {};
  let calls = 0;
  let vendorCalls = 0;
  for (const [name, n] of Object.entries(counts)) {
    const [kind, a, b] = name.split(':');
    if (kind === 'tool' && a && b) {
      (byTool[a] ??= {})[b as UsageOutcome] = n;
      calls += n;
    } else if (kind === 'vendor' && a) {
      byVendor[a] = n;
      vendorCalls += n;
    }
  }
  return {
    period,
    tool_calls: { total: calls, by_tool: byTool },
    vendor_calls: { total: vendorCalls, by_vendor: byVendor },
    bytes: { vendor_in: counts['bytes:vendor_in'] ?? 0, vendor_out: counts['bytes:vendor_out'] ?? 0 },
    skip_traces: { lookups: counts['skiptrace:lookups'] ?? 0, matches: counts['skiptrace:matches'] ?? 0 },
  };
};

/** Gathers the counts of finished calls and adds them to the store in batches. */
export class UsageMeter {
  /** Per tenant, the counters gathered since the last addition (at most maxPending tenants). */
  #pending = new Map<string, Map<string, number>>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(private readonly options: UsageMeterOptions) {}

  count(call: CountedCall): void {
    let counters = this.#pending.get(call.tenant);
    if (!counters) {
      if (this.#pending.size >= (this.options.maxPending ?? 1000)) void this.flush();
      this.#pending.set(call.tenant, (counters = new Map()));
    }
    const bump = (name: string, n = 1) => counters.set(name, (counters.get(name) ?? 0) + n);
    bump(`tool:${call.tool}:${call.outcome}`);
    for (const vendor of call.vendors) bump(`vendor:${vendor}`);
    if (call.skipTraces) bump('skiptrace:lookups', call.skipTraces);
    if (call.matches) bump('skiptrace:matches', call.matches);
    if (call.bytesIn) bump('bytes:vendor_in', call.bytesIn);
    if (call.bytesOut) bump('bytes:vendor_out', call.bytesOut);
    this.#timer ??= setTimeout(() => void this.flush(), this.options.flushMs ?? 1000).unref();
  }

  /** Adds what was gathered to the store (the counts of a failed addition are reported and dropped). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#pending;
    this.#pending = new Map();
    if (batch.size === 0) return this.#flushing;
    const at = this.options.clock.now();
    const added = Promise.all(
      [...batch].map(([tenant, counters]) =>
        this.options.store.add(tenant, at, Object.fromEntries(counters)).catch((error: unknown) => {
          try {
            this.options.onError?.(error);
          } catch {
            // Reporting is best-effort.
          }
        }),
      ),
    ).then(() => undefined);
    this.#flushing = this.#flushing.then(() => added);
    return this.#flushing;
  }

  /** The tenant's usage this UTC day and month (this instance's pending counts added first). */
  async read(tenant: string): Promise<{ readonly day: UsageView; readonly month: UsageView }> {
    await this.flush();
    const at = this.options.clock.now();
    const { day, month } = usagePeriodsOf(at);
    const counts = await this.options.store.read(tenant, at);
    return { day: usageView(day, counts.day), month: usageView(month, counts.month) };
  }

  /** Adds what is pending and stops the timer (shutdown). */
  close(): Promise<void> {
    return this.flush();
  }
}
