import type { CountedCall } from '../../../application/runtime/usage.js';
import type { GatewayMetrics } from './gateway-metrics.js';

/** The label of the tenants past the bound. */
export const OTHER_TENANTS = 'other';

/**
 * The usage metrics per tenant (gateway_tenant_usage_tool_calls_total, gateway_tenant_vendor_calls_total,
 * gateway_tenant_vendor_bytes_total, gateway_tenant_skiptrace_{lookups,matches}_total). The first `maxTenants` tenants seen by this process get
 * a label of their own, the rest share "other", so the series stay bounded (tools, outcomes and vendors
 * are bounded by the registry).
 */
export class TenantUsageMetrics {
  readonly #labelled = new Set<string>();

  constructor(
    private readonly metrics: GatewayMetrics,
    private readonly maxTenants: number,
  ) {}

  /** The tenant's label: its id while fewer than maxTenants have one, else "other". */
  labelOf(tenant: string): string {
    if (this.#labelled.has(tenant)) return tenant;
    if (this.#labelled.size >= this.maxTenants) return OTHER_TENANTS;
    this.#labelled.add(tenant);
    return tenant;
  }

  count(call: CountedCall): void {
    const tenant = this.labelOf(call.tenant);
    this.metrics.tenantUsageCalls.inc({ tenant, tool: call.tool, outcome: call.outcome });
    for (const vendor of call.vendors) this.metrics.tenantVendorCalls.inc({ tenant, vendor });
    if (call.skipTraces) this.metrics.tenantSkipTraces.inc({ tenant }, call.skipTraces);
    if (call.matches) this.metrics.tenantSkipTraceMatches.inc({ tenant }, call.matches);
    if (call.bytesIn) this.metrics.tenantVendorBytes.inc({ tenant, direction: 'in' }, call.bytesIn);
    if (call.bytesOut) this.metrics.tenantVendorBytes.inc({ tenant, direction: 'out' }, call.bytesOut);
  }
}
