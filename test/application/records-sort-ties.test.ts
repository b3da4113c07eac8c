import { describe, expect, it } from 'vitest';
import { LEADS_APP } from '../../adapters/outbound/memory/demo/records.js';
import { setup } from './records-gateway.js';

// Issue 41: the tie order of records_filterRecords' sort, as docs/tools.md ("Sorting records") states it:
// equal values keep record_id order, lowest first, in either direction; records without a value come last.

describe('the sort order of records_filterRecords', () => {
  it.each([false, true])('sort_desc %s: ties in record_id order, records without a value last', async (desc) => {
    const { call } = setup();
    // two records without a score, to sit last
    for (const name of ['Unscored A', 'Unscored B'])
      expect((await call('createRecord', { app_id: LEADS_APP, fields: { name } })).status).toBe(200);
    const r = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [],
      sort_by: 'status',
      sort_desc: desc,
      limit: 500,
      field_ids: ['status'],
    });
    const rows = (r.data.records as { record_id: number; fields: { value: { text: string }[] }[] }[]).map((x) => ({
      id: x.record_id,
      status: x.fields[0]?.value[0]?.text,
    }));
    const withStatus = rows.filter((x) => x.status !== undefined);
    const without = rows.filter((x) => x.status === undefined);
    // every record without a value after every record with one
    expect(rows.slice(withStatus.length)).toEqual(without);
    expect(without.length).toBeGreaterThanOrEqual(2);
    expect(without.map((x) => x.id)).toEqual([...without.map((x) => x.id)].sort((a, b) => a - b));
    // within each run of equal values, record_ids ascend
    for (let i = 1; i < withStatus.length; i++)
      if (withStatus[i]!.status === withStatus[i - 1]!.status)
        expect(withStatus[i]!.id).toBeGreaterThan(withStatus[i - 1]!.id);
    // and the runs are in the asked direction (status options: New, Contacted, Qualified, Won, Lost)
    const runs = withStatus.map((x) => x.status).filter((s, i, all) => s !== all[i - 1]);
    expect(new Set(runs).size).toBe(runs.length);
    expect(runs.length).toBeGreaterThan(1);
    // the same call twice gives the same order
    const again = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [],
      sort_by: 'status',
      sort_desc: desc,
      limit: 500,
      field_ids: ['status'],
    });
    expect((again.data.records as { record_id: number }[]).map((x) => x.record_id)).toEqual(rows.map((x) => x.id));
  });
});
