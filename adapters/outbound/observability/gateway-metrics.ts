import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from './prom.js';
import { BoundCounter, BoundHistogram } from './bound-metrics.js';

/** The gateway's Prometheus metrics, in a registry of its own (several gateways may share a process). */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly toolCalls = new BoundCounter({
    name: 'gateway_tool_calls_total',
    help: 'Tool calls by tool and status',
    labelNames: ['tool', 'status'],
    registers: [this.registry],
  });
  /** Per tenant and group; tenants past the first MAX_TENANT_LABELS share the label "other" (bounded series). */
  readonly tenantCalls = new BoundCounter({
    name: 'gateway_tenant_tool_calls_total',
    help: 'Tool calls by tenant and tool group (tenants beyond the first 100 seen are counted as "other")',
    labelNames: ['tenant', 'group'],
    registers: [this.registry],
  });
  /** Usage per tenant (issue 32); tenants past USAGE_TENANT_LABELS share the label "other" (usage-metrics.ts). */
  readonly tenantUsageCalls = new Counter({
    name: 'gateway_tenant_usage_tool_calls_total',
    help: 'Tool calls by tenant, tool and outcome (ok, accepted, replayed, refused, failed); tenants beyond the first USAGE_TENANT_LABELS are "other"',
    labelNames: ['tenant', 'tool', 'outcome'],
    registers: [this.registry],
  });
  readonly tenantVendorCalls = new Counter({
    name: 'gateway_tenant_vendor_calls_total',
    help: 'Vendor API calls by tenant and vendor; tenants beyond the first USAGE_TENANT_LABELS are "other"',
    labelNames: ['tenant', 'vendor'],
    registers: [this.registry],
  });
  readonly tenantSkipTraces = new Counter({
    name: 'gateway_tenant_skiptrace_lookups_total',
    help: 'Skip traces that reached the vendor, by tenant; tenants beyond the first USAGE_TENANT_LABELS are "other"',
    labelNames: ['tenant'],
    registers: [this.registry],
  });
  readonly tenantSkipTraceMatches = new Counter({
    name: 'gateway_tenant_skiptrace_matches_total',
    help: 'Skip trace matches (what BatchData bills), by tenant; tenants beyond the first USAGE_TENANT_LABELS are "other"',
    labelNames: ['tenant'],
    registers: [this.registry],
  });
  readonly tenantVendorBytes = new Counter({
    name: 'gateway_tenant_vendor_bytes_total',
    help: 'Body bytes received from the vendors (direction "in") and sent to them ("out"), by tenant; tenants beyond the first USAGE_TENANT_LABELS are "other"',
    labelNames: ['tenant', 'direction'],
    registers: [this.registry],
  });
  readonly toolDuration = new BoundHistogram({
    name: 'gateway_tool_call_duration_seconds',
    help: 'Tool call duration by tool and status',
    labelNames: ['tool', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly upstreamCalls = new Counter({
    name: 'gateway_upstream_calls_total',
    help: 'Calls to vendor APIs by vendor and status',
    labelNames: ['vendor', 'status'],
    registers: [this.registry],
  });
  readonly upstreamErrors = new Counter({
    name: 'gateway_upstream_errors_total',
    help: 'Vendor calls that failed (no answer, 429 or 5xx) by vendor',
    labelNames: ['vendor'],
    registers: [this.registry],
  });
  readonly upstreamDuration = new Histogram({
    name: 'gateway_upstream_call_duration_seconds',
    help: 'Vendor call duration by vendor',
    labelNames: ['vendor'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly rejected = new Counter({
    name: 'gateway_rejected_requests_total',
    help: 'Tool requests refused before a tool ran (missing or bad token, bad JSON, unknown tool), by status',
    labelNames: ['status'],
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'gateway_rate_limit_refusals_total',
    help: 'Calls refused by the rate limit, by tool group',
    labelNames: ['group'],
    registers: [this.registry],
  });
  readonly rateLimitFailOpen = new Counter({
    name: 'gateway_rate_limit_fail_open_total',
    help: 'Calls let through without a rate-limit check because the limiter (Redis) failed or was slow',
    registers: [this.registry],
  });
  readonly storeErrors = new Counter({
    name: 'gateway_store_errors_total',
    help: 'Failures of the shared stores (rate limits, idempotency records, upstream tokens), by store and operation',
    labelNames: ['store', 'operation'],
    registers: [this.registry],
  });

  /**
   * 1 while a shared dependency (redis, database) answered its last readiness check, 0 while it did not:
   * set on every GET /readyz and every scrape. A dependency that is down degrades an instance, it does
   * not take it out (see composition/readiness.ts).
   */
  readonly dependencyUp = new Gauge({
    name: 'gateway_dependency_up',
    help: 'Shared dependencies (redis, database): 1 when the last readiness check reached it, 0 when not',
    labelNames: ['dependency'],
    registers: [this.registry],
  });
  /** 0 closed, 0.5 half-open, 1 open: the last state a vendor client's breaker reported. */
  readonly breakerState = new Gauge({
    name: 'gateway_upstream_breaker_state',
    help: 'Circuit breaker of the vendor clients: 0 closed, 0.5 half-open, 1 open (the last change reported)',
    labelNames: ['vendor'],
    registers: [this.registry],
  });
  readonly breakerOpened = new Counter({
    name: 'gateway_upstream_breaker_opened_total',
    help: 'Times a vendor client breaker opened',
    labelNames: ['vendor'],
    registers: [this.registry],
  });

  readonly quotaRemaining = new Gauge({
    name: 'gateway_upstream_quota_remaining',
    help: "Calls left in a vendor's rate-limit window, as its last answer said (HubSpot interval and daily, Podio hourly)",
    labelNames: ['vendor', 'window'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics(this.registry, 'gateway_');
    // prom-client gives three of its default gauges a second name ending in _total, a suffix Prometheus keeps
    // for counters (rate() over them is meaningless). The same figures stay, by type, under the gauges'
    // own names: gateway_nodejs_active_resources, _handles and _requests.
    for (const name of GAUGES_NAMED_AS_COUNTERS) this.registry.removeSingleMetric(`gateway_${name}`);
  }
}

/** prom-client's default gauges whose names end in _total (their totals by type stay under the gauges' names). */
const GAUGES_NAMED_AS_COUNTERS = [
  'nodejs_active_resources_total',
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
];
