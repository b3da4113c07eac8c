// Input values for createRecord and updateRecord, validated per field type exactly as the createRecord
// table says (field-types/table.ts), with messages a model can act on.
import { invalidInput, type InvalidInput } from '../shared/errors.js';
import { E, type Either } from '../shared/fp.js';
import { describeFields, findField, type App } from './app.js';
import type { FieldDefinition } from './field.js';
import type { FieldInput, ValidatedField, ValidatedFields } from './field-types/input.js';
import { FIELD_TYPE_SPECS, isSystemField } from './field-types/table.js';

export type {
  AttachmentInput,
  ChecklistInput,
  FieldInput,
  ValidatedField,
  ValidatedFields,
} from './field-types/input.js';

/** Validates one field's value. `param` is how the caller named it (`fields.status`). */
export const validateFieldValue = (
  field: FieldDefinition,
  raw: unknown,
  param: string,
): Either<InvalidInput, FieldInput> => {
  const name = `Field "${field.external_id}" (${field.field_type})`;
  const validate = FIELD_TYPE_SPECS[field.field_type].validate;
  if (!validate)
    return E.left(
      invalidInput(
        `${name} is set by the system and cannot be written. Leave it out.`,
        param,
        'nothing (read-only field)',
      ),
    );
  if (raw === null) return E.right({ kind: 'clear' });
  const checked = validate(field, raw, name);
  return checked._tag === 'Right' ? checked : E.left(invalidInput(checked.left.message, param, checked.left.expected));
};

/**
 * Validates a `fields` object keyed by field_id or external_id. On create, required fields must be present;
 * on update, only the given fields change and a required field cannot be cleared.
 */
export const validateFields = (
  app: App,
  fields: Readonly<Record<string, unknown>>,
  mode: 'create' | 'update',
  prefix = 'fields',
): Either<InvalidInput, ValidatedFields> => {
  const keys = Object.keys(fields);
  if (mode === 'update' && keys.length === 0)
    return E.left(
      invalidInput(
        `Give at least one field to change. Fields of app ${app.app_id}: ${describeFields(app, (f) => !isSystemField(f.field_type))}.`,
        prefix,
        'object with at least one field',
      ),
    );
  const out: ValidatedField[] = [];
  const seen = new Set<number>();
  for (const key of keys) {
    const field = findField(app, key);
    const param = `${prefix}.${key}`;
    if (!field)
      return E.left(
        invalidInput(
          `App "${app.name}" (${app.app_id}) has no field "${key}". Fields: ${describeFields(app)}. Key fields by field_id or external_id (records_getApp lists them).`,
          param,
          'field_id or external_id of the app',
          {
            fields: app.fields.map((f) => ({
              field_id: f.field_id,
              external_id: f.external_id,
              field_type: f.field_type,
            })),
          },
        ),
      );
    if (seen.has(field.field_id))
      return E.left(
        invalidInput(
          `Field ${field.field_id} is given twice (by field_id and by external_id "${field.external_id}").`,
          param,
          'each field once',
        ),
      );
    seen.add(field.field_id);
    const checked = validateFieldValue(field, fields[key], param);
    if (checked._tag === 'Left') return checked;
    const input = checked.right;
    const empty =
      input.kind === 'clear' ||
      (input.kind === 'text' && input.value === '') ||
      ('items' in input && input.items.length === 0) ||
      ('option_ids' in input && input.option_ids.length === 0) ||
      ('record_ids' in input && input.record_ids.length === 0) ||
      ('profile_ids' in input && input.profile_ids.length === 0) ||
      ('files' in input && input.files.length === 0);
    if (field.required && empty)
      return E.left(invalidInput(`Field "${field.external_id}" is required and cannot be empty.`, param, 'a value'));
    if (!(mode === 'create' && empty)) out.push({ field, input: empty ? { kind: 'clear' } : input });
  }
  if (mode === 'create') {
    const missing = app.fields.filter((f) => f.required && !seen.has(f.field_id));
    if (missing.length)
      return E.left(
        invalidInput(
          `Required field${missing.length > 1 ? 's' : ''} missing: ${missing.map((f) => `${f.external_id} (${f.field_id}, ${f.field_type})`).join(', ')}.`,
          prefix,
          'object with every required field',
        ),
      );
  }
  return E.right(out);
};
