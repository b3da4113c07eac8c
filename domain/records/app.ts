// Apps (record databases) and their typed fields, as Podio models them.
import type { FieldDefinition } from './field.js';

// The field types and what they do are defined in field.ts and field-types/; apps' users reach them here.
export { isFieldType } from './field.js';
export type { CategoryOption, FieldDefinition, FieldType, ValueType } from './field.js';
export { isDateField, isMulti, isSystemField, valueTypeOf } from './field-types/table.js';

export interface AppView {
  readonly view_id: number;
  readonly name: string;
  /** Stored filter objects in the filterRecords format. */
  readonly filters: readonly unknown[];
  readonly sort_by?: string;
  readonly sort_desc?: boolean;
}

export interface App {
  readonly app_id: number;
  readonly space_id: number;
  readonly name: string;
  readonly item_name: string;
  readonly description: string;
  readonly icon: string;
  readonly fields: readonly FieldDefinition[];
}

export interface AppSummary {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly workspace_id: number;
  readonly item_name: string;
}

/** A field by field_id (number or numeric string) or external_id. */
export const findField = (app: App, key: string | number): FieldDefinition | undefined => {
  const k = String(key).trim();
  if (/^\d+$/.test(k)) {
    const id = Number(k);
    const byId = app.fields.find((f) => f.field_id === id);
    if (byId) return byId;
  }
  return app.fields.find((f) => f.external_id === k);
};

/** `"title" (123, single_text)` for every field: the list an error shows so a model can pick. */
export const describeFields = (app: App, predicate: (f: FieldDefinition) => boolean = () => true): string =>
  app.fields
    .filter(predicate)
    .map((f) => `${f.external_id} (${f.field_id}, ${f.field_type})`)
    .join(', ');

/** The field that names a record (Podio's item title): the first single_text field. */
export const titleField = (app: App): FieldDefinition | undefined =>
  app.fields.find((f) => f.field_type === 'single_text');
