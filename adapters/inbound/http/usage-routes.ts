import type { Hono } from 'hono';
import { isAllowed } from '../../../application/runtime/define-tool.js';
import { toolError } from '../../../application/runtime/tool-error.js';
import type { UsageMeter } from '../../../application/runtime/usage.js';
import type { Authenticator } from '../../../ports/authenticator.js';
import { failure, json, principalOr401, storeUnavailableAnswer } from './api-answers.js';

// GET /v1/usage (issue 32): what the caller's tenant spent this UTC day and month: tool calls by tool and
// outcome, vendor calls by vendor, skip traces and their matches. Needs audit:read, like the audit log.

export interface UsageRouteDeps {
  readonly authenticator: Authenticator;
  readonly usage: UsageMeter;
  /** Told when the usage store failed under a request (answered 503). */
  readonly onStoreError?: (error: unknown) => void;
}

const USAGE_PERMISSION = 'audit:read';

/** The start of the next UTC day and month: when each period's counts start afresh. */
const resets = (now: Date) => ({
  day: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString(),
  month: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
});

export const mountUsageRoutes = (app: Hono, deps: UsageRouteDeps): void => {
  app.get('/v1/usage', async (c) => {
    const principal = await principalOr401(deps.authenticator, c.req.header('authorization'));
    if (principal instanceof Response) return principal;
    if (!isAllowed(principal, USAGE_PERMISSION))
      return failure(
        toolError(403, 'FORBIDDEN', `Reading the usage needs the "${USAGE_PERMISSION}" permission.`, {
          permission: USAGE_PERMISSION,
        }),
      );
    let usage: Awaited<ReturnType<UsageMeter['read']>>;
    try {
      usage = await deps.usage.read(principal.tenant);
    } catch (error) {
      deps.onStoreError?.(error);
      return storeUnavailableAnswer('usage');
    }
    const reset = resets(new Date(`${usage.day.period}T00:00:00Z`));
    return json(200, {
      success: true,
      data: {
        tenant: principal.tenant,
        day: { ...usage.day, resets_at: reset.day },
        month: { ...usage.month, resets_at: reset.month },
      },
    });
  });
};
