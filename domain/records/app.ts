// Apps (record databases) and their typed fields, as Podio models them.

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

export const valueTypeOf = (ft: FieldType): ValueType => {
  switch (ft) {
    case 'single_text':
    case 'multi_text':
      return 'text';
    case 'number':
    case 'unique_id':
      return 'number';
    case 'single_category':
    case 'multi_category':
      return 'category';
    case 'status':
      return 'status';
    case 'single_date':
    case 'range_date':
    case 'created_on':
    case 'last_modified_on':
      return 'date';
    case 'single_relation':
    case 'multi_relation':
      return 'app';
    case 'single_user':
    case 'multi_user':
    case 'created_by':
    case 'last_modified_by':
      return 'contact';
    case 'multi_email':
      return 'email';
    case 'multi_phone':
      return 'phone';
    case 'multi_link':
      return 'embed';
    case 'single_location':
      return 'location';
    case 'money':
      return 'money';
    case 'checklist':
      return 'checklist';
    case 'calculation':
      return 'calculation';
    default:
      return 'file';
  }
};

export const isMulti = (ft: FieldType): boolean =>
  ft === 'multi_category' || ft === 'multi_relation' || ft === 'multi_user';

/** Values the system sets: not writable through createRecord or updateRecord. */
export const isSystemField = (ft: FieldType): boolean =>
  ft === 'created_on' ||
  ft === 'last_modified_on' ||
  ft === 'created_by' ||
  ft === 'last_modified_by' ||
  ft === 'unique_id' ||
  ft === 'calculation';

export const isDateField = (ft: FieldType): boolean => valueTypeOf(ft) === 'date';
export const isNumericField = (ft: FieldType): boolean =>
  ft === 'number' || ft === 'calculation' || ft === 'unique_id' || ft === 'money';

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
