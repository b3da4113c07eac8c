// The shapes the records tools return for a record: compact (the default), full (verbose, restoreRecord) and
// related (getRelatedRecords, findRelatableRecords).
import type { App } from '../../domain/records/app.js';
import type { FieldDefinition, FieldType, ValueType } from '../../domain/records/field.js';
import { formatValue, valueSpecOf, valueTypeOf } from '../../domain/records/field-types/table.js';
import { valueOf, type RecordData } from '../../domain/records/record.js';
import { isEmptyValue, type CategoryValue, type FieldValue } from '../../domain/records/values.js';

export interface FieldEntry {
  readonly field_id: number;
  readonly external_id: string;
  readonly label: string;
  readonly type: ValueType;
  readonly value: FieldValue;
}

export interface CompactRecord {
  readonly record_id: number;
  readonly app_record_id: number;
  readonly app_id: number;
  readonly title: string;
  readonly record_url: string;
  readonly created_by: { readonly user_id: number; readonly name: string };
  readonly created_on: string;
  readonly fields: readonly FieldEntry[];
}

export const compactRecord = (app: App, record: RecordData, fields: readonly FieldDefinition[]): CompactRecord => {
  const entries: FieldEntry[] = [];
  for (const f of fields) {
    const value = valueOf(record, f);
    if (value === undefined || isEmptyValue(value)) continue;
    entries.push({
      field_id: f.field_id,
      external_id: f.external_id,
      label: f.label,
      type: valueTypeOf(f.field_type),
      value,
    });
  }
  return {
    record_id: record.record_id,
    app_record_id: record.app_record_id,
    app_id: record.app_id,
    title: record.title,
    record_url: record.record_url,
    created_by: { user_id: record.created_by.user_id, name: record.created_by.name },
    created_on: record.created_on,
    fields: entries,
  };
};

// Full record (restoreRecord, and verbose results): every field with its field_type and `values: [{value}]`.

export interface FullFieldEntry {
  readonly field_id: number;
  readonly external_id: string;
  readonly label: string;
  readonly type: ValueType;
  readonly field_type: FieldType;
  readonly values: readonly { readonly value: unknown }[];
}

export interface FullRecord {
  readonly record_id: number;
  readonly record_url: string;
  readonly app_record_id: number;
  readonly app_id: number;
  readonly title: string;
  readonly revision: number;
  readonly created_by: { readonly user_id: number; readonly name: string };
  readonly created_on: string;
  readonly created_on_utc: string;
  readonly last_modified_on: string;
  readonly last_modified_on_utc: string;
  readonly deleted_on: string | null;
  readonly deleted_on_utc: string | null;
  readonly app: {
    readonly app_id: number;
    readonly icon: string;
    readonly name: string;
    readonly record_name: string;
    readonly workspace_id: number;
  };
  readonly fields: readonly FullFieldEntry[];
}

const valuesList = (field: FieldDefinition, value: FieldValue): { value: unknown }[] => {
  if (Array.isArray(value)) {
    if (valueSpecOf(field.field_type).options) {
      return (value as readonly CategoryValue[]).map((c) => {
        const option = field.options?.find((o) => o.id === c.id);
        return {
          value: {
            id: c.id,
            text: c.text,
            color: option?.color ?? null,
            means_completed: option?.means_completed ?? false,
          },
        };
      });
    }
    return (value as readonly unknown[]).map((v) => ({ value: v }));
  }
  return [{ value }];
};

export const fullRecord = (
  app: App,
  record: RecordData,
  fields: readonly FieldDefinition[] = app.fields,
): FullRecord => ({
  record_id: record.record_id,
  record_url: record.record_url,
  app_record_id: record.app_record_id,
  app_id: record.app_id,
  title: record.title,
  revision: record.revision,
  created_by: { user_id: record.created_by.user_id, name: record.created_by.name },
  created_on: record.created_on,
  created_on_utc: record.created_on_utc,
  last_modified_on: record.last_modified_on,
  last_modified_on_utc: record.last_modified_on_utc,
  deleted_on: record.deleted_on,
  deleted_on_utc: record.deleted_on_utc,
  app: { app_id: app.app_id, icon: app.icon, name: app.name, record_name: app.item_name, workspace_id: app.space_id },
  fields: fields.flatMap((f) => {
    const value = valueOf(record, f);
    if (value === undefined || isEmptyValue(value)) return [];
    return [
      {
        field_id: f.field_id,
        external_id: f.external_id,
        label: f.label,
        type: valueTypeOf(f.field_type),
        field_type: f.field_type,
        values: valuesList(f, value),
      },
    ];
  }),
});

/**
 * A record found by getRelatedRecords or findRelatableRecords: the compact record and its filled fields
 * formatted for people (by label), from which their text and the spec's related-record shape are drawn.
 */
export interface RelatedRecord {
  readonly record: CompactRecord;
  readonly shown: Readonly<Record<string, string>>;
}

/** The spec's related-record shape (getRelatedRecords; findRelatableRecords leaves out record_url). */
export interface RelatedRecordJson {
  readonly record_id: number;
  readonly app_record_id: number;
  readonly title: string;
  readonly record_url?: string;
  /** Name and user id in one string: "Maria Gonzalez (user 5001)". */
  readonly created_by: string;
  readonly created_on: string;
  /** Label to formatted value, as the text shows them. */
  readonly fields: Readonly<Record<string, string>>;
}

export const relatedRecordJson = ({ record, shown }: RelatedRecord, withUrl: boolean): RelatedRecordJson => ({
  record_id: record.record_id,
  app_record_id: record.app_record_id,
  title: record.title,
  ...(withUrl ? { record_url: record.record_url } : {}),
  created_by: `${record.created_by.name} (user ${record.created_by.user_id})`,
  created_on: record.created_on,
  fields: shown,
});

export const relatedRecord = (app: App, record: RecordData, fields: readonly FieldDefinition[]): RelatedRecord => {
  const shown: Record<string, string> = {};
  for (const f of fields) {
    const v = valueOf(record, f);
    // two fields with one label stay two: the second is keyed with its external_id too
    if (v !== undefined && !isEmptyValue(v))
      shown[f.label in shown ? `${f.label} (${f.external_id})` : f.label] = formatValue(f, v);
  }
  return { record: compactRecord(app, record, fields), shown };
};
