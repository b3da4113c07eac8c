import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dealsApp } from '../../adapters/outbound/memory/demo/record-apps.js';
import { DEALS_APP, LEADS_APP } from '../../adapters/outbound/memory/demo/records.js';
import { validateFields } from '../../domain/records/field-input.js';
import { ok, right } from '../support/run.js';
import { podioSetup } from './records-podio-gateway.js';

// Issue 42: records_getRelatedRecords in reverse read one filter page of 500 per relation field and counted
// what it read. It pages on until Podio's total (`filtered`) is read, and its total is Podio's.

describe('getRelatedRecords in reverse past 500 referencing records (Podio stand-in)', () => {
  let s: Awaited<ReturnType<typeof podioSetup>>;
  beforeAll(async () => {
    s = await podioSetup();
  });
  afterAll(() => s.close());

  it('reads every referencing record, and says Podio total', async () => {
    const leads = await s.call('listRecords', { app_id: LEADS_APP, limit: 1 });
    const leadId = leads.data.records[0].record_id as number;
    const flags = { silent: true, hook: false, workflow: false };
    for (let i = 0; i < 510; i++) {
      const fields = right(validateFields(dealsApp, { title: `Deal ${i}`, lead: [leadId] }, 'create'));
      await ok(s.standIn.create(dealsApp, fields, flags));
    }
    const r = await s.call('getRelatedRecords', {
      app_id: LEADS_APP,
      related_app_id: DEALS_APP,
      record_ids: [leadId],
      direction: 'reverse',
      field_ids: ['title'],
    });
    expect(r.status).toBe(200);
    expect(r.data.total).toBeGreaterThanOrEqual(510);
    expect(r.data.records.length).toBe(r.data.total);
    expect(r.data.total_is_lower_bound).toBeUndefined();
    const filters = s.server
      .apiRequests()
      .filter((c) => c.method === 'POST' && c.path === `/item/app/${DEALS_APP}/filter/`);
    expect(filters.map((c) => (c.body as any).offset)).toEqual([0, 500]);
    expect(s.server.violations).toEqual([]);
  });
});
