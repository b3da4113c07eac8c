import { describe, expect, it } from 'vitest';
import type { App, FieldDefinition, FieldType } from '../../domain/records/app.js';
import { isIdField } from '../../domain/records/field.js';
import { setup } from './records-gateway.js';

// Issue 30, a smaller finding: numbers that are ids never get thousands separators in text answers. A
// number field reads 1956 below 10,000 and 250,000 above (number-format test); a field that is an id
// (unique_id, or named as an id: "Parcel ID", app_item_id, revision) reads as stored at any size.

const field = (field_id: number, external_id: string, label: string, field_type: FieldType): FieldDefinition => ({
  field_id,
  external_id,
  label,
  field_type,
  required: false,
});

const PARCELS = 3909;
const parcels: App = {
  app_id: PARCELS,
  space_id: 2001,
  name: 'Parcels',
  item_name: 'Parcel',
  description: '',
  icon: '',
  fields: [
    field(390901, 'title', 'Title', 'single_text'),
    field(390902, 'parcel-id', 'Parcel ID', 'number'),
    field(390903, 'year-built', 'Year built', 'number'),
    field(390904, 'price', 'Asking price', 'number'),
    field(390905, 'ticket', 'Ticket', 'unique_id'),
    field(390906, 'county_item_id', 'County item', 'number'),
  ],
};

const start = () => {
  const s = setup();
  s.store.addApp(parcels);
  const record = s.store.seed(
    PARCELS,
    { title: '12 Elm St', 'parcel-id': 48213, 'year-built': 1956, price: 250000, county_item_id: 73000123 },
    new Date('2026-11-01T10:00:00Z'),
    undefined,
    { 390905: 12345 },
  );
  return { ...s, id: record.record_id };
};

describe('ids without separators', () => {
  it('knows an id field by its type or its name', () => {
    const named = (label: string, external_id = 'x', field_type: FieldType = 'number') =>
      isIdField({ label, external_id, field_type });
    expect(named('Parcel ID')).toBe(true);
    expect(named('x', 'app_item_id')).toBe(true);
    expect(named('x', 'leadId')).toBe(true);
    expect(named('Revision')).toBe(true);
    expect(named('Ticket', 'ticket', 'unique_id')).toBe(true);
    expect(named('Year built')).toBe(false);
    expect(named('Idle days')).toBe(false);
    expect(named('Asking price', 'price')).toBe(false);
  });

  it('a record, a list and a filter write ids as stored and amounts with separators', async () => {
    const { call, id } = start();
    const one = (await call('getRecord', { record_id: id }, 'text')).data as string;
    const list = (
      await call(
        'listRecords',
        { app_id: PARCELS, field_ids: ['parcel-id', 'ticket', 'price', 'year-built', 'county_item_id'] },
        'text',
      )
    ).data as string;
    for (const text of [one, list]) {
      expect(text).toContain('| 48213 |');
      expect(text).toContain('| 12345 |');
      expect(text).toContain('| 73000123 |');
      expect(text).toContain('| 1956 |');
      expect(text).toContain('| 250,000 |');
      expect(text).not.toMatch(/48,213|12,345|73,000,123|1,956/);
    }
  });

  it('an aggregation of an id field reads as stored; of an amount, with separators', async () => {
    const { call } = start();
    const text = (
      await call(
        'aggregateRecords',
        {
          app_id: PARCELS,
          aggregations: [
            { field_id: 'ticket', operation: 'max' },
            { field_id: 'parcel-id', operation: 'min' },
            { field_id: 'price', operation: 'sum' },
            { field_id: 'year-built', operation: 'min' },
          ],
        },
        'text',
      )
    ).data as string;
    expect(text).toMatch(/max Ticket \(390905\) \| 12345 \|/);
    expect(text).toMatch(/min Parcel ID \(390902\) \| 48213 \|/);
    expect(text).toMatch(/sum Asking price \(390904\) \| 250,000 \|/);
    expect(text).toMatch(/min Year built \(390903\) \| 1956 \|/);
  });

  it('a revision delta writes an id field as stored', async () => {
    const { call, id } = start();
    expect((await call('updateRecord', { record_id: id, fields: { 'parcel-id': 48214, price: 260000 } })).status).toBe(
      200,
    );
    const text = (await call('getRecordRevisionDelta', { record_id: id, revision_from: 0, revision_to: 1 }, 'text'))
      .data as string;
    expect(text).toContain('| Parcel ID (390902) | 48213 | 48214 |');
    expect(text).toContain('| Asking price (390904) | 250,000 | 260,000 |');
  });
});
