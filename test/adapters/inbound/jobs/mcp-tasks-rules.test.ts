import { MissingRequiredClientCapabilityError, type ProtocolError } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { modernTaskChoice } from '../../../../adapters/inbound/mcp/mcp-task-policy.js';
import { ResultWaits, waitForEnd } from '../../../../adapters/inbound/mcp/mcp-task-waits.js';
import type { JobRow } from '../../../../ports/job-queue.js';

// The rules under the MCP task handlers (issue 40): when a 2026-07-28 call becomes a task (SEP-2663: the
// server decides), and the bound on 2025-11-25 tasks/result waits. The endpoint tests (mcp-tasks*.test.ts)
// run them through real clients.

const batch = (n: number, name = 'records_batchCreateRecords') => ({
  name,
  arguments: { app_id: 3001, inputs: Array.from({ length: n }, () => ({ fields: {} })) },
});

describe('modernTaskChoice (2026-07-28)', () => {
  it('a batch is a task above one chunk when the extension is declared, inline otherwise', () => {
    expect(modernTaskChoice(batch(50), true)).toBe('inline');
    expect(modernTaskChoice(batch(51), true)).toBe('task');
    expect(modernTaskChoice(batch(5000), true)).toBe('task');
    expect(modernTaskChoice(batch(51), false)).toBe('inline');
    expect(modernTaskChoice(batch(500), false)).toBe('inline');
    expect(
      modernTaskChoice({ name: 'records_batchUpdateRecords', arguments: { updates: new Array(80).fill({}) } }, true),
    ).toBe('task');
  });

  it('a batch above the inline bound without the extension is -32021 naming it', () => {
    let thrown: unknown;
    try {
      modernTaskChoice(batch(501), false);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(MissingRequiredClientCapabilityError);
    expect((thrown as ProtocolError).code).toBe(-32021);
    expect((thrown as MissingRequiredClientCapabilityError).requiredCapabilities).toEqual({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
  });

  it('the other job tools are a task only with the extension; other tools never', () => {
    expect(modernTaskChoice({ name: 'files_copyItem', arguments: { item_id: 'x' } }, true)).toBe('task');
    expect(modernTaskChoice({ name: 'files_copyItem', arguments: { item_id: 'x' } }, false)).toBe('inline');
    expect(modernTaskChoice({ name: 'crm_getContact', arguments: { contact_id: '1' } }, true)).toBe('inline');
  });

  it('looks through the discovery meta tool at the tool it calls', () => {
    const meta = { name: 'gateway_callTool', arguments: batch(120) };
    expect(modernTaskChoice(meta, true)).toBe('task');
    expect(modernTaskChoice({ name: 'gateway_callTool', arguments: batch(10) }, true)).toBe('inline');
  });
});

describe('ResultWaits (2025-11-25 tasks/result)', () => {
  it("keeps a caller's newest perCaller waits (the oldest is evicted) and refuses past max in all", () => {
    const waits = new ResultWaits({ perCaller: 2, max: 3, perTenant: 3 });
    const evicted: string[] = [];
    const a1 = waits.take('t', 'a', () => evicted.push('a1'));
    waits.take('t', 'a', () => evicted.push('a2'));
    waits.take('t', 'a', () => evicted.push('a3'));
    expect(evicted).toEqual(['a1']);
    expect(waits.open).toBe(2);
    a1(); // an evicted wait's release changes nothing
    expect(waits.open).toBe(2);
    const b1 = waits.take('t', 'b', () => evicted.push('b1'));
    expect(() => waits.take('t', 'c', () => undefined)).toThrow(
      /Too many tasks\/result requests are waiting on this server \(3\)/,
    );
    // a caller at its own bound still replaces its oldest when the instance is full
    waits.take('t', 'a', () => evicted.push('a4'));
    expect(evicted).toEqual(['a1', 'a2']);
    expect(waits.open).toBe(3);
    b1();
    b1(); // twice is once
    expect(waits.open).toBe(2);
    expect(() => waits.take('t', 'c', () => undefined)).not.toThrow();
  });

  it("gives each tenant a bounded share: one tenant's many callers cannot fill the instance", () => {
    const waits = new ResultWaits({ perCaller: 2, max: 10, perTenant: 4 });
    for (const caller of ['a', 'b']) for (let i = 0; i < 2; i++) waits.take('busy', caller, () => undefined);
    expect(() => waits.take('busy', 'c', () => undefined)).toThrow(/of this workspace .*\(4\)/);
    // a caller of the busy tenant at its own bound still replaces its oldest
    expect(() => waits.take('busy', 'a', () => undefined)).not.toThrow();
    // another tenant is not held back
    const other = waits.take('quiet', 'x', () => undefined);
    expect(waits.open).toBe(5);
    other();
    expect(waits.open).toBe(4);
    // the default share is a tenth of the instance's
    const defaults = new ResultWaits({ perCaller: 4, max: 500 });
    for (let i = 0; i < 50; i++) defaults.take('t', `c${i}`, () => undefined);
    expect(() => defaults.take('t', 'c50', () => undefined)).toThrow(/\(50\)/);
  });
});

const row = (status: JobRow['status'], done: number): JobRow =>
  ({
    id: 'j1',
    status,
    done,
    failed: 0,
    total: 100,
    expires_at: '2099-01-01T00:00:00.000Z',
  }) as JobRow;

describe('waitForEnd', () => {
  it('tells each new state it sees and answers the ended row', async () => {
    const states = [row('queued', 0), row('running', 0), row('running', 50), row('running', 50), row('completed', 100)];
    const told: string[] = [];
    const ended = await waitForEnd(
      async () => states.shift() ?? row('completed', 100),
      new AbortController().signal,
      async (r) => void told.push(`${r.status} ${r.done}`),
      1,
    );
    expect(ended.status).toBe('completed');
    expect(told).toEqual(['running 0', 'running 50', 'completed 100']);
  });

  it('stops when the request is aborted', async () => {
    const abort = new AbortController();
    const waiting = waitForEnd(
      async () => row('running', 0),
      abort.signal,
      async () => undefined,
      50,
    );
    abort.abort();
    await expect(waiting).rejects.toThrow(/cancelled/);
  });
});
