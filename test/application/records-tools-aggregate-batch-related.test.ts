import { describe, expect, it } from 'vitest';
import { DEALS_APP, LEADS_APP } from '../../adapters/outbound/memory/demo/records.js';
import { bindAll, setup } from './records-gateway.js';
import { post, testGateway } from '../support/gateway.js';

describe('records tools in memory: aggregates, batches, related records, HTTP', () => {
  it('aggregates with operations, date_diff and group_by, and validates field ids', async () => {
    const { call } = setup();
    const plain = await call('aggregateRecords', { app_id: DEALS_APP });
    expect(plain.data).toEqual({ total_items: 18 });
    const grouped = await call('aggregateRecords', {
      app_id: DEALS_APP,
      aggregations: [
        { field_id: 'amount', operation: 'sum' },
        { field_id: 'amount', operation: 'count' },
        { metric: 'date_diff', field_a_id: 300306, field_b_id: 300307, operation: 'avg' },
      ],
      group_by: { field_id: 'stage' },
    });
    expect(grouped.data.total_items).toBe(18);
    expect(grouped.data.groups.map((g: any) => g.group).sort()).toEqual(['Closed', 'Dead', 'Offer', 'Under contract']);
    const sum = grouped.data.groups.reduce((s: number, g: any) => s + g.aggregations['300305'].sum, 0);
    expect(sum).toBeCloseTo(grouped.data.totals['300305'].sum);
    expect(grouped.data.totals['300305'].count).toBe(18);
    const closed = grouped.data.groups.find((g: any) => g.group === 'Closed');
    expect(closed.aggregations['date_diff_300306_300307'].avg).toBeGreaterThan(30);
    const zero = await call('aggregateRecords', {
      app_id: DEALS_APP,
      aggregations: [{ field_id: 0, operation: 'count' }],
    });
    expect(zero.status).toBe(400);
    const six = await call('aggregateRecords', {
      app_id: DEALS_APP,
      aggregations: Array(6).fill({ field_id: 'amount', operation: 'sum' }),
    });
    expect(six.error.message).toContain('At most 5');
  });

  it('validates a whole batch before writing, then writes chunks of 50 in order with at most 50 in flight', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const order: number[] = [];
    const { call, store } = setup((s) => ({
      ...bindAll(s),
      create: (app, fields, flags) => async () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 2));
        const r = await s.create(app, fields, flags)();
        if (r._tag === 'Right') order.push(r.right.app_record_id);
        inFlight--;
        return r;
      },
    }));
    const before = store.countActive(LEADS_APP);
    const bad = await call('batchCreateRecords', {
      app_id: LEADS_APP,
      inputs: [{ fields: { name: 'ok' } }, { fields: { name: 'x', score: 'high' } }, { fields: {} }],
    });
    expect(bad.status).toBe(400);
    expect(bad.error.details.errors.map((e: any) => e.index)).toEqual([1, 2]);
    expect(store.countActive(LEADS_APP)).toBe(before);
    const inputs = Array.from({ length: 120 }, (_, i) => ({ fields: { name: `Batch ${i}`, score: i } }));
    const ok = await call('batchCreateRecords', { app_id: LEADS_APP, inputs, silent: true });
    expect(ok.data).toMatchObject({ total: 120, successful: 120, failed: 0 });
    expect(maxInFlight).toBe(50);
    const chunkOf = (seq: number) => Math.floor((seq - 61) / 50);
    expect(order.map(chunkOf)).toEqual([...order.map(chunkOf)].sort((a, b) => a - b));
    const upd = await call('batchUpdateRecords', {
      app_id: LEADS_APP,
      updates: [
        { record_id: ok.data.items[0].record_id, fields: { score: 5 } },
        { record_id: 1, fields: { score: 6 } },
      ],
    });
    expect(upd.data).toMatchObject({ total: 2, successful: 1, failed: 1 });
  });

  it('finds related and relatable records, lists apps and views, comments, uploads URLs through the fetcher', async () => {
    const { call, fetched } = setup();
    const deals = await call('listRecords', { app_id: DEALS_APP, limit: 1 });
    const deal = deals.data.records[0];
    const leadId = deal.fields.find((f: any) => f.external_id === 'lead').value[0].record_id;
    const fwd = await call('getRelatedRecords', {
      app_id: DEALS_APP,
      related_app_id: LEADS_APP,
      record_ids: [deal.record_id],
      direction: 'forward',
    });
    expect(fwd.data.records.map((r: any) => r.record_id)).toEqual([leadId]);
    // the spec's related-record shape: created_by one string, fields a label-to-value object
    expect(fwd.data.records[0].created_by).toMatch(/^\S.* \(user \d+\)$/);
    expect(Object.values(fwd.data.records[0].fields).every((v) => typeof v === 'string')).toBe(true);
    const rev = await call('getRelatedRecords', {
      app_id: LEADS_APP,
      related_app_id: DEALS_APP,
      record_ids: [leadId],
      direction: 'reverse',
    });
    expect(rev.data.records.map((r: any) => r.record_id)).toContain(deal.record_id);
    // Text: the fields a row has no room for are named, never dropped silently; named fields are all shown.
    const g = testGateway();
    const text = await post(g, '/v1/tools/records/getRelatedRecords', {
      app_id: DEALS_APP,
      related_app_id: LEADS_APP,
      record_ids: [deal.record_id],
      direction: 'forward',
    });
    const shown = (text.body.data as string).split('\n').find((l) => l.startsWith(`| ${leadId} |`))!;
    const fieldsInRow = shown.split(' | ')[3]!.split('; ').length;
    const notShown =
      /Not shown, to keep rows readable: ([^.]+)\./.exec(text.body.data as string)?.[1]?.split(', ') ?? [];
    expect(fieldsInRow + notShown.length).toBe(Object.keys(fwd.data.records[0].fields).length);
    const chosen = await post(g, '/v1/tools/records/getRelatedRecords', {
      app_id: DEALS_APP,
      related_app_id: LEADS_APP,
      record_ids: [deal.record_id],
      direction: 'forward',
      field_ids: ['score', 'notes', 'first-contact'],
    });
    expect(chosen.body.data).not.toContain('Not shown');
    expect(notShown.length).toBeGreaterThan(0);
    await g.close();
    const relatable = await call('findRelatableRecords', { field_id: 300302, text: 'ana' });
    expect(relatable.data.total).toBeGreaterThan(0);
    expect(relatable.data.records.every((r: any) => r.title.toLowerCase().includes('ana'))).toBe(true);
    expect((await call('listApps', { workspace_id: 2001 })).data.apps.map((a: any) => a.name)).toEqual([
      'Properties',
      'Leads',
      'Deals',
    ]);
    const app = await call('getApp', { app_id: LEADS_APP });
    expect(app.data.fields.find((f: any) => f.external_id === 'property')).toMatchObject({
      field_type: 'single_relation',
      referenced_app_ids: [3002],
    });
    const views = await call('getAppViews', { app_id: LEADS_APP });
    const viewList = await call('listRecords', { view_id: views.data.views[0].view_id, count_only: true });
    const open = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_id: 'status', match_type: 'incomplete' }],
      count_only: true,
    });
    expect(viewList.data.total).toBe(open.data.total);

    const c1 = await call('createRecordComment', { record_id: leadId, value: 'First' });
    await call('createRecordComment', { record_id: leadId, value: 'Second' });
    expect(c1.data).toMatchObject({
      value: 'First',
      ref: { type: 'record', id: leadId },
      created_by: { user_id: 5001, type: 'user' },
    });
    const list = await call('listRecordComments', { record_id: leadId, limit: 1 });
    expect(list.data).toMatchObject({ total: 2, comments: [{ value: 'First' }] });
    const list2 = await call('listRecordComments', { record_id: leadId, limit: 1, cursor: list.data.cursor });
    expect(list2.data.comments[0].value).toBe('Second');
    expect((await call('deleteRecordComment', { comment_id: c1.data.comment_id })).data).toEqual({});
    expect((await call('getRecordComment', { comment_id: c1.data.comment_id })).status).toBe(404);

    const withDoc = await call('createRecord', {
      app_id: DEALS_APP,
      fields: { title: 'With doc', documents: ['https://files.example.com/doc.pdf'] },
      id_only: false,
    });
    expect(fetched).toEqual(['https://files.example.com/doc.pdf']);
    expect(withDoc.data.fields.find((f: any) => f.external_id === 'documents').value[0]).toMatchObject({
      name: 'doc.pdf',
      size: 3,
    });
  });

  it('answers over HTTP with text for a model', async () => {
    const g = testGateway();
    const r = await post(g, '/v1/tools/records/filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_id: 'source', match_type: 'equal', values: [{ value: 2 }] }],
      limit: 5,
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatch(/^## Leads \(app 3001\): \d+ records/);
    expect(r.body.data).toContain('Showing 1-5 of');
    expect(r.body.data).toContain('Next page: records_filterRecords {"app_id":3001');
    const bad = await post(g, '/v1/tools/records/createRecord', {
      app_id: LEADS_APP,
      fields: { name: 'x', 'next-follow-up': { start: 'x' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('fields.next-follow-up');
  });
});
