import { rateLimited, unavailable } from '../../domain/shared/errors.js';
import { E, type TaskEither } from '../../domain/shared/fp.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { TenantSettingsSource } from '../../ports/tenant-settings.js';
import type { UsageStore } from '../../ports/usage-store.js';
import type { CallContext, UseCase } from './define-tool.js';
import type { RegisteredTool } from './registry.js';

// The per-tenant daily cap on skip traces (TENANT_SETTINGS skip_traces_per_day, issue 32): before a lookup
// runs, one is taken from the tenant's day in the usage store (atomic, so every instance shares the cap);
// a lookup that then fails gives it back. Past the cap the call answers 429 until midnight UTC. Previews
// and dry runs take nothing. A store that cannot answer refuses the lookup (503): a cap on spending fails closed.

/** The day counter the cap is kept in (GET /v1/usage does not list it). */
export const SKIP_TRACE_QUOTA = 'quota:skiptrace';

const UNAVAILABLE_RETRY_SECONDS = 5;

const secondsToMidnight = (now: Date): number =>
  Math.max(
    1,
    Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000),
  );

export interface SkipTraceCapDeps {
  readonly store: UsageStore;
  readonly clock: Clock;
  readonly settings: TenantSettingsSource;
  /** Told when the store failed (the lookup was refused), or when giving one back failed. */
  readonly onError?: (error: unknown) => void;
}

/** Wraps the use case of a skip-trace tool of a tenant with a daily cap; any other use case is left as it is. */
export const skipTraceCap =
  (deps: SkipTraceCapDeps) =>
  (tool: RegisteredTool, tenant: string, useCase: UseCase<unknown, unknown>): UseCase<unknown, unknown> => {
    if (tool.declaration.group !== 'skiptrace') return useCase;
    const cap = deps.settings.of(tenant).skipTracesPerDay;
    if (cap === undefined) return useCase;
    const report = (error: unknown) => {
      try {
        deps.onError?.(error);
      } catch {
        // Reporting is best-effort.
      }
    };
    const execute =
      (params: unknown, context: CallContext): TaskEither<GatewayError, unknown> =>
      async () => {
        const at = deps.clock.now();
        let taken: boolean;
        try {
          taken = await deps.store.take(tenant, at, SKIP_TRACE_QUOTA, cap);
        } catch (error) {
          report(error);
          return E.left(
            unavailable(
              `Skip traces cannot be counted against this workspace's daily cap right now (the usage store is unavailable). Nothing was looked up. Retry in ${UNAVAILABLE_RETRY_SECONDS} s.`,
              UNAVAILABLE_RETRY_SECONDS,
            ),
          );
        }
        if (!taken) {
          const wait = secondsToMidnight(at);
          return E.left(
            rateLimited(
              `This workspace's daily cap of ${cap} skip traces is reached (TENANT_SETTINGS skip_traces_per_day). Nothing was looked up. The cap resets at midnight UTC, in ${wait} s.`,
              wait,
            ),
          );
        }
        const outcome = await useCase.execute(params, context)();
        if (E.isLeft(outcome)) await deps.store.release(tenant, at, SKIP_TRACE_QUOTA).catch(report);
        return outcome;
      };
    const previewable = useCase as { preview?: (p: unknown, c: CallContext) => unknown };
    return typeof previewable.preview === 'function'
      ? ({ execute, preview: previewable.preview.bind(useCase) } as UseCase<unknown, unknown>)
      : { execute };
  };
