// The field types of an app (as Podio models them), the filter `type` each belongs to, and a field definition.
// What each type does (validation, filtering, sorting, formatting, aggregation) is in field-types/table.ts.

export const FIELD_TYPES = [
  'single_text',
  'multi_text',
  'number',
  'unique_id',
  'single_category',
  'multi_category',
  'status',
  'single_date',
  'range_date',
  'created_on',
  'last_modified_on',
  'single_relation',
  'multi_relation',
  'single_user',
  'multi_user',
  'created_by',
  'last_modified_by',
  'multi_email',
  'multi_phone',
  'multi_link',
  'single_location',
  'money',
  'attachment',
  'image_attachment',
  'multi_image',
  'checklist',
  'calculation',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The `type` of a field entry and of a filter (rule 1 of filterRecords), plus money, checklist and calculation. */
export type ValueType =
  | 'text'
  | 'number'
  | 'category'
  | 'status'
  | 'date'
  | 'app'
  | 'contact'
  | 'email'
  | 'phone'
  | 'embed'
  | 'location'
  | 'file'
  | 'money'
  | 'checklist'
  | 'calculation';

export const isFieldType = (s: string): s is FieldType => (FIELD_TYPES as readonly string[]).includes(s);

export interface CategoryOption {
  readonly id: number;
  readonly text: string;
  readonly color?: string;
  /** Status fields: choosing this option means the record is done. */
  readonly means_completed?: boolean;
}

export interface FieldDefinition {
  readonly field_id: number;
  readonly external_id: string;
  readonly label: string;
  readonly field_type: FieldType;
  readonly required: boolean;
  readonly description?: string;
  readonly options?: readonly CategoryOption[];
  /** Relation fields: the apps whose records may be referenced. */
  readonly referenced_app_ids?: readonly number[];
  /** Money fields: accepted currency codes. */
  readonly currencies?: readonly string[];
}

/** Words that make a field's name an identifier: "Record ID", "app_item_id", "Revision". */
const ID_WORDS = new Set(['id', 'ids', 'uid', 'uuid', 'revision']);

/**
 * A field whose numbers are identifiers, not amounts: a unique_id, or a field named as an id (its label or
 * external_id has the word id, such as "Lead ID" or "app_item_id", or revision). Text answers write its
 * numbers as stored (12345, never "12,345").
 */
export const isIdField = (field: {
  readonly field_type?: FieldType;
  readonly external_id: string;
  readonly label: string;
}): boolean =>
  field.field_type === 'unique_id' ||
  [field.external_id, field.label].some((name) =>
    name
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .some((word) => ID_WORDS.has(word)),
  );
