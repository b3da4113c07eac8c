import type { App, FieldDefinition, FieldType } from '../../domain/records/app.js';

// An app with a field of every kind the filter and validation tables use.

const f = (
  field_id: number,
  external_id: string,
  field_type: FieldType,
  more: Partial<FieldDefinition> = {},
): FieldDefinition => ({
  field_id,
  external_id,
  label: external_id.toUpperCase(),
  field_type,
  required: false,
  ...more,
});

export const testApp: App = {
  app_id: 1,
  space_id: 1,
  name: 'Test',
  item_name: 'Thing',
  description: '',
  icon: '',
  fields: [
    f(1, 't', 'single_text'),
    f(2, 'n', 'number'),
    f(3, 'c', 'single_category', {
      options: [
        { id: 1, text: 'A' },
        { id: 2, text: 'B' },
      ],
    }),
    f(4, 'mc', 'multi_category', {
      options: [
        { id: 1, text: 'X' },
        { id: 2, text: 'Y' },
        { id: 3, text: 'Z' },
      ],
    }),
    f(5, 's', 'status', {
      options: [
        { id: 1, text: 'Open' },
        { id: 2, text: 'Done', means_completed: true },
      ],
    }),
    f(6, 'd', 'single_date'),
    f(7, 'rel', 'multi_relation', { referenced_app_ids: [2] }),
    f(8, 'u', 'single_user'),
    f(9, 'e', 'multi_email'),
    f(10, 'p', 'multi_phone'),
    f(11, 'l', 'multi_link'),
    f(12, 'loc', 'single_location'),
    f(13, 'm', 'money', { currencies: ['USD'] }),
    f(14, 'file', 'attachment'),
    f(15, 'ck', 'checklist'),
    f(16, 'calc', 'calculation'),
    { ...f(17, 'dup1', 'single_text'), label: 'Dup' },
    { ...f(18, 'dup2', 'number'), label: 'Dup' },
  ],
};
