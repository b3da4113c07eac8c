import { describe, expect, it } from 'vitest';
import { LEADS_APP } from '../../adapters/outbound/memory/demo/records.js';
import { setup } from './records-gateway.js';

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
    expect(upd.data).toEqual({ record_id: id, revision: 1 });
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

  it('shows every field the caller names, and names the fields it leaves out otherwise', async () => {
    const { call } = setup();
    const app = (await call('getApp', { app_id: LEADS_APP })).data;
    const every = app.fields.map((f: { field_id: number }) => f.field_id);
    const header = (text: string) => text.split('\n').find((l) => l.startsWith('| record_id'))!;
    const named = String((await call('listRecords', { app_id: LEADS_APP, limit: 5, field_ids: every }, 'text')).data);
    expect(named).not.toContain('Fields not shown');
    for (const label of ['Score', 'Budget', 'Property', 'Status']) expect(header(named)).toContain(`| ${label} |`);
    const plain = String((await call('listRecords', { app_id: LEADS_APP, limit: 5 }, 'text')).data);
    expect(header(plain).split('|').length - 2).toBe(2 + 6);
    expect(plain).toMatch(/Fields not shown, to keep the table narrow: .*Score \(score\)/);
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
});
