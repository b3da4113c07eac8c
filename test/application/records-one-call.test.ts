import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEALS_APP, LEADS_APP } from '../../adapters/outbound/memory/demo/records.js';
import { podioSetup } from './records-podio-gateway.js';

// Issue 31: with warm caches a read is one vendor call. records_getRelatedRecords in reverse made one call
// per referencing item (Podio's references, then a GET per item); it is one filter of the related app by
// its relation field now.

describe('records reads over Podio cost one vendor call with warm caches', () => {
  let s: Awaited<ReturnType<typeof podioSetup>>;
  beforeAll(async () => {
    s = await podioSetup();
  });
  afterAll(() => s.close());

  const callsOf = async (name: string, args: unknown) => {
    await s.call(name, args); // warms the app caches
    const before = s.server.apiRequests().length;
    const r = await s.call(name, args);
    expect(r.status).toBe(200);
    return { r, calls: s.server.apiRequests().slice(before) };
  };

  it('getRelatedRecords in reverse: one filter call, whatever the number of referencing records', async () => {
    const deals = await s.call('listRecords', { app_id: DEALS_APP, limit: 50 });
    const leadOf = (d: any) => d.fields.find((f: any) => f.external_id === 'lead')?.value?.[0]?.record_id;
    const leadId = leadOf(deals.data.records.find((d: any) => leadOf(d) !== undefined));
    const expected = deals.data.records.filter((d: any) => leadOf(d) === leadId).map((d: any) => d.record_id);
    const { r, calls } = await callsOf('getRelatedRecords', {
      app_id: LEADS_APP,
      related_app_id: DEALS_APP,
      record_ids: [leadId],
      direction: 'reverse',
    });
    expect(r.data.records.map((x: any) => x.record_id).sort()).toEqual([...expected].sort());
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`POST /item/app/${DEALS_APP}/filter/`]);
  });

  it('listApps: the listing alone, the record counts kept for a minute', async () => {
    const { r, calls } = await callsOf('listApps', { workspace_id: 2001 });
    expect(r.data.apps.length).toBeGreaterThan(1);
    expect(r.data.apps.every((a: any) => typeof a.record_count === 'number')).toBe(true);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /app/space/2001/']);
  });

  it('listRecords of a saved view: the filter by view alone, the view kept for a minute', async () => {
    const { r, calls } = await callsOf('listRecords', { app_id: LEADS_APP, view_id: 400101, limit: 5 });
    expect(r.data.records.length).toBeGreaterThan(0);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`POST /item/app/${LEADS_APP}/filter/400101/`]);
  });
});

describe('records batches over Podio cost one vendor call per record', () => {
  let s: Awaited<ReturnType<typeof podioSetup>>;
  beforeAll(async () => {
    s = await podioSetup();
  });
  afterAll(() => s.close());

  it('batchCreateRecords and batchUpdateRecords: the create or update only (its answer names the record)', async () => {
    await s.call('getApp', { app_id: LEADS_APP });
    let before = s.server.apiRequests().length;
    const inputs = [1, 2, 3].map((i) => ({ fields: { name: `One call ${i}`, score: i } }));
    const created = await s.call('batchCreateRecords', { app_id: LEADS_APP, inputs });
    expect(created.data).toMatchObject({ total: 3, successful: 3 });
    expect(created.data.items.every((i: any) => /^https?:\/\//.test(i.record_url))).toBe(true);
    expect(
      s.server
        .apiRequests()
        .slice(before)
        .map((c) => `${c.method} ${c.path}`),
    ).toEqual(Array(3).fill(`POST /item/app/${LEADS_APP}/`));
    before = s.server.apiRequests().length;
    const updates = created.data.items.map((i: any) => ({ record_id: i.record_id, fields: { score: 9 } }));
    const updated = await s.call('batchUpdateRecords', { app_id: LEADS_APP, updates });
    expect(updated.data).toMatchObject({ total: 3, successful: 3 });
    expect(
      s.server
        .apiRequests()
        .slice(before)
        .map((c) => c.method),
    ).toEqual(['PUT', 'PUT', 'PUT']);
  });
});
