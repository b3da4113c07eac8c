// The field-type table: every field type with its filter `type`, and every filter `type` with its handlers
// (validation, filter values and predicates, sort key, text format, aggregations). Adding a field type means
// adding it to FIELD_TYPES (field.ts) and here; the Record types make the compiler ask for every entry,
// and the Podio adapter's tables (podio-record-values.ts) are keyed the same way.
import { isIdField, type FieldDefinition, type FieldType, type ValueType } from '../field.js';
import type { FieldValue } from '../values.js';
import { APP, CATEGORY, CONTACT, STATUS, validateCategory, validateReference } from './choice.js';
import { DATE, validateRangeDate, validateSingleDate } from './date.js';
import { CALCULATION, MONEY, NUMBER, validateMoney, validateNumber } from './number.js';
import { CHECKLIST, FILE, validateAttachment, validateChecklist } from './other.js';
import type { FieldTypeSpec, RecordStamps, Validate, ValueTypeSpec } from './spec.js';
import {
  EMAIL,
  EMBED,
  LOCATION,
  PHONE,
  TEXT,
  validateEmailOrPhone,
  validateLink,
  validateLocation,
  validateText,
} from './text.js';

export const VALUE_TYPE_SPECS: Readonly<Record<ValueType, ValueTypeSpec>> = {
  text: TEXT,
  number: NUMBER,
  category: CATEGORY,
  status: STATUS,
  date: DATE,
  app: APP,
  contact: CONTACT,
  email: EMAIL,
  phone: PHONE,
  embed: EMBED,
  location: LOCATION,
  file: FILE,
  money: MONEY,
  checklist: CHECKLIST,
  calculation: CALCULATION,
};

/** A writable field type holding one value (a text, a number, a date...) or a list that is not a choice. */
const typed = (valueType: ValueType, validate: Validate): FieldTypeSpec => ({ valueType, multi: false, validate });
/** A writable field type holding several options, records or people. */
const several = (valueType: ValueType, validate: Validate): FieldTypeSpec => ({ valueType, multi: true, validate });
/** Set by the system: created_on... are read from the record itself; unique_id and calculation are stored. */
const readOnly = (valueType: ValueType, read?: FieldTypeSpec['read']): FieldTypeSpec => ({
  valueType,
  multi: false,
  ...(read ? { read } : {}),
});
const person = (u: RecordStamps['created_by']) => [{ profile_id: u.profile_id ?? 0, user_id: u.user_id, name: u.name }];

export const FIELD_TYPE_SPECS: Readonly<Record<FieldType, FieldTypeSpec>> = {
  single_text: typed('text', validateText),
  multi_text: typed('text', validateText),
  number: typed('number', validateNumber),
  unique_id: readOnly('number'),
  single_category: typed('category', validateCategory),
  multi_category: several('category', validateCategory),
  status: typed('status', validateCategory),
  single_date: typed('date', validateSingleDate),
  range_date: typed('date', validateRangeDate),
  created_on: readOnly('date', (r) => ({ start: r.created_on, end: null })),
  last_modified_on: readOnly('date', (r) => ({ start: r.last_modified_on, end: null })),
  single_relation: typed('app', validateReference),
  multi_relation: several('app', validateReference),
  single_user: typed('contact', validateReference),
  multi_user: several('contact', validateReference),
  created_by: readOnly('contact', (r) => person(r.created_by)),
  last_modified_by: readOnly('contact', (r) => person(r.last_modified_by)),
  multi_email: typed('email', validateEmailOrPhone),
  multi_phone: typed('phone', validateEmailOrPhone),
  multi_link: typed('embed', validateLink),
  single_location: typed('location', validateLocation),
  money: typed('money', validateMoney),
  attachment: typed('file', validateAttachment),
  image_attachment: typed('file', validateAttachment),
  multi_image: typed('file', validateAttachment),
  checklist: typed('checklist', validateChecklist),
  calculation: readOnly('calculation'),
};

export const valueTypeOf = (ft: FieldType): ValueType => FIELD_TYPE_SPECS[ft].valueType;
export const valueSpecOf = (ft: FieldType): ValueTypeSpec => VALUE_TYPE_SPECS[FIELD_TYPE_SPECS[ft].valueType];

/** Holds several options, records or people (multi_category, multi_relation, multi_user). */
export const isMulti = (ft: FieldType): boolean => FIELD_TYPE_SPECS[ft].multi;

/** Values the system sets: not writable through createRecord or updateRecord. */
export const isSystemField = (ft: FieldType): boolean => FIELD_TYPE_SPECS[ft].validate === undefined;

export const isDateField = (ft: FieldType): boolean => valueTypeOf(ft) === 'date';

/**
 * A value of a type as text. A number that is an identifier (`id`: isIdField) is written as stored, never
 * with thousands separators.
 */
export const formatByType = (type: ValueType, value: FieldValue, id = false): string =>
  id && typeof value === 'number' ? String(value) : VALUE_TYPE_SPECS[type].format(value);

/** A field's value as text (text results, related records): an id field's numbers without separators. */
export const formatValue = (field: FieldDefinition, value: FieldValue): string =>
  formatByType(valueTypeOf(field.field_type), value, isIdField(field));
