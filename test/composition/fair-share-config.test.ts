import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../composition/config.js';
import { E } from '../../domain/shared/fp.js';

// Issue 38: each tenant's share of the document readers and of the waiting approvals is configured like
// the other limits, and a bad value is named at start.

const config = (env: Record<string, string>) => {
  const r = loadConfig(env);
  if (E.isLeft(r)) throw new Error(r.left.join('; '));
  return r.right;
};

describe('per-tenant shares in the configuration', () => {
  it("leaves the pool's own defaults when unset", () => {
    const c = config({});
    expect(c.documents.perOwnerThreads).toBeUndefined();
    expect(c.documents.perOwnerQueue).toBeUndefined();
    expect(c.approvalsWaitingPerTenant).toBe(100);
  });

  it('takes each share from its variable', () => {
    const c = config({
      DOCUMENT_READERS_PER_TENANT: '3',
      DOCUMENT_READ_QUEUE_PER_TENANT: '5',
      APPROVALS_WAITING_PER_TENANT: '40',
    });
    expect(c.documents).toMatchObject({ perOwnerThreads: 3, perOwnerQueue: 5 });
    expect(c.approvalsWaitingPerTenant).toBe(40);
  });

  it('refuses a share that is not a whole number in range', () => {
    const r = loadConfig({ APPROVALS_WAITING_PER_TENANT: '0', DOCUMENT_READ_QUEUE_PER_TENANT: 'lots' });
    expect(E.isLeft(r)).toBe(true);
    const problems = E.isLeft(r) ? r.left.join('\n') : '';
    expect(problems).toContain('APPROVALS_WAITING_PER_TENANT');
    expect(problems).toContain('DOCUMENT_READ_QUEUE_PER_TENANT');
  });
});
