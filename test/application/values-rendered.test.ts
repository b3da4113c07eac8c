import { describe, expect, it } from 'vitest';
import { post, testGateway } from '../support/gateway.js';

// Values as people read them: the restored record through the same formatter as records_getRecord (no raw
// JSON), money sums with their currency, and an aggregation that names the field it grouped by.

describe('values rendered for people', () => {
  it('shows a restored record like a read one', async () => {
    const g = testGateway();
    const leads = await post(g, '/v1/tools/records/listRecords?format=json', { app_id: 3001, limit: 1 });
    const id = leads.body.data.records[0].record_id;
    const read = (await post(g, '/v1/tools/records/getRecord', { record_id: id })).body.data as string;
    await post(g, '/v1/tools/records/deleteRecord', { record_id: id });
    const restored = (await post(g, '/v1/tools/records/restoreRecord', { record_id: id })).body.data as string;
    expect(restored).toContain('Restored from the trash');
    expect(restored).not.toMatch(/\{"(id|value|start)"/);
    // Every row of the read record's value table appears in the restored one.
    const rows = read.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| field'));
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) expect(restored).toContain(row);
  });

  it('names the grouping field and the currency of money figures', async () => {
    const g = testGateway();
    const r = await post(g, '/v1/tools/records/aggregateRecords', {
      app_id: 3003,
      aggregations: [{ field_id: 'amount', operation: 'sum' }],
      group_by: { field_id: 'stage' },
    });
    expect(r.status).toBe(200);
    const text = r.body.data as string;
    expect(text).toMatch(/grouped by Stage \(stage, field \d+\)/);
    expect(text).toMatch(/\| \*\*total\*\* \| {2}\| 18 \| [\d,]+ USD \|/);
    const byMonth = await post(g, '/v1/tools/records/aggregateRecords', {
      app_id: 3001,
      group_by: { field_id: 'next-follow-up' },
    });
    expect(byMonth.body.data).toContain(', by month');
  });

  it('names the fields a list leaves out, and shows them when asked for', async () => {
    const g = testGateway();
    const all = (await post(g, '/v1/tools/records/listRecords', { app_id: 3001, limit: 5 })).body.data as string;
    const header = all.split('\n').find((l) => l.startsWith('| record_id'))!;
    expect(header.split('|').length - 2).toBe(2 + 6);
    expect(all).toMatch(/Fields not shown, to keep the table narrow: .*Score \(score\)/);
    const asked = (
      await post(g, '/v1/tools/records/listRecords', { app_id: 3001, limit: 5, field_ids: ['score', 'budget'] })
    ).body.data as string;
    expect(asked).toMatch(/\| record_id \| title \| Budget \| Score \|/);
    expect(asked).not.toContain('Fields not shown');
  });
});
