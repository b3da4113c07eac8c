import { describe, expect, it } from 'vitest';
import { DEALS_APP, LEADS_APP } from '../../adapters/outbound/memory/demo/records.js';
import { setup } from './records-gateway.js';

// Issue 30: format=json of getRelatedRecords and findRelatableRecords in the spec's compact related-record
// shape ("record_id, app_record_id, title, record_url (getRelatedRecords only), created_by (a single string
// combining name and user id), created_on, and fields as an object mapping label to formatted value"), and
// listApps' apps with `id`. The text answers are unchanged.

const RELATED = ['record_id', 'app_record_id', 'title', 'record_url', 'created_by', 'created_on', 'fields'];
const RELATABLE = RELATED.filter((k) => k !== 'record_url');

describe("the spec's related-record shape", () => {
  it('getRelatedRecords: exactly the spec members; fields by label, formatted as the text shows them', async () => {
    const { call } = setup();
    const deal = (await call('listRecords', { app_id: DEALS_APP, limit: 1 })).data.records[0];
    const args = { app_id: DEALS_APP, related_app_id: LEADS_APP, record_ids: [deal.record_id] };
    const json = await call('getRelatedRecords', args);
    expect(json.data.total).toBeGreaterThan(0);
    const lead = json.data.records[0];
    expect(Object.keys(lead).sort()).toEqual([...RELATED].sort());
    const full = (await call('getRecord', { record_id: lead.record_id })).data;
    expect(lead).toMatchObject({
      record_id: full.record_id,
      app_record_id: full.app_record_id,
      title: full.title,
      record_url: full.record_url,
      created_by: `${full.created_by.name} (user ${full.created_by.user_id})`,
      created_on: full.created_on,
    });
    // a label-to-value object whose values are the text's formatted values
    const text = (await call('getRelatedRecords', args, 'text')).data as string;
    const row = text.split('\n').find((l) => l.startsWith(`| ${lead.record_id} |`))!;
    for (const [label, value] of Object.entries(lead.fields).slice(0, 8)) {
      expect(typeof value).toBe('string');
      expect(row).toContain(`${label}: ${value}`);
    }
    const labels = (await call('getApp', { app_id: LEADS_APP })).data.fields.map((f: { label: string }) => f.label);
    expect(Object.keys(lead.fields).every((k) => labels.includes(k))).toBe(true);
  });

  it('findRelatableRecords: the same shape without record_url', async () => {
    const { call } = setup();
    const r = await call('findRelatableRecords', { field_id: 300302, text: 'ana' });
    expect(r.data.total).toBeGreaterThan(0);
    for (const x of r.data.records) {
      expect(Object.keys(x).sort()).toEqual([...RELATABLE].sort());
      expect(x.created_by).toMatch(/^\S.* \(user \d+\)$/);
      expect(Object.values(x.fields).every((v) => typeof v === 'string')).toBe(true);
    }
  });

  it('the text answers keep their tables', async () => {
    const { call } = setup();
    const text = (await call('findRelatableRecords', { field_id: 300302, text: 'ana' }, 'text')).data as string;
    expect(text).toContain('| record_id | title | created | fields |');
    const apps = (await call('listApps', {}, 'text')).data as string;
    expect(apps).toMatch(/^## Apps: \d+/);
  });
});
