// A record (Podio item): its data, the value a field shows, and which fields a result shows.
import { findField, type App } from './app.js';
import type { FieldDefinition } from './field.js';
import { FIELD_TYPE_SPECS } from './field-types/table.js';
import type { FieldValue, FieldValues } from './values.js';

export interface UserRef {
  readonly user_id: number;
  readonly name: string;
  readonly mail?: string;
  readonly profile_id?: number;
  readonly org_id?: number;
}

export interface RecordData {
  readonly record_id: number;
  readonly app_id: number;
  readonly app_record_id: number;
  readonly title: string;
  readonly record_url: string;
  readonly created_by: UserRef;
  /** In the account's time zone, and in UTC. */
  readonly created_on: string;
  readonly created_on_utc: string;
  readonly last_modified_by: UserRef;
  readonly last_modified_on: string;
  readonly last_modified_on_utc: string;
  readonly deleted_on: string | null;
  readonly deleted_on_utc: string | null;
  readonly revision: number;
  readonly values: FieldValues;
}

/** Which fields a result shows: `field_ids` (field_id or external_id) and `field_types`. */
export interface FieldSelection {
  readonly field_ids?: readonly (string | number)[];
  readonly field_types?: 'all' | 'basic' | 'calculation';
}

/** The value a field shows, system fields included (created_on... come from the record itself). */
export const valueOf = (record: RecordData, field: FieldDefinition): FieldValue | undefined => {
  const read = FIELD_TYPE_SPECS[field.field_type].read;
  return read ? read(record) : record.values[field.field_id];
};

/** valueOf for one field, its type looked up once (filters and aggregations read every record). */
export const readerOf = (field: FieldDefinition): ((record: RecordData) => FieldValue | undefined) => {
  const read = FIELD_TYPE_SPECS[field.field_type].read;
  const id = field.field_id;
  return read ?? ((record) => record.values[id]);
};

export const selectFields = (app: App, selection: FieldSelection): readonly FieldDefinition[] => {
  const types = selection.field_types ?? 'all';
  let fields = app.fields.filter((f) =>
    types === 'all' ? true : types === 'calculation' ? f.field_type === 'calculation' : f.field_type !== 'calculation',
  );
  if (selection.field_ids && selection.field_ids.length > 0) {
    const wanted = new Set(
      selection.field_ids.map((k) => findField(app, k)?.field_id).filter((id): id is number => id !== undefined),
    );
    fields = fields.filter((f) => wanted.has(f.field_id));
  }
  return fields;
};

/** field_ids that name no field of the app (the use case rejects them, listing the fields). */
export const unknownFieldKeys = (app: App, keys: readonly (string | number)[] | undefined): (string | number)[] =>
  (keys ?? []).filter((k) => findField(app, k) === undefined);
