import { describe, expect, it } from 'vitest';
import { InMemoryRecords } from '../../adapters/outbound/memory/in-memory-records.js';
import { InMemoryPodioAccount } from '../../adapters/outbound/memory/in-memory-podio-account.js';
import { DEALS_APP, LEADS_APP, seedDemoRecords } from '../../adapters/outbound/memory/demo/records.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { RecordsSettings } from '../../application/records/common.js';
import { TE } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordComments } from '../../ports/record-comments.js';
import { RecordStore } from '../../ports/record-store.js';
import { UrlFetcher } from '../../ports/url-fetcher.js';
import { everyone, NOW, post, testGateway } from '../support/gateway.js';

const setup = (wrap?: (s: InMemoryRecords) => RecordStore) => {
  const clock = new FixedClock(NOW);
  const account = InMemoryPodioAccount.withDemoData();
  const store = new InMemoryRecords({ clock, account });
  seedDemoRecords(store);
  const fetched: string[] = [];
  const fetcher = {
    fetch: (url: string) => (
      fetched.push(url),
      TE.right({ name: 'doc.pdf', mimetype: 'application/pdf', content: new Uint8Array([1, 2, 3]) })
    ),
  };
  const g = testGateway({
    clock,
    ports: [
      [RecordApps, store],
      [RecordStore, wrap ? wrap(store) : store],
      [RecordComments, store.commentsPort()],
      [RecordsSettings, { timeZone: 'UTC', activeProfileId: () => TE.right(9101) }],
      [UrlFetcher, fetcher],
    ],
  });
  const call = async (name: string, args: unknown, format: 'text' | 'json' = 'json') => {
    const r = await g.callTool(`records_${name}`, args, { principal: everyone, format });
    return {
      status: r.status,
      data: (r.body as any).success ? (r.body as any).data : undefined,
      error: (r.body as any).success ? undefined : (r.body as any).error,
    };
  };
  return { g, clock, store, call, fetched };
};

describe('records tools in memory', () => {
  it('creates, reads, updates with revisions, deletes to the trash and restores with values intact', async () => {
    const { call, clock, store } = setup();
    const created = await call('createRecord', {
      app_id: LEADS_APP,
      fields: {
        name: 'Zoe Quinn',
        status: ['Contacted'],
        '300103': [2],
        email: [{ type: 'work', email: 'zoe@example.com' }],
        owner: [9102],
        budget: { value: '250000', currency: 'USD' },
        'next-follow-up': '2026-12-01 09:30:00',
        tasks: [{ title: 'Call', completed: false }],
      },
    });
    expect(created.status).toBe(200);
    const id = created.data.record_id as number;
    expect(created.data.record_url).toContain(String(id));
    expect(store.events.filter((e) => e.id === id).map((e) => e.kind)).toEqual(['notification', 'webhook', 'workflow']);

    const got = await call('getRecord', { record_id: id });
    expect(got.data).toMatchObject({
      record_id: id,
      app_id: LEADS_APP,
      title: 'Zoe Quinn',
      created_by: { user_id: 5001, name: 'Maria Gonzalez' },
      created_on: '2026-11-21 10:00:00',
    });
    const byKey = Object.fromEntries((got.data.fields as any[]).map((f) => [f.external_id, f]));
    expect(byKey['status']).toMatchObject({ type: 'status', value: [{ id: 2, text: 'Contacted' }] });
    expect(byKey['owner'].value).toEqual([{ profile_id: 9102, user_id: 5002, name: 'James Chen' }]);
    expect(byKey['next-follow-up'].value).toEqual({ start: '2026-12-01 09:30:00', end: null });
    expect(byKey['email'].value).toEqual([{ type: 'work', value: 'zoe@example.com' }]);
    const itemId = byKey['tasks'].value[0].id;

    clock.advance(60_000);
    const upd = await call('updateRecord', {
      record_id: id,
      fields: { score: 77, tasks: [{ id: itemId, title: 'Call', completed: true }, { title: 'Visit' }] },
      silent: true,
      hook: false,
      workflow: false,
    });
    expect(upd.data).toEqual({ record_id: id });
    expect(store.events.filter((e) => e.id === id && e.action === 'record.update')).toEqual([]);
    const after = await call('getRecord', { record_id: id, field_ids: ['tasks', 300110] });
    expect((after.data.fields as any[]).map((f) => f.external_id)).toEqual(['score', 'tasks']);
    expect((after.data.fields as any[])[1].value.map((i: any) => [i.id === itemId, i.title, i.completed])).toEqual([
      [true, 'Call', true],
      [false, 'Visit', false],
    ]);

    const revs = await call('getRecordRevisions', { record_id: id });
    expect(revs.data.revisions.map((r: any) => [r.revision, r.type])).toEqual([
      [0, 'creation'],
      [1, 'update'],
    ]);
    expect(revs.data.revisions[1]).toMatchObject({
      created_on: '2026-11-21 10:01:00',
      created_by: { user_id: 5001, mail: ['maria.gonzalez@acmerealty.example'], type: 'user' },
    });
    const delta = await call('getRecordRevisionDelta', { record_id: id, revision_from: 0, revision_to: 1 });
    expect(delta.data.changes.map((c: any) => [c.external_id, c.from, c.to === null ? null : 'set'])).toEqual([
      ['score', null, 'set'],
      ['tasks', expect.any(Array), 'set'],
    ]);

    const beforeDelete = await call('getRecord', { record_id: id });
    expect((await call('deleteRecord', { record_id: id })).data).toEqual({ deleted: true, record_id: id });
    const gone = await call('getRecord', { record_id: id });
    expect(gone.status).toBe(404);
    expect(gone.error.message).toContain('records_restoreRecord');
    const listed = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_id: 'name', match_type: 'equal', values: [{ value: 'Zoe Quinn' }] }],
    });
    expect(listed.data.total).toBe(0);
    const restored = await call('restoreRecord', { record_id: id });
    expect(restored.data).toMatchObject({
      record_id: id,
      deleted_on: null,
      deleted_on_utc: null,
      app: { app_id: LEADS_APP, name: 'Leads', workspace_id: 2001 },
    });
    const status = (restored.data.fields as any[]).find((f) => f.external_id === 'status');
    expect(status).toMatchObject({
      field_type: 'status',
      values: [{ value: { id: 2, text: 'Contacted', means_completed: false } }],
    });
    const again = await call('getRecord', { record_id: id });
    expect(again.data.fields).toEqual(beforeDelete.data.fields);
    expect((again.data.fields as any[]).length).toBe((got.data.fields as any[]).length + 1);
  });

  it('rejects bad values with messages a model can act on', async () => {
    const { call } = setup();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', 'next-follow-up': { start: '2026-01-01 00:00:00' } }, "'YYYY-MM-DD HH:MM:SS'"],
      [{ name: 'x', tasks: [{ text: 'a', checked: true }] }, 'title and completed, not text and checked'],
      [{ name: 'x', source: ['Billboard'] }, 'Options: 1 "Website", 2 "Referral"'],
      [{ name: 'x', favourite: 1 }, 'has no field "favourite". Fields: name (300101, single_text)'],
      [{ name: 'x', owner: [5002] }, '5002 is the user_id of James Chen; their profile_id is 9102'],
      [{ name: 'x', budget: { value: '10', currency: 'GBP' } }, 'currency must be one of USD, EUR'],
      [{ name: 'x', phone: [{ type: 'cell', phone: '+1 555 1234' }] }, 'type must be work, mobile, home, other'],
      [{ status: [1] }, 'Required field missing: name'],
      [{ name: 'x', property: [999999] }, 'records_findRelatableRecords'],
    ];
    for (const [fields, text] of cases) {
      const r = await call('createRecord', { app_id: LEADS_APP, fields });
      expect(r.status, JSON.stringify(fields)).toBe(400);
      expect(r.error.message).toContain(text);
    }
  });

  it('filters with every rule and pages with an opaque cursor', async () => {
    const { call } = setup();
    const all = await call('filterRecords', { app_id: LEADS_APP, filters: [], count_only: true });
    expect(all.data).toEqual({ total: 60, count_only: true });
    const page1 = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [],
      limit: 25,
      sort_by: 'score',
      sort_desc: true,
    });
    expect(page1.data.records).toHaveLength(25);
    const scores = page1.data.records.map(
      (r: any) => r.fields.find((f: any) => f.external_id === 'score')?.value ?? -1,
    );
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const page3 = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [],
      limit: 25,
      cursor: (await call('filterRecords', { app_id: LEADS_APP, filters: [], limit: 25, cursor: page1.data.cursor }))
        .data.cursor,
    });
    expect(page3.data.records).toHaveLength(10);
    expect(page3.data.cursor).toBeNull();
    const over = await call('filterRecords', { app_id: LEADS_APP, filters: [], limit: 501 });
    expect(over.status).toBe(400);
    const label = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_label: 'STATUS', match_type: 'completed' }],
    });
    const open = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_id: 'status', match_type: 'incomplete' }],
      count_only: true,
    });
    expect(label.data.total + open.data.total).toBe(60);
    const unknown = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_label: 'Stage', match_type: 'empty' }],
    });
    expect(unknown.error.message).toContain('"Name" (300101)');
    const starts = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_id: 'name', match_type: 'starts_with', values: [{ value: 'A' }] }],
    });
    expect(starts.error.message).toContain('use contains or equal');
    const notEqualMulti = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_id: 'motivation', match_type: 'not_equal', values: [{ value: 1 }] }],
    });
    expect(notEqualMulti.error.message).toContain('use none');
    const activeEmpty = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_id: 'owner', match_type: 'not_empty', include_active_user: true }],
    });
    expect(activeEmpty.status).toBe(400);
    const mine = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_id: 'owner', match_type: 'equal', values: [], include_active_user: true }],
      limit: 500,
    });
    expect(mine.data.total).toBeGreaterThan(0);
    expect(
      mine.data.records.every(
        (r: any) => r.fields.find((f: any) => f.external_id === 'owner').value[0].profile_id === 9101,
      ),
    ).toBe(true);
    const recent = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_type: 'created_on', match_type: 'on_or_after', values: [{ value: '-30d' }] }],
      limit: 500,
    });
    expect(recent.data.records.every((r: any) => r.created_on >= '2026-10-22 00:00:00')).toBe(true);
    expect(recent.data.total).toBeGreaterThan(0);
    const sysEqual = await call('filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_type: 'created_on', match_type: 'equal', values: [{ value: '+0d' }] }],
    });
    expect(sysEqual.error.message).toContain('on_or_after');
  });

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
    expect(fwd.data.records[0].created_by).toMatch(/\(user \d+\)$/);
    const rev = await call('getRelatedRecords', {
      app_id: LEADS_APP,
      related_app_id: DEALS_APP,
      record_ids: [leadId],
      direction: 'reverse',
    });
    expect(rev.data.records.map((r: any) => r.record_id)).toContain(deal.record_id);
    const relatable = await call('findRelatableRecords', { field_id: 300302, text: 'ana' });
    expect(relatable.data.total).toBeGreaterThan(0);
    expect(
      relatable.data.records.every((r: any) => r.title.toLowerCase().includes('ana') && r.record_url === undefined),
    ).toBe(true);
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

const bindAll = (s: InMemoryRecords): RecordStore => ({
  get: (id) => s.get(id),
  query: (a, q) => s.query(a, q),
  matchAll: (a, f) => s.matchAll(a, f),
  create: (a, f, fl) => s.create(a, f, fl),
  update: (a, id, f, fl) => s.update(a, id, f, fl),
  delete: (id, fl) => s.delete(id, fl),
  restore: (id) => s.restore(id),
  revisions: (id) => s.revisions(id),
  revisionDelta: (id, a, b) => s.revisionDelta(id, a, b),
  referencing: (id, app) => s.referencing(id, app),
  findRelatable: (f, t, l) => s.findRelatable(f, t, l),
  uploadFile: (f) => s.uploadFile(f),
  deleteFile: (id) => s.deleteFile(id),
});
