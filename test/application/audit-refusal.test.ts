import { describe, expect, it } from 'vitest';
import { ToolExecutor, type UseCaseResolver } from '../../application/runtime/executor.js';
import type { AuditEntry } from '../../ports/audit-log.js';
import { everyone, testGateway } from '../support/gateway.js';

// Issue 37: a write whose audit row could not be kept (the database away and the local spool full) is refused
// with 503 UNAVAILABLE and a retry time before it runs; reads are not affected.

const setup = (accepting: boolean) => {
  const g = testGateway();
  const resolve = (g.executor as unknown as { resolve: UseCaseResolver }).resolve;
  const ran: string[] = [];
  const rows: AuditEntry[] = [];
  const executor = new ToolExecutor(
    g.executor.registry,
    (tool, tenant) => {
      ran.push(tool.name);
      return resolve(tool, tenant);
    },
    {
      audit: {
        record: (entry) => {
          rows.push(entry);
          return Promise.resolve();
        },
        vendorOf: () => 'memory',
        accepting: () => accepting,
      },
    },
  );
  const call = (name: string, args: unknown) =>
    executor.run({ tool: executor.registry.get(name)!, args, principal: everyone, requestId: `r-${name}` });
  return { call, ran, rows };
};

describe('writes when the audit log cannot keep a row', () => {
  it('are refused with 503 UNAVAILABLE and Retry-After before they run; nothing is recorded', async () => {
    const { call, ran, rows } = setup(false);
    const result = await call('crm_createContact', { values: { email: 'refused@example.com' } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.status).toBe(503);
    expect(result.error.code).toBe('UNAVAILABLE');
    expect(result.error.details).toMatchObject({ retry_after_seconds: 5, retryable: true });
    expect(result.error.message).toMatch(/audit/);
    expect(ran).toEqual([]);
    expect(rows).toEqual([]);
  });

  it('reads still run, and writes run and are recorded while it can', async () => {
    const refusing = setup(false);
    expect((await refusing.call('crm_getContact', { contact_id: '101' })).ok).toBe(true);
    const accepting = setup(true);
    expect((await accepting.call('crm_createContact', { values: { email: 'kept@example.com' } })).ok).toBe(true);
    expect(accepting.rows.map((r) => r.tool)).toEqual(['crm_createContact']);
  });
});
