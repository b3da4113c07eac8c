import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEALS_APP, LEADS_APP, PROPERTIES_APP } from '../../adapters/outbound/memory/demo/records.js';
import { err, ok } from '../support/run.js';
import type { RecordsHarness } from './records-harness.js';

/** What every RecordApps does. */
export const recordAppsContract = (name: string, start: () => Promise<RecordsHarness>) =>
  describe(`RecordApps contract: ${name}`, () => {
    let h: RecordsHarness;
    beforeAll(async () => {
      h = await start();
    });
    afterAll(async () => {
      await h?.close();
    });

    it('lists the apps of a workspace with ids, names and descriptions', async () => {
      const apps = await ok(h.apps.listApps(2001));
      expect(apps.map((a) => [a.id, a.name, a.workspace_id])).toEqual([
        [PROPERTIES_APP, 'Properties', 2001],
        [LEADS_APP, 'Leads', 2001],
        [DEALS_APP, 'Deals', 2001],
      ]);
      expect(apps.find((a) => a.id === LEADS_APP)).toMatchObject({
        description: 'Motivated sellers and how far we got with them.',
        item_name: 'Lead',
      });
    });

    it('lists every app the user can reach when no workspace is named', async () => {
      const apps = await ok(h.apps.listApps());
      expect(apps.map((a) => a.id)).toEqual(expect.arrayContaining([PROPERTIES_APP, LEADS_APP, DEALS_APP]));
    });

    it('reads an app with typed field definitions, options and referenced apps', async () => {
      const app = await ok(h.apps.getApp(LEADS_APP));
      expect(app).toMatchObject({ app_id: LEADS_APP, space_id: 2001, name: 'Leads', item_name: 'Lead' });
      const byKey = Object.fromEntries(app.fields.map((f) => [f.external_id, f]));
      expect(Object.fromEntries(app.fields.map((f) => [f.external_id, f.field_type]))).toMatchObject({
        name: 'single_text',
        source: 'single_category',
        motivation: 'multi_category',
        email: 'multi_email',
        phone: 'multi_phone',
        owner: 'single_user',
        budget: 'money',
        'next-follow-up': 'single_date',
        score: 'number',
        property: 'single_relation',
        notes: 'multi_text',
      });
      expect(byKey['name']).toMatchObject({ field_id: 300101, label: 'Name', required: true });
      expect(byKey['source']!.options!.map((o) => [o.id, o.text])).toEqual([
        [1, 'Website'],
        [2, 'Referral'],
        [3, 'Cold call'],
        [4, 'Direct mail'],
      ]);
      expect(byKey['property']!.referenced_app_ids).toEqual([PROPERTIES_APP]);
      expect(byKey['budget']!.currencies).toEqual(['USD', 'EUR']);
      const deals = await ok(h.apps.getApp(DEALS_APP));
      expect(deals.fields.find((f) => f.external_id === 'contract-period')?.field_type).toBe('range_date');
      expect(deals.fields.find((f) => f.external_id === 'team')?.field_type).toBe('multi_user');
    });

    it('counts the records of apps, as a count_only query does, and leaves out an unknown app', async () => {
      const counts = await ok(h.apps.recordCounts([PROPERTIES_APP, LEADS_APP, 987654]));
      expect([...counts.keys()]).toEqual([PROPERTIES_APP, LEADS_APP]);
      for (const id of [PROPERTIES_APP, LEADS_APP]) {
        const app = await ok(h.apps.getApp(id));
        const page = await ok(
          h.store.query(app, { filters: [], sortDesc: false, offset: 0, limit: 1, countOnly: true }),
        );
        expect(counts.get(id)).toBe(page.total);
      }
    });

    it('answers NotFound for an unknown app', async () => {
      expect(await err(h.apps.getApp(987654))).toMatchObject({ _tag: 'NotFound' });
    });

    it('lists views with their filters and reads one through its app', async () => {
      const views = await ok(h.apps.getViews(LEADS_APP));
      expect(views.map((v) => v.name)).toEqual(['Open leads', 'Probate leads']);
      const probate = views.find((v) => v.name === 'Probate leads')!;
      expect(probate.filters).toEqual([expect.objectContaining({ match_type: 'any', values: [{ value: 1 }] })]);
      const one = await ok(h.apps.getView(probate.view_id, LEADS_APP));
      expect(one.app_id).toBe(LEADS_APP);
      expect(one.view).toMatchObject({ view_id: probate.view_id, name: 'Probate leads' });
    });
  });
