import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEALS_APP, LEADS_APP } from '../../adapters/outbound/memory/demo/records.js';
import type { App } from '../../domain/records/app.js';
import { validateFields } from '../../domain/records/field-input.js';
import { resolveFilters, type FilterInput } from '../../domain/records/filters.js';
import type { RecordData } from '../../domain/records/record.js';
import { DEFAULT_FLAGS } from '../../domain/records/revision.js';
import type { MoneyValue } from '../../domain/records/values.js';
import { err, ok } from '../support/run.js';
import type { RecordsHarness } from './records-harness.js';

const ctx = { today: '2026-11-21', activeProfileId: 9101 };

/** What every RecordStore does (values arrive validated, as the use cases pass them). */
export const recordStoreContract = (name: string, start: () => Promise<RecordsHarness>) =>
  describe(`RecordStore contract: ${name}`, () => {
    let h: RecordsHarness;
    let leads: App;
    let deals: App;
    beforeAll(async () => {
      h = await start();
      leads = await ok(h.apps.getApp(LEADS_APP));
      deals = await ok(h.apps.getApp(DEALS_APP));
    });
    afterAll(async () => {
      await h?.close();
    });

    const fields = (app: App, input: Record<string, unknown>, mode: 'create' | 'update' = 'create') => {
      const v = validateFields(app, input, mode);
      if (v._tag === 'Left') throw new Error(v.left.message);
      return v.right;
    };
    const filters = (app: App, input: FilterInput[]) => {
      const r = resolveFilters(app, input, ctx);
      if (r._tag === 'Left') throw new Error(r.left.message);
      return r.right;
    };
    const byKey = (app: App, r: RecordData) =>
      Object.fromEntries(
        app.fields.filter((f) => r.values[f.field_id] !== undefined).map((f) => [f.external_id, r.values[f.field_id]]),
      );
    const create = (app: App, input: Record<string, unknown>) =>
      ok(h.store.create(app, fields(app, input), DEFAULT_FLAGS));
    const page = (
      app: App,
      f: FilterInput[],
      more: { sort?: string; desc?: boolean; offset?: number; limit?: number } = {},
    ) =>
      ok(
        h.store.query(app, {
          filters: filters(app, f),
          ...(more.sort ? { sort: app.fields.find((x) => x.external_id === more.sort)! } : {}),
          sortDesc: more.desc ?? false,
          offset: more.offset ?? 0,
          limit: more.limit ?? 100,
          countOnly: false,
        }),
      );

    it('creates a record with typed values and reads them back', async () => {
      const property = (await page(await ok(h.apps.getApp(3002)), [], { limit: 1 })).records[0]!;
      const created = await create(leads, {
        name: 'Contract Lead',
        source: ['Referral'],
        motivation: [1, 3],
        email: [{ type: 'work', email: 'contract.lead@example.com' }],
        phone: [{ type: 'mobile', phone: '+1 617 555 0199' }],
        owner: [9102],
        budget: { value: '250000', currency: 'USD' },
        'next-follow-up': '2026-12-01 09:30:00',
        score: 77,
        property: [property.record_id],
        notes: 'Prefers calls.',
      });
      expect(created.title).toBe('Contract Lead');
      const got = await ok(h.store.get(created.record_id));
      expect(got).toMatchObject({
        record_id: created.record_id,
        app_id: LEADS_APP,
        title: 'Contract Lead',
        created_by: { user_id: 5001, name: 'Maria Gonzalez' },
        revision: 0,
      });
      expect(got.app_record_id).toBeGreaterThan(0);
      expect(got.created_on).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      const v = byKey(leads, got);
      expect(v).toMatchObject({
        name: 'Contract Lead',
        source: [{ id: 2, text: 'Referral' }],
        motivation: [
          { id: 1, text: 'Probate' },
          { id: 3, text: 'Vacant' },
        ],
        email: [{ type: 'work', value: 'contract.lead@example.com' }],
        phone: [{ type: 'mobile', value: '+1 617 555 0199' }],
        owner: [{ profile_id: 9102, user_id: 5002, name: 'James Chen' }],
        'next-follow-up': { start: '2026-12-01 09:30:00', end: null },
        score: 77,
        property: [{ record_id: property.record_id, app_id: 3002, title: property.title }],
        notes: 'Prefers calls.',
      });
      expect(Number((v['budget'] as MoneyValue).value)).toBe(250000);
      expect((v['budget'] as MoneyValue).currency).toBe('USD');
    });

    it('answers NotFound for an unknown record and refuses references to records that do not exist', async () => {
      expect(await err(h.store.get(987654321))).toMatchObject({ _tag: 'NotFound' });
      expect(
        await err(h.store.create(leads, fields(leads, { name: 'Bad ref', property: [987654321] }), DEFAULT_FLAGS)),
      ).toMatchObject({ _tag: 'InvalidInput' });
    });

    it('updates only the given fields, writing a revision with a field-by-field delta', async () => {
      const r = await create(leads, { name: 'Revised Lead', score: 10, source: [1] });
      const updated = await ok(
        h.store.update(leads, r.record_id, fields(leads, { score: 42, notes: 'Called back' }, 'update'), {
          ...DEFAULT_FLAGS,
          silent: true,
        }),
      );
      expect(byKey(leads, updated)).toMatchObject({
        name: 'Revised Lead',
        score: 42,
        notes: 'Called back',
        source: [{ id: 1, text: 'Website' }],
      });
      expect(updated.revision).toBe(1);
      const revisions = await ok(h.store.revisions(r.record_id));
      expect(revisions.map((x) => [x.revision, x.type])).toEqual([
        [0, 'creation'],
        [1, 'update'],
      ]);
      expect(revisions[1]!.created_by).toMatchObject({ user_id: 5001, name: 'Maria Gonzalez', type: 'user' });
      const delta = await ok(h.store.revisionDelta(r.record_id, 0, 1));
      expect(delta.map((d) => [d.external_id, d.from, d.to])).toEqual([
        ['score', 10, 42],
        ['notes', null, 'Called back'],
      ]);
    });

    it('filters, counts, sorts and pages', async () => {
      const referrals = await page(
        leads,
        [
          { field_id: 'source', match_type: 'any', values: [{ value: 2 }] },
          { field_id: 'score', match_type: 'larger_or_equal', values: [{ value: 50 }] },
        ],
        { sort: 'score', desc: true },
      );
      expect(referrals.total).toBeGreaterThan(1);
      expect(referrals.records).toHaveLength(referrals.total);
      for (const r of referrals.records) {
        expect(byKey(leads, r)['source']).toEqual([{ id: 2, text: 'Referral' }]);
        expect(byKey(leads, r)['score']).toBeGreaterThanOrEqual(50);
      }
      const scores = referrals.records.map((r) => byKey(leads, r)['score'] as number);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      const second = await page(
        leads,
        [
          { field_id: 'source', match_type: 'any', values: [{ value: 2 }] },
          { field_id: 'score', match_type: 'larger_or_equal', values: [{ value: 50 }] },
        ],
        { sort: 'score', desc: true, offset: 1, limit: 1 },
      );
      expect(second.total).toBe(referrals.total);
      expect(second.records.map((r) => r.record_id)).toEqual([referrals.records[1]!.record_id]);
      const counted = await ok(
        h.store.query(leads, {
          filters: filters(leads, [{ field_id: 'source', match_type: 'any', values: [{ value: 2 }] }]),
          sortDesc: false,
          offset: 0,
          limit: 1,
          countOnly: true,
        }),
      );
      expect(counted.records).toEqual([]);
      const all = await ok(
        h.store.matchAll(leads, filters(leads, [{ field_id: 'source', match_type: 'any', values: [{ value: 2 }] }])),
      );
      expect(counted.total).toBe(all.length);
      const text = await ok(
        h.store.matchAll(
          leads,
          filters(leads, [{ field_id: 'name', match_type: 'contains', values: [{ value: 'ana' }] }]),
        ),
      );
      expect(text.length).toBeGreaterThan(0);
      expect(text.every((r) => r.title.toLowerCase().includes('ana'))).toBe(true);
    });

    it('answers completed/incomplete status filters, or says plainly that it cannot', async () => {
      const done = filters(leads, [{ field_id: 'status', match_type: 'completed' }]);
      if (h.podio) {
        const e = await err(
          h.store.query(leads, { filters: done, sortDesc: false, offset: 0, limit: 10, countOnly: true }),
        );
        expect(e).toMatchObject({ _tag: 'InvalidInput' });
        expect(e.message).toContain('option ids');
        return;
      }
      const total = (await ok(h.store.matchAll(leads, []))).length;
      const completed = await ok(h.store.matchAll(leads, done));
      const open = await ok(
        h.store.matchAll(leads, filters(leads, [{ field_id: 'status', match_type: 'incomplete' }])),
      );
      expect(completed.length + open.length).toBe(total);
      expect(
        completed.every((r) => [4, 5].includes((byKey(leads, r)['status'] as unknown as { id: number }[])[0]!.id)),
      ).toBe(true);
    });

    it('deletes a record: gone from get and filters; restored with every value, or refused honestly', async () => {
      const r = await create(leads, {
        name: 'Trash Candidate',
        score: 5,
        source: [3],
        budget: { value: '99000', currency: 'EUR' },
      });
      await ok(h.store.delete(r.record_id, DEFAULT_FLAGS));
      expect(await err(h.store.get(r.record_id))).toMatchObject({ _tag: 'NotFound' });
      const found = await ok(
        h.store.matchAll(
          leads,
          filters(leads, [{ field_id: 'name', match_type: 'equal', values: [{ value: 'Trash Candidate' }] }]),
        ),
      );
      expect(found).toEqual([]);
      if (h.podio) {
        const e = await err(h.store.restore(r.record_id));
        expect(e).toMatchObject({ _tag: 'InvalidInput' });
        expect(e.message).toContain('permanently');
        return;
      }
      const restored = await ok(h.store.restore(r.record_id));
      expect(restored.deleted_on).toBeNull();
      expect(restored.values).toEqual(r.values);
      expect((await ok(h.store.get(r.record_id))).values).toEqual(r.values);
    });

    it('finds the records that reference a record and the records a relation field can reference', async () => {
      const lead = await create(leads, { name: 'Referenced Lead' });
      const deal = await create(deals, { title: 'Deal on Referenced Lead', lead: [lead.record_id] });
      expect((await ok(h.store.referencing(lead.record_id, DEALS_APP))).map((r) => r.record_id)).toEqual([
        deal.record_id,
      ]);
      expect(await ok(h.store.referencing(lead.record_id, LEADS_APP))).toEqual([]);
      const relatable = await ok(h.store.findRelatable(300302, 'referenced lead', 10));
      expect(relatable.map((r) => [r.record_id, r.title])).toEqual([[lead.record_id, 'Referenced Lead']]);
      expect((await ok(h.store.findRelatable(300302, 'ana', 3))).length).toBe(3);
      expect(await err(h.store.findRelatable(300101, 'x', 3))).toMatchObject({
        _tag: expect.stringMatching(/InvalidInput|NotFound/),
      });
    });

    it('uploads a file and attaches it to a record', async () => {
      const content = new Uint8Array([37, 80, 68, 70, 0, 255, 1, 2]);
      const file = await ok(h.store.uploadFile({ name: 'offer.pdf', mimetype: 'application/pdf', content }));
      expect(file).toMatchObject({ name: 'offer.pdf', mimetype: 'application/pdf', size: content.byteLength });
      const deal = await create(deals, { title: 'Deal with offer', documents: [file.file_id] });
      expect((await ok(h.store.get(deal.record_id))).values[300309]).toEqual([
        expect.objectContaining({ file_id: file.file_id, name: 'offer.pdf' }),
      ]);
    });

    it('removes an uploaded file no record uses (undoing the upload of a refused write)', async () => {
      const file = await ok(
        h.store.uploadFile({ name: 'orphan.txt', mimetype: 'text/plain', content: new Uint8Array([1]) }),
      );
      await ok(h.store.deleteFile(file.file_id));
      expect(
        await err(h.store.create(deals, fields(deals, { title: 'x', documents: [file.file_id] }), DEFAULT_FLAGS)),
      ).toMatchObject({ _tag: expect.stringMatching(/InvalidInput|NotFound/) });
    });
  });
