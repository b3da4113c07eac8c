import { describe, expect, it } from 'vitest';
import { LEADS_APP, PROPERTIES_APP } from '../../adapters/outbound/memory/demo/records.js';
import { idRuns } from '../../application/records/batch-text.js';
import { rateLimited } from '../../domain/shared/errors.js';
import { TE } from '../../domain/shared/fp.js';
import { bindAll, setup } from './records-gateway.js';

// Issue 30, a smaller finding: an all-success batch of 245 answered a 245-row table of "yes", cut at row 130.
// A batch answer now gives the counts, a table of only the failures (with what to change), and where to
// read each result: the record ids as runs and the records_getBatchResults call. format=json keeps every item.

const inputs = (n: number) => Array.from({ length: n }, (_, i) => ({ fields: { address: `${i} Compact Rd` } }));

const batchIdOf = (text: string) => /records_getBatchResults \{"batch_id":"(b[0-9a-f]{32})"\}/.exec(text)?.[1];

describe('compact batch answers', () => {
  it('a batch that fails validation names each problem once, with the indexes that have it (issue 41)', async () => {
    const { call } = setup();
    const bad = Array.from({ length: 20 }, (_, i) => ({ fields: { address: i === 7 ? 'Fine Rd' : 42 } }));
    bad[12] = { fields: { nosuch: 'x' } } as never;
    const r = await call('batchCreateRecords', { app_id: PROPERTIES_APP, inputs: bad }, 'text');
    expect(r.status).toBe(400);
    const message = r.error.message as string;
    expect(message).toMatch(/^19 of 20 inputs failed validation, so nothing was written\./);
    const takesString = /\[0-6, 8-11, 13-19\] Field "address" \(single_text\) takes a string\./;
    expect(message).toMatch(takesString);
    expect(message.match(/takes a string/g)).toHaveLength(1);
    expect(message).toContain('[12] App "Properties"');
    // details keep every bad index
    expect(r.error.details.errors).toHaveLength(19);
  });

  it('writes ids as runs of consecutive numbers, in order', () => {
    expect(idRuns([5, 6, 7, 9, 11, 12]).runs).toEqual(['5-7', '9', '11-12']);
    expect(idRuns([]).runs).toEqual([]);
    expect(idRuns([4]).runs).toEqual(['4']);
    expect(idRuns([3, 2, 1]).runs).toEqual(['3', '2', '1']);
  });

  it('an all-success batch of 245: counts, the created ids in compact form and the call for each result', async () => {
    const { call } = setup();
    const text = (await call('batchCreateRecords', { app_id: PROPERTIES_APP, inputs: inputs(245) }, 'text'))
      .data as string;
    expect(text).toMatch(/^## Created 245 of 245 records\n/);
    expect(text).not.toContain('| yes |');
    expect(text).not.toContain('Failed');
    expect(text.length).toBeLessThan(600);
    // the ids the text gives are the created records', in input order
    const batchId = batchIdOf(text)!;
    expect(batchId).toBeDefined();
    const kept = await call('getBatchResults', { batch_id: batchId });
    expect(kept.data.items).toHaveLength(245);
    const ids = kept.data.items.map((i: { record_id: number }) => i.record_id);
    expect(text).toContain(`**record_ids**, in input order: ${idRuns(ids).runs.join(', ')}`);
    const listed = await call('listRecords', { app_id: PROPERTIES_APP, limit: 500 });
    const existing = new Set(listed.data.records.map((r: { record_id: number }) => r.record_id));
    expect(ids.every((id: number) => existing.has(id))).toBe(true);
  });

  it('format=json keeps every item of the batch', async () => {
    const { call } = setup();
    const json = await call('batchCreateRecords', { app_id: PROPERTIES_APP, inputs: inputs(245) });
    expect(json.data).toMatchObject({ total: 245, successful: 245, failed: 0 });
    expect(json.data.items.map((i: { index: number }) => i.index)).toEqual([...Array(245).keys()]);
    expect(json.data.items.every((i: { success: boolean; record_id: number }) => i.success && i.record_id > 0)).toBe(
      true,
    );
  });

  it('lists only the failures, each with what to change, and the rest of them through failed_only', async () => {
    const failing = new Set([
      3, 17, 18, 19, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59,
    ]);
    const { call } = setup((s) => ({
      ...bindAll(s),
      // the inputs at `failing` meet a rate limit (their address says their index)
      create: (app, fields, flags) => {
        const index = Number(/"(\d+) Compact Rd"/.exec(JSON.stringify(fields))![1]);
        return failing.has(index) ? TE.left(rateLimited('Too many writes.', 30)) : s.create(app, fields, flags);
      },
    }));
    const text = (await call('batchCreateRecords', { app_id: PROPERTIES_APP, inputs: inputs(80) }, 'text'))
      .data as string;
    expect(text).toMatch(/^## Created 56 of 80 records \(24 failed\)/);
    expect(text).toContain('**Failed:** 24 records, at indexes');
    const rows = text.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    expect(rows).toHaveLength(20);
    for (const row of rows) expect(row).toContain('send it again after 30 seconds');
    expect(text).not.toContain('| yes |');
    const more = /4 more failures: records_getBatchResults (\{[^\n]*\})/.exec(text);
    expect(more).not.toBeNull();
    const rest = await call('getBatchResults', JSON.parse(more![1]!));
    expect(rest.data.items).toHaveLength(4);
    expect(rest.data.items.every((i: { success: boolean; fix: string }) => !i.success && i.fix)).toBe(true);
    // every failure once: the 20 in the answer and the 4 read back
    const shown = rows.map((r) => Number(r.split('|')[1]));
    const all = [...shown, ...rest.data.items.map((i: { index: number }) => i.index)];
    expect(new Set(all).size).toBe(24);
    const json = await call('getBatchResults', { batch_id: JSON.parse(more![1]!).batch_id, failed_only: true });
    expect(json.data.items.map((i: { index: number }) => i.index)).toEqual([...all].sort((a, b) => a - b));
  });

  it('an update batch names the record that failed and what to change', async () => {
    const { call } = setup();
    const lead = (await call('listRecords', { app_id: LEADS_APP, limit: 1 })).data.records[0];
    const text = (
      await call(
        'batchUpdateRecords',
        {
          app_id: LEADS_APP,
          updates: [
            { record_id: lead.record_id, fields: { score: 5 } },
            { record_id: 1, fields: { score: 6 } },
          ],
        },
        'text',
      )
    ).data as string;
    expect(text).toMatch(/^## Updated 1 of 2 records \(1 failed\)/);
    expect(text).toContain(`**record_id** (index 0): ${lead.record_id}`);
    expect(text).toContain('| index | record_id | error | what to change |');
    expect(text).toMatch(/\| 1 \| 1 \| [^|]+ \| the record does not exist: check its id/);
  });
});
