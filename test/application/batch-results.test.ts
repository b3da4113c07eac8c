import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BatchOutcomes } from '../../application/records/batch-results.js';
import { principal } from '../../composition/gateway.js';
import { post, testGateway } from '../support/gateway.js';

// A batch's per-record results are a list like any other: the batch answer's text is compact (counts, the
// failures, the call that reads each result) and its structured answer, cut to the budget, names the call
// for the rest (records_getBatchResults, which reads the finished batch back); following either returns
// every result exactly once. Another caller's batch id finds nothing.

const OTHER = 'test-other-records-token-0123456789';
const g = testGateway(
  {},
  {
    RATE_LIMIT_PER_MINUTE: '1000000',
    GATEWAY_API_KEYS: JSON.stringify([{ name: 'other', token: OTHER, permissions: ['records:*'] }]),
  },
);
afterAll(() => g.close());

const inputs = (n: number) => Array.from({ length: n }, (_, i) => ({ fields: { name: `Batch lead ${i}` } }));
const CONTINUATION = /The rest: (\w+) (\{[^\n]*\})\]/;

describe('records_batchCreateRecords results', () => {
  it('in text: the batch answer names records_getBatchResults, whose pages give every index exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1000, max: 3000 }), async (maxChars) => {
        const batch = await post(g, `/v1/tools/call?max_chars=${maxChars}`, {
          name: 'records_batchCreateRecords',
          arguments: { app_id: 3001, inputs: inputs(40) },
        });
        expect(batch.status, JSON.stringify(batch.body)).toBe(200);
        // compact: counts and where to read each result, not a row per record
        const summary = batch.body.data as string;
        expect(summary).toMatch(/^## Created 40 of 40 records/);
        expect(summary).not.toMatch(/^\| \d+ \| yes \|/m);
        const first = /records_getBatchResults (\{[^\n]*\})/.exec(summary)!;
        let r = await post(g, `/v1/tools/call?max_chars=${maxChars}`, {
          name: 'records_getBatchResults',
          arguments: JSON.parse(first[1]!),
        });
        const seen: number[] = [];
        for (let page = 0; page < 50; page++) {
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          const text = r.body.data as string;
          expect(text.length).toBeLessThanOrEqual(maxChars);
          seen.push(...[...text.matchAll(/^\| (\d+) \| yes \|/gm)].map((m) => Number(m[1])));
          const next = CONTINUATION.exec(text);
          if (!next) break;
          expect(next[1]).toBe('records_getBatchResults');
          r = await post(g, `/v1/tools/call?max_chars=${maxChars}`, { name: next[1], arguments: JSON.parse(next[2]!) });
        }
        expect(seen).toEqual([...Array(40).keys()]);
      }),
      { numRuns: 5 },
    );
  });

  it('in format=json: truncated.next returns every index exactly once, each answer within the budget', async () => {
    let r = await post(g, '/v1/tools/call?format=json&max_chars=1500', {
      name: 'records_batchCreateRecords',
      arguments: { app_id: 3001, inputs: inputs(30) },
    });
    expect(r.body.data.batch_id).toMatch(/^b[0-9a-f]{32}$/);
    const seen: number[] = [];
    for (let page = 0; page < 50; page++) {
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body.data).length).toBeLessThanOrEqual(1500);
      seen.push(...r.body.data.items.map((i: { index: number }) => i.index));
      const cut = r.body.data.truncated;
      if (!cut) break;
      expect(cut.next.tool).toBe('records_getBatchResults');
      r = await post(g, '/v1/tools/call?format=json&max_chars=1500', {
        name: cut.next.tool,
        arguments: cut.next.arguments,
      });
    }
    expect(seen).toEqual([...Array(30).keys()]);
  });

  it("finds nothing under another caller's credentials, and refuses a malformed id", async () => {
    const r = await post(g, '/v1/tools/call?format=json', {
      name: 'records_batchCreateRecords',
      arguments: { app_id: 3001, inputs: inputs(2) },
    });
    const batch_id = r.body.data.batch_id;
    const mine = await post(g, '/v1/tools/call?format=json', {
      name: 'records_getBatchResults',
      arguments: { batch_id },
    });
    expect(mine.body.data.items.map((i: { index: number }) => i.index)).toEqual([0, 1]);
    const theirs = await post(
      g,
      '/v1/tools/call?format=json',
      { name: 'records_getBatchResults', arguments: { batch_id } },
      OTHER,
    );
    expect(theirs.status).toBe(404);
    const bad = await post(g, '/v1/tools/call', { name: 'records_getBatchResults', arguments: { batch_id: '../x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('batch_id');
  });
});

describe('BatchOutcomes', () => {
  const result = { total: 1, successful: 1, failed: 0, items: [{ index: 0, success: true, record_id: 7 }] };
  const caller = principal('someone', ['records:*']);

  it('gives a batch_id only when the shared cache kept the results', async () => {
    const kept = new Map<string, string>();
    const working = new BatchOutcomes({
      get: async (k) => kept.get(k),
      set: async (k, v) => void kept.set(k, v),
    });
    const withId = await working.keep(caller, result);
    expect(withId.batch_id).toMatch(/^b[0-9a-f]{32}$/);
    expect(await working.find(caller, withId.batch_id!)).toEqual(result);
    expect(await working.find(principal('someone-else', ['records:*']), withId.batch_id!)).toBeUndefined();

    // a cache that is away (Redis down) drops the write: no batch_id, so no dead call is named
    const away = new BatchOutcomes({ get: async () => undefined, set: async () => undefined });
    expect((await away.keep(caller, result)).batch_id).toBeUndefined();
  });
});
