import type { Principal } from '../../ports/authenticator.js';
import type { AuditEntry } from '../../ports/audit-log.js';
import type { RegisteredTool } from './registry.js';
import type { Approver, Settled } from './executor-types.js';
import { UNAVAILABLE_RETRY_SECONDS } from './idempotency.js';
import { toolError } from './tool-error.js';

const ID_KEY = /(^|_)ids?$|^Id$/;
const MAX_TARGETS = 50;
const MAX_ID = 200;

/** The ids in an object's top level (`contact_id`, `record_ids`, `id`, `Id`): never other values. */
const idsIn = (value: unknown, into: Set<string>): void => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  for (const [key, v] of Object.entries(value)) {
    if (!ID_KEY.test(key)) continue;
    for (const id of Array.isArray(v) ? v : [v]) {
      if (into.size >= MAX_TARGETS) return;
      if (typeof id === 'string' || typeof id === 'number') into.add(String(id).slice(0, MAX_ID));
    }
  }
};

/** The audit row of one call: the ids it named and made, its outcome, a skip trace's purpose, and who approved it. */
export const auditEntryOf = (
  tool: RegisteredTool,
  args: unknown,
  principal: Principal,
  requestId: string,
  result: Settled,
  at: Date,
  vendor: string | undefined,
  approver: Approver = 'nobody',
): AuditEntry => {
  const targets = new Set<string>();
  idsIn(args, targets);
  if (result.ok) idsIn(result.payload, targets);
  const purpose = (args as { purpose?: unknown } | undefined)?.purpose;
  return {
    at,
    tenant: principal.tenant,
    principal: principal.id,
    tool: tool.name,
    ...(vendor ? { vendor } : {}),
    targets: [...targets],
    status: result.ok ? 200 : result.error.status,
    ...(result.ok ? {} : { code: result.error.code }),
    requestId,
    ...(typeof purpose === 'string' ? { purpose: purpose.slice(0, 200) } : {}),
    approver,
    // A replay ran nothing: its row is marked, pointing at the call that did (see AuditEntry.replay).
    ...(result.meta?.replayed
      ? { replay: true, ...(result.meta.replayOf ? { replayOf: result.meta.replayOf } : {}) }
      : {}),
  };
};

/** Issue 37: a write whose audit row could not be kept is not run. */
export const auditUnavailable = toolError(
  503,
  'UNAVAILABLE',
  `Writes cannot be accepted right now: the audit log's database is away and the gateway's local spool of audit rows is full. Nothing was changed. Retry in ${UNAVAILABLE_RETRY_SECONDS} s.`,
  { retry_after_seconds: UNAVAILABLE_RETRY_SECONDS, retryable: true },
);
