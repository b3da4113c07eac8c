import * as t from 'io-ts';
import type { App, FieldDefinition } from '../../domain/records/app.js';
import { formatValue } from '../../domain/records/field-types/table.js';
import {
  selectFields,
  unknownFieldKeys,
  valueOf,
  type FieldSelection,
  type RecordData,
} from '../../domain/records/record.js';
import { DEFAULT_FLAGS, type WriteFlags } from '../../domain/records/revision.js';
import { formatInZone, isEmptyValue } from '../../domain/records/values.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../domain/shared/fp.js';
import type { Clock } from '../../ports/clock.js';
import { arrayUpTo, described, NonEmptyString, object, oneOf } from '../runtime/codecs.js';
import { SchemaType } from '../runtime/json-schema.js';
import { IN_STRUCTURED, joinBlocks, renderPage, type Cell, type Presentation } from '../runtime/markdown.js';
import { compactRecord, fullRecord, type CompactRecord } from './record-shapes.js';

export const FieldKey = new SchemaType<string | number, string | number, unknown>(
  'FieldKey',
  (u): u is string | number => typeof u === 'string' || typeof u === 'number',
  (u, c) =>
    typeof u === 'number' && Number.isSafeInteger(u) && u >= 0
      ? t.success(u)
      : typeof u === 'string' && u.trim()
        ? t.success(u.trim())
        : t.failure(u, c),
  (a) => a,
  { anyOf: [{ type: 'integer' }, { type: 'string' }] },
);

/** Any JSON value (a field value; its shape is checked per field type). */
export const AnyValue = new SchemaType<unknown, unknown, unknown>(
  'Value',
  (u): u is unknown => u !== undefined,
  (u, c) => (u === undefined ? t.failure(u, c) : t.success(u)),
  (a) => a,
  {},
);

/** A `fields` object keyed by field_id or external_id. */
export const FieldsObject = new SchemaType<Record<string, unknown>, Record<string, unknown>, unknown>(
  'Fields',
  (u): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u),
  (u, c) =>
    typeof u === 'object' && u !== null && !Array.isArray(u)
      ? t.success(u as Record<string, unknown>)
      : t.failure(u, c),
  (a) => a,
  { type: 'object', additionalProperties: true },
);

export const FIELDS_DESCRIPTION =
  "Values keyed by field_id or external_id (records_getApp lists them). Formats: text: string; number: number; category/status: array of option ids or option texts; single_date: 'YYYY-MM-DD HH:MM:SS' (00:00:00 for a date; not an object); range_date: {start, end}; money: {value: '1250.00', currency: 'USD'}; relations: array of record ids; users: array of profile ids; attachment: array of file ids or URLs; multi_email: [{type: work|home|other, email}]; multi_phone: [{type: work|mobile|home|other, phone}]; multi_link: [{url, title}]; checklist: [{title, completed}] with optional description, due, assignee (user id) and id (keep an existing item); single_location: address string. null clears a field.";

export const selectionParams = {
  field_ids: described(t.array(FieldKey), 'Only these fields (field_id or external_id).'),
  field_types: described(
    oneOf(['all', 'basic', 'calculation'] as const, 'FieldTypes'),
    'basic: no calculations; calculation: only calculations.',
    'all',
  ),
  verbose: described(t.boolean, 'Also field types, raw values and revision times. Large.', false),
};

export const flagParams = {
  silent: described(t.boolean, 'true: no notifications to followers.', false),
  hook: described(t.boolean, 'false: no webhooks.', true),
  workflow: described(t.boolean, 'false: no workflows (automations).', true),
};

export const flagsOf = (p: { silent?: boolean; hook?: boolean; workflow?: boolean }): WriteFlags => ({
  silent: p.silent ?? DEFAULT_FLAGS.silent,
  hook: p.hook ?? DEFAULT_FLAGS.hook,
  workflow: p.workflow ?? DEFAULT_FLAGS.workflow,
});

export const FilterValueCodec = object(
  'FilterValue',
  {
    value: described(
      AnyValue,
      "Text, a number, an option id, a record id, a profile id, or a date 'YYYY-MM-DD HH:MM:SS' or relative token (-30d, +0d for today, -1w).",
    ),
  },
  {},
);

export const FilterCodec = object(
  'Filter',
  {
    match_type: described(
      NonEmptyString,
      'text: contains, equal, not_equal, not_contains, empty, not_empty; category/relation/user: equal, not_equal (single fields only), any, none, empty, not_empty; status adds completed, incomplete; number/money: equal, smaller, larger, smaller_or_equal, larger_or_equal, empty, not_empty; date: equal, before, after, on_or_before, on_or_after, empty, not_empty; email/phone add fully_includes.',
    ),
  },
  {
    field_id: described(
      FieldKey,
      'field_id or external_id; leave out for created_on / last_modified_on (give field_type).',
    ),
    field_label: described(t.string, "Instead of field_id: the field's label."),
    field_type: described(
      t.string,
      'e.g. single_text, multi_category, status, single_date, created_on. Optional with field_id.',
    ),
    type: described(t.string, 'Derived from field_type.'),
    values: described(
      arrayUpTo(FilterValueCodec, 100),
      'Several mean any of them (equal, any) or none (none, not_equal).',
    ),
    include_active_user: described(t.boolean, 'User fields: also match the calling user.'),
  },
);

export type FilterParam = t.TypeOf<typeof FilterCodec>;

/** The filters of one call: every filter is tested against every record, so their number is bounded. */
export const FilterList = arrayUpTo(FilterCodec, 50);

/** Rejects field_ids that name no field, listing the fields. */
export const checkSelection = (
  app: App,
  selection: FieldSelection,
): TaskEither<GatewayError, readonly FieldDefinition[]> => {
  const unknown = unknownFieldKeys(app, selection.field_ids);
  if (unknown.length)
    return TE.left(
      invalidInput(
        `App "${app.name}" (${app.app_id}) has no field ${unknown.map((k) => JSON.stringify(k)).join(', ')}. Fields: ${app.fields.map((f) => `${f.external_id} (${f.field_id})`).join(', ')}.`,
        'field_ids',
        'field_id or external_id of the app',
      ),
    );
  return TE.right(selectFields(app, selection));
};

export const recordPayload = (
  app: App,
  r: RecordData,
  fields: readonly FieldDefinition[],
  verbose: boolean | undefined,
): CompactRecord | ReturnType<typeof fullRecord> =>
  verbose ? fullRecord(app, r, fields) : compactRecord(app, r, fields);

export const todayIn = (clock: Clock, timeZone: string): string => formatInZone(clock.now(), timeZone).slice(0, 10);

// --- text ---

/** A record: its heading and, as rows (cut by the output budget like a list's), its fields with values. */
export const recordPresentation = (
  app: App,
  r: RecordData,
  fields: readonly FieldDefinition[],
  after?: string,
): Presentation => {
  const rows = fields.flatMap((f) => {
    const v = valueOf(r, f);
    return v === undefined || isEmptyValue(v) ? [] : [[f.label, `${f.external_id} (${f.field_id})`, formatValue(f, v)]];
  });
  const before = `## ${app.item_name} "${r.title}" (record ${r.record_id})\n\n**App:** ${app.name} (${app.app_id}), record #${r.app_record_id}\n**Created:** ${r.created_on} by ${r.created_by.name}\n**URL:** ${r.record_url}`;
  return rows.length
    ? { before, columns: ['field', 'key', 'value'], rows, after }
    : joinBlocks(before, 'No field has a value.', after);
};

export const recordText = (app: App, r: RecordData, fields: readonly FieldDefinition[]): string => {
  const out = recordPresentation(app, r, fields);
  return typeof out === 'string' ? out : renderPage(out);
};

/** Field columns a records table shows at most; the others are named under it, never dropped silently. */
export const MAX_TABLE_FIELDS = 6;

/**
 * A table of records: record_id, title and field columns. Fields the caller named (field_ids) are all shown;
 * otherwise up to MAX_TABLE_FIELDS, and the others are named under the table, never dropped silently.
 */
export const recordsTable = (
  app: App,
  records: readonly RecordData[],
  fields: readonly FieldDefinition[],
  asked = false,
): { readonly columns: readonly string[]; readonly rows: readonly (readonly Cell[])[]; readonly note?: string } => {
  const withValues = fields
    .filter((f) => records.some((r) => !isEmptyValue(valueOf(r, f))))
    .filter((f) => f.field_type !== 'single_text' || f !== app.fields.find((x) => x.field_type === 'single_text'));
  const width = asked ? withValues.length : MAX_TABLE_FIELDS;
  const columns = withValues.slice(0, width);
  const omitted = withValues.slice(width);
  return {
    columns: ['record_id', 'title', ...columns.map((c) => c.label)],
    rows: records.map((r) => [
      r.record_id,
      r.title,
      ...columns.map((c) => {
        const v = valueOf(r, c);
        return v === undefined || isEmptyValue(v) ? '' : formatValue(c, v);
      }),
    ]),
    ...(omitted.length
      ? {
          note: `Fields not shown, to keep the table narrow: ${omitted.map((f) => `${f.label} (${f.external_id})`).join(', ')}. Name the ones you need in field_ids (named fields are all shown), or read every field ${IN_STRUCTURED} or with records_getRecord.`,
        }
      : {}),
  };
};
