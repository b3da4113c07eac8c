import { describe, expect, it } from 'vitest';
import {
  DEALS_APP,
  LEADS_APP,
  PROPERTIES_APP,
  seedDemoRecords,
  WORK_ORDERS_APP,
} from '../../../adapters/outbound/memory/demo/records.js';
import { InMemoryPodioAccount } from '../../../adapters/outbound/memory/in-memory-podio-account.js';
import { InMemoryRecords } from '../../../adapters/outbound/memory/in-memory-records.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { isMulti, valueTypeOf, type App } from '../../../domain/records/app.js';
import {
  compileFilters,
  matchTypesFor,
  resolveFilter,
  sortRecords,
  type FilterInput,
  type ResolvedFilter,
} from '../../../domain/records/filters.js';
import { valueOf, type RecordData } from '../../../domain/records/record.js';
import type {
  CategoryValue,
  ContactValue,
  DateValue,
  MoneyValue,
  RelationValue,
  TypedValue,
} from '../../../domain/records/values.js';
import { DEFAULT_FLAGS } from '../../../domain/records/revision.js';
import { ok } from '../../support/run.js';

// The in-memory store filters and sorts over columns (adapters/outbound/memory/records/columns.ts). Whatever
// the filter, its answer must be the one the record-by-record reference (compileFilters + sortRecords) gives.

const ctx = { today: '2026-11-21', activeProfileId: 9101 };

const sampleValues = (app: App, records: readonly RecordData[], fieldId: number): unknown[] => {
  const field = app.fields.find((f) => f.field_id === fieldId)!;
  const out = new Set<unknown>();
  for (const r of records.slice(0, 40)) {
    const v = valueOf(r, field);
    if (v === undefined) continue;
    switch (valueTypeOf(field.field_type)) {
      case 'text':
      case 'location':
        out.add((v as string).slice(0, 3));
        out.add(v as string);
        break;
      case 'email':
      case 'phone':
        for (const t of v as readonly TypedValue[]) {
          out.add(t.value);
          out.add(t.value.slice(-4));
        }
        break;
      case 'embed':
        out.add('listing');
        break;
      case 'number':
      case 'calculation':
        out.add(v as number);
        break;
      case 'money':
        out.add(Number((v as MoneyValue).value));
        break;
      case 'date':
        out.add((v as DateValue).start);
        out.add((v as DateValue).start.slice(0, 10));
        break;
      case 'category':
      case 'status':
        for (const c of v as readonly CategoryValue[]) out.add(c.id);
        break;
      case 'app':
        for (const c of v as readonly RelationValue[]) out.add(c.record_id);
        break;
      case 'contact':
        for (const c of v as readonly ContactValue[]) out.add(c.profile_id);
        break;
    }
  }
  if (valueTypeOf(field.field_type) === 'date') ['-30d', '+0d', '-1w', '+1m', '-1y'].forEach((t) => out.add(t));
  return [...out].slice(0, 6);
};

const filtersFor = (app: App, records: readonly RecordData[]): FilterInput[] => {
  const out: FilterInput[] = [];
  for (const field of app.fields) {
    const type = valueTypeOf(field.field_type);
    const values = sampleValues(app, records, field.field_id);
    for (const match of matchTypesFor(type, isMulti(field.field_type))) {
      if (['empty', 'not_empty', 'completed', 'incomplete'].includes(match)) {
        out.push({ field_id: field.field_id, match_type: match });
        continue;
      }
      const single = ['number', 'money', 'calculation', 'date'].includes(type);
      for (const v of values) out.push({ field_id: field.field_id, match_type: match, values: [{ value: v }] });
      if (!single && values.length > 1)
        out.push({
          field_id: field.field_id,
          match_type: match,
          values: values.slice(0, 2).map((value) => ({ value })),
        });
    }
  }
  for (const which of ['created_on', 'last_modified_on'])
    for (const match of ['before', 'after', 'on_or_before', 'on_or_after'])
      for (const value of ['-30d', '2026-06-01', records[5]?.created_on ?? '2026-06-01 00:00:00'])
        out.push({ field_type: which, match_type: match, values: [{ value }] });
  return out;
};

describe('in-memory filters over columns', () => {
  const clock = new FixedClock(new Date('2026-11-21T10:00:00Z'));
  const store = new InMemoryRecords({ clock, account: InMemoryPodioAccount.withDemoData() });
  seedDemoRecords(store, { properties: 60, leads: 400, deals: 80 });

  it('match, count, sort and page exactly as the record-by-record reference, also after updates and deletes', async () => {
    const leads = await ok(store.getApp(LEADS_APP));
    // Changes after the columns exist must show in them.
    const first = await ok(
      store.query(leads, { filters: [], sortDesc: false, offset: 0, limit: 10, countOnly: false }),
    );
    await ok(
      store.update(
        leads,
        first.records[0]!.record_id,
        [{ field: leads.fields.find((f) => f.external_id === 'score')!, input: { kind: 'number', value: 1000 } }],
        DEFAULT_FLAGS,
      ),
    );
    await ok(store.delete(first.records[1]!.record_id, DEFAULT_FLAGS));
    let compared = 0;
    for (const appId of [LEADS_APP, PROPERTIES_APP, DEALS_APP, WORK_ORDERS_APP]) {
      const app = await ok(store.getApp(appId));
      const all = [...(await ok(store.matchAll(app, [])))];
      for (const input of filtersFor(app, all)) {
        const resolved = resolveFilter(app, input, 'filters[0]', ctx);
        if (resolved._tag === 'Left') continue;
        const filters: ResolvedFilter[] = [resolved.right];
        const expected = all.filter(compileFilters(filters));
        const label = JSON.stringify(input);
        expect(
          (await ok(store.matchAll(app, filters))).map((r) => r.record_id),
          label,
        ).toEqual(expected.map((r) => r.record_id));
        expect(
          (await ok(store.query(app, { filters, sortDesc: false, offset: 0, limit: 1, countOnly: true }))).total,
          label,
        ).toBe(expected.length);
        const sortField = app.fields[compared % app.fields.length]!;
        for (const desc of [false, true]) {
          const sorted = sortRecords(expected, sortField, desc);
          for (const [offset, limit] of [
            [0, 5],
            [3, 7],
            [0, 500],
          ] as const) {
            const page = await ok(
              store.query(app, { filters, sort: sortField, sortDesc: desc, offset, limit, countOnly: false }),
            );
            expect(
              page.records.map((r) => r.record_id),
              `${label} sorted by ${sortField.external_id} ${desc}`,
            ).toEqual(sorted.slice(offset, offset + limit).map((r) => r.record_id));
          }
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(300);
  });
});
