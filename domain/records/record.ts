// A record (Podio item) and the shapes the spec returns for it.
import { findField, valueTypeOf, type App, type FieldDefinition, type FieldType, type ValueType } from './app.js';
import type {
  CategoryValue,
  ChecklistItem,
  ContactValue,
  DateValue,
  FieldValue,
  FieldValues,
  FileValue,
  LinkValue,
  MoneyValue,
  RelationValue,
  TypedValue,
} from './values.js';
import { isEmptyValue } from './values.js';

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

/** The value a field shows, system fields included (created_on... come from the record itself). */
export const valueOf = (record: RecordData, field: FieldDefinition): FieldValue | undefined => {
  switch (field.field_type) {
    case 'created_on':
      return { start: record.created_on, end: null };
    case 'last_modified_on':
      return { start: record.last_modified_on, end: null };
    case 'created_by':
      return [userToContact(record.created_by)];
    case 'last_modified_by':
      return [userToContact(record.last_modified_by)];
    default:
      return record.values[field.field_id];
  }
};

const userToContact = (u: UserRef): ContactValue => ({
  profile_id: u.profile_id ?? 0,
  user_id: u.user_id,
  name: u.name,
});

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
    if (valueTypeOf(field.field_type) === 'category' || valueTypeOf(field.field_type) === 'status') {
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

// Human formatting of values (text results, and the related-record shape's `fields` object).

const money = (m: MoneyValue): string => {
  const n = Number(m.value);
  return `${m.currency} ${Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : m.value}`;
};

export const formatValue = (field: FieldDefinition, value: FieldValue): string =>
  formatByType(valueTypeOf(field.field_type), value);

export const formatByType = (type: ValueType, value: FieldValue): string => {
  switch (type) {
    case 'text':
    case 'location':
      return String(value);
    case 'number':
    case 'calculation':
      return typeof value === 'number' ? value.toLocaleString('en-US', { maximumFractionDigits: 4 }) : String(value);
    case 'money':
      return money(value as MoneyValue);
    case 'category':
    case 'status':
      return (value as readonly CategoryValue[]).map((c) => c.text).join(', ');
    case 'date': {
      const d = value as DateValue;
      const trim = (s: string) => (s.endsWith(' 00:00:00') ? s.slice(0, 10) : s);
      return d.end && d.end !== d.start ? `${trim(d.start)} -> ${trim(d.end)}` : trim(d.start);
    }
    case 'app':
      return (value as readonly RelationValue[]).map((r) => `${r.title} (${r.record_id})`).join(', ');
    case 'contact':
      return (value as readonly ContactValue[]).map((c) => c.name).join(', ');
    case 'email':
    case 'phone':
      return (value as readonly TypedValue[]).map((t) => `${t.value} (${t.type})`).join(', ');
    case 'embed':
      return (value as readonly LinkValue[]).map((l) => (l.title ? `${l.title} <${l.url}>` : l.url)).join(', ');
    case 'file':
      return (value as readonly FileValue[]).map((f) => `${f.name} (file ${f.file_id})`).join(', ');
    case 'checklist': {
      const items = value as readonly ChecklistItem[];
      return `${items.filter((i) => i.completed).length}/${items.length} done: ${items.map((i) => `${i.completed ? '[x]' : '[ ]'} ${i.title}`).join('; ')}`;
    }
  }
};

/** The related-record shape of getRelatedRecords and findRelatableRecords. */
export interface RelatedRecord {
  readonly record_id: number;
  readonly app_record_id: number;
  readonly app_id: number;
  readonly title: string;
  readonly record_url?: string;
  readonly created_by: string;
  readonly created_on: string;
  readonly fields: Readonly<Record<string, string>>;
}

export const relatedRecord = (
  app: App,
  record: RecordData,
  fields: readonly FieldDefinition[],
  withUrl: boolean,
): RelatedRecord => {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = valueOf(record, f);
    if (v !== undefined && !isEmptyValue(v)) out[f.label] = formatValue(f, v);
  }
  return {
    record_id: record.record_id,
    app_record_id: record.app_record_id,
    app_id: record.app_id,
    title: record.title,
    ...(withUrl ? { record_url: record.record_url } : {}),
    created_by: `${record.created_by.name} (user ${record.created_by.user_id})`,
    created_on: record.created_on,
    fields: out,
  };
};
