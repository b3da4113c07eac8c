import { rateLimited, unavailable } from '../../domain/shared/errors.js';
import { E, type TaskEither } from '../../domain/shared/fp.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { TenantSettings, TenantSettingsSource } from '../../ports/tenant-settings.js';
import type { QuotaPeriod, UsageStore } from '../../ports/usage-store.js';
import type { CallContext, UseCase } from './define-tool.js';
import type { RegisteredTool } from './registry.js';

// The per-tenant quotas of TENANT_SETTINGS (issue 32), kept in the usage store so that every instance shares
// them (each take is one atomic step):
// - skip_traces_per_day, skip_traces_per_month: before a lookup runs one is taken from the tenant's UTC day
//   and month; a lookup that then fails gives them back (it is not billed);
// - tool_calls_per_day: before any tool call runs (every surface: REST, the tool-call form, MCP; the use
//   case is where they meet, once a call) one is taken from the tenant's UTC day; never given back once the
//   call started. A call turned away earlier (authentication, arguments, rate limit, approval) or answered
//   from the idempotency store (a replay runs nothing) takes none.
// Past a quota the call answers 429 naming it, until midnight UTC or the first of the next month UTC.
// Previews and dry runs take nothing. A store that cannot answer refuses the call (503): quotas fail closed.

/** The counter the skip-trace caps are kept in (one a day, one a month; GET /v1/usage does not list it). */
export const SKIP_TRACE_QUOTA = 'quota:skiptrace';
/** The counter of the daily tool-call quota. */
export const TOOL_CALL_QUOTA = 'quota:calls';

const UNAVAILABLE_RETRY_SECONDS = 5;

/** When a period containing `now` ends: the next UTC midnight, or the first of the next UTC month. */
export const quotaResetOf = (now: Date, period: QuotaPeriod): Date =>
  period === 'day'
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

interface Quota {
  readonly name: string;
  readonly period: QuotaPeriod;
  readonly limit: number;
  /** Given back when the call fails (a skip trace that failed is not billed). */
  readonly refunded: boolean;
  /** What is refused past it (`429`), and what did not happen. */
  readonly refusal: (limit: string, reset: string) => string;
  readonly what: string;
}

const formatted = (n: number) => n.toLocaleString('en-US');

/** The quotas a tenant's call of `tool` takes, in the order they are taken. */
const NONE: readonly Quota[] = [];

const quotasOf = (tool: RegisteredTool, settings: TenantSettings): readonly Quota[] => {
  if (
    settings.toolCallsPerDay === undefined &&
    (tool.declaration.group !== 'skiptrace' ||
      (settings.skipTracesPerDay === undefined && settings.skipTracesPerMonth === undefined))
  )
    return NONE;
  const quotas: Quota[] = [];
  if (tool.declaration.group === 'skiptrace') {
    const skipTraces = (period: QuotaPeriod, limit: number | undefined) => {
      if (limit === undefined) return;
      const [adjective, variable] = period === 'day' ? ['daily', 'per_day'] : ['monthly', 'per_month'];
      quotas.push({
        name: SKIP_TRACE_QUOTA,
        period,
        limit,
        refunded: true,
        what: 'skip traces',
        refusal: (n, reset) =>
          `This workspace's ${adjective} cap of ${n} skip traces is reached (TENANT_SETTINGS skip_traces_${variable}). Nothing was looked up. The cap resets ${reset}.`,
      });
    };
    skipTraces('day', settings.skipTracesPerDay);
    skipTraces('month', settings.skipTracesPerMonth);
  }
  if (settings.toolCallsPerDay !== undefined)
    quotas.push({
      name: TOOL_CALL_QUOTA,
      period: 'day',
      limit: settings.toolCallsPerDay,
      refunded: false,
      what: 'tool calls',
      refusal: (limit, reset) =>
        `This workspace's ${limit} tool calls a day are used up (TENANT_SETTINGS tool_calls_per_day). Nothing was run. The quota resets ${reset}.`,
    });
  return quotas;
};

export interface UsageQuotaDeps {
  readonly store: UsageStore;
  readonly clock: Clock;
  readonly settings: TenantSettingsSource;
  /** Told when the store failed (the call was refused), or when giving one back failed. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Wraps the use case of a tool of a tenant with the tenant's quotas (TENANT_SETTINGS skip_traces_per_day,
 * skip_traces_per_month, tool_calls_per_day); a use case no quota applies to is left as it is.
 */
export const usageQuotas =
  (deps: UsageQuotaDeps) =>
  (tool: RegisteredTool, tenant: string, useCase: UseCase<unknown, unknown>): UseCase<unknown, unknown> => {
    const quotas = quotasOf(tool, deps.settings.of(tenant));
    if (quotas.length === 0) return useCase;
    const report = (error: unknown) => {
      try {
        deps.onError?.(error);
      } catch {
        // Reporting is best-effort.
      }
    };
    const giveBack = (at: Date, taken: readonly Quota[]) =>
      Promise.all(taken.map((q) => deps.store.release(tenant, at, q.name, q.period).catch(report)));
    const execute =
      (params: unknown, context: CallContext): TaskEither<GatewayError, unknown> =>
      async () => {
        const at = deps.clock.now();
        const taken: Quota[] = [];
        for (const quota of quotas) {
          let ok: boolean;
          try {
            ok = await deps.store.take(tenant, at, quota.name, quota.limit, quota.period);
          } catch (error) {
            report(error);
            await giveBack(at, taken);
            return E.left(
              unavailable(
                `This workspace's ${quota.what} cannot be counted against its quota right now (the usage store is unavailable). Nothing was run. Retry in ${UNAVAILABLE_RETRY_SECONDS} s.`,
                UNAVAILABLE_RETRY_SECONDS,
              ),
            );
          }
          if (!ok) {
            // Nothing ran: whatever this call took of the other quotas goes back.
            await giveBack(at, taken);
            const reset = quotaResetOf(at, quota.period);
            const wait = Math.max(1, Math.ceil((reset.getTime() - at.getTime()) / 1000));
            const when = quota.period === 'day' ? 'at midnight UTC' : 'on the first of next month, 00:00 UTC';
            return E.left(
              rateLimited(
                quota.refusal(formatted(quota.limit), `${when} (${reset.toISOString()}), in ${wait} s`),
                wait,
              ),
            );
          }
          taken.push(quota);
        }
        const outcome = await useCase.execute(params, context)();
        if (E.isLeft(outcome))
          await giveBack(
            at,
            taken.filter((q) => q.refunded),
          );
        return outcome;
      };
    const previewable = useCase as { preview?: (p: unknown, c: CallContext) => unknown };
    return typeof previewable.preview === 'function'
      ? ({ execute, preview: previewable.preview.bind(useCase) } as UseCase<unknown, unknown>)
      : { execute };
  };
