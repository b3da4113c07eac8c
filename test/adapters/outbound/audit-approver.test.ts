import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { AuditEntry, AuditLog } from '../../../ports/audit-log.js';
import { inEachAuditStore } from '../../support/audit-stores.js';
import { NOW } from '../../support/gateway.js';

// Who approved a call (issue 30) is kept by every audit store: the memory store, the embedded SQLite and
// PostgreSQL (the column added by migration 2026-11-28-01-audit-approver); a row without one (a connection
// change) reads back without it.

const tenant = `approver-${randomBytes(4).toString('hex')}`;
const entry = (tool: string, approver?: AuditEntry['approver']): AuditEntry => ({
  at: NOW,
  tenant,
  principal: 'key:agent',
  tool,
  targets: ['101'],
  status: 200,
  requestId: `req-${tool}`,
  ...(approver ? { approver } : {}),
});

const roundTrip = async (log: AuditLog) => {
  await log.record(entry('crm_deleteContact', 'person'));
  await log.record(entry('crm_deleteContact', 'model'));
  await log.record(entry('skiptrace_skipTraceProperty', 'nobody'));
  await log.record(entry('connections.connect'));
  const rows = await log.query({ tenant, limit: 10 });
  expect(rows.map((r) => [r.tool, r.approver])).toEqual([
    ['connections.connect', undefined],
    ['skiptrace_skipTraceProperty', 'nobody'],
    ['crm_deleteContact', 'model'],
    ['crm_deleteContact', 'person'],
  ]);
};

describe('the approver in each audit store', () => {
  inEachAuditStore('audit-approver-', roundTrip);
});
