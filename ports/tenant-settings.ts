// Per-tenant settings an operator chooses (TENANT_SETTINGS, over the defaults HUMAN_APPROVAL and
// TOOL_SEARCH_ABOVE): who approves what cannot be undone, and when tools/list turns into tool search.

/**
 * Who approves a Destructive call or a skip trace (which costs money):
 * - `off`: nobody is asked; GATEWAY_CONFIRM_DESTRUCTIVE alone decides whether a confirm token is needed;
 * - `when_possible`: a person is asked when the client can ask one (MCP 2026-07-28 `input_required`, or a
 *   2025-11-25 client that declares elicitation); any other client gets the confirm-token flow (when
 *   GATEWAY_CONFIRM_DESTRUCTIVE is on), and the answer says the model confirmed, not a person;
 * - `required`: a person must approve; a client that cannot ask one is refused, with a message saying why.
 */
export type HumanApproval = 'off' | 'when_possible' | 'required';

export const HUMAN_APPROVAL_MODES: readonly HumanApproval[] = ['off', 'when_possible', 'required'];

export interface TenantSettings {
  readonly humanApproval: HumanApproval;
  /**
   * tools/list answers the tool-search meta tools instead of the catalogue when the caller would see more
   * than this many tools (0: only when the client asks, with `/mcp?discovery=search`).
   */
  readonly toolSearchAbove: number;
  /** Most skip traces a UTC day (each may be billed); more answer 429 until the next day. None: no cap. */
  readonly skipTracesPerDay?: number;
  /** Most skip traces a UTC month; more answer 429 until the first of the next month. None: no cap. */
  readonly skipTracesPerMonth?: number;
  /** Most tool calls a UTC day (every tool, every surface; counted as a call starts); more answer 429. */
  readonly toolCallsPerDay?: number;
}

/** The settings of each tenant: the tenant's own where configured, else the gateway's defaults. */
export interface TenantSettingsSource {
  of(tenant: string): TenantSettings;
}

/** One tenant's configured overrides (TENANT_SETTINGS), as written in the JSON. */
export interface TenantSettingsOverride {
  readonly human_approval?: HumanApproval;
  readonly tool_search_above?: number;
  readonly skip_traces_per_day?: number;
  readonly skip_traces_per_month?: number;
  readonly tool_calls_per_day?: number;
}

/** Settings from configuration: a fixed map over the defaults, made once (no per-call allocation). */
export const configuredTenantSettings = (
  defaults: TenantSettings,
  overrides: Readonly<Record<string, TenantSettingsOverride>> = {},
): TenantSettingsSource => {
  const byTenant = new Map<string, TenantSettings>(
    Object.entries(overrides).map(([tenant, o]) => [
      tenant,
      {
        humanApproval: o.human_approval ?? defaults.humanApproval,
        toolSearchAbove: o.tool_search_above ?? defaults.toolSearchAbove,
        ...(o.skip_traces_per_day !== undefined ? { skipTracesPerDay: o.skip_traces_per_day } : {}),
        ...(o.skip_traces_per_month !== undefined ? { skipTracesPerMonth: o.skip_traces_per_month } : {}),
        ...(o.tool_calls_per_day !== undefined ? { toolCallsPerDay: o.tool_calls_per_day } : {}),
      },
    ]),
  );
  return { of: (tenant) => byTenant.get(tenant) ?? defaults };
};
