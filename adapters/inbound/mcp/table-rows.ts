import type { ToolResult } from '../../../application/runtime/executor.js';
import { isPlainObject } from '../../../application/runtime/envelope.js';
import type { JsonSchema } from '../../../application/runtime/json-schema.js';
import type { Cell } from '../../../application/runtime/markdown.js';

// structuredContent a model can afford (issue 41): many MCP clients hand a tool's structuredContent to the
// model beside its text, and a list page of whole records there costs nine to ten times the text (100 rows of
// records_listRecords: 3,730 tokens of text, 34,161 of structured content). A list tool that has a `verbose`
// parameter therefore gives, by default, its rows as the table shows them plus their ids: each row is the
// row's `*_id` members and what its table row shows (the same rows, in the same order, as the budget keeps
// them): a record's title and the fields its table shows, by external_id, as the table words them (a
// relation as its records' ids and titles); another row's cells by column. The whole rows stay one argument away (`verbose: true`), as they are with the
// `output_schemas=full` form (whose schema describes whole rows) and over REST (`format=json`, the spec's shape).

/** The phrase the text uses for the whole rows when structuredContent carries table rows. */
export const TABLE_ROWS_PHRASE = 'with verbose: true';

/** Does this call's structuredContent carry table rows rather than whole ones? */
export const givesTableRows = (
  result: ToolResult,
  args: Readonly<Record<string, unknown>>,
  wholeRows: boolean,
): boolean =>
  result.ok &&
  !wholeRows &&
  args['verbose'] !== true &&
  result.tool.declaration.rows !== undefined &&
  result.presentation !== undefined &&
  isPlainObject(result.tool.inputSchema.properties) &&
  'verbose' in result.tool.inputSchema.properties;

const idsOf = (row: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(row).filter(
      ([key, value]) =>
        (key === 'id' || key.endsWith('_id')) && (typeof value === 'number' || typeof value === 'string'),
    ),
  );

/**
 * The payload with its rows (the declaration's `rows.key`) as table rows: ids, then one member per column.
 * Left as it is when the presentation is not a table of at least as many rows (a replayed answer, an empty
 * page).
 */
export const withTableRows = (result: Extract<ToolResult, { ok: true }>, payload: unknown): unknown => {
  const key = result.tool.declaration.rows?.key;
  const presented = result.presentation?.();
  if (!key || !isPlainObject(payload) || !presented || typeof presented === 'string') return payload;
  const rows = payload[key];
  if (!Array.isArray(rows) || presented.rows.length < rows.length) return payload;
  const shown = new Set(presented.columns);
  const cellsOf = (cells: readonly Cell[]) =>
    Object.fromEntries(presented.columns.map((column, i) => [column, cells[i] ?? '']));
  // the members the rows' schema requires stay as they are (the outputSchema still holds: a ShareFile item's
  // Id, Name and odata.type), and a column that only repeats one of them (id, name) is left out
  const required = requiredOf(result.tool.outputSchema, key);
  const repeated = new Set(required.map((m) => m.toLowerCase()));
  const otherColumns = presented.columns.flatMap((column, i) => (repeated.has(column.toLowerCase()) ? [] : [i]));
  const rowOf = (row: Record<string, unknown>, cells: readonly Cell[]) => ({
    ...Object.fromEntries(required.filter((m) => m in row).map((m) => [m, row[m]])),
    ...idsOf(row),
    ...Object.fromEntries(otherColumns.map((i) => [presented.columns[i]!, cells[i] ?? ''])),
  });
  return {
    ...payload,
    [key]: rows.map((row, i) => {
      const cells = presented.rows[i]!;
      if (!isPlainObject(row)) return cellsOf(cells);
      const fields = fieldsOf(row);
      if (!fields) return required.length ? rowOf(row, cells) : { ...idsOf(row), ...cellsOf(cells) };
      // A record: the fields its table shows, by external_id, as the table words them, except a relation,
      // whose related records keep their ids ({record_id, title}).
      // Its record_id only: its app is the page's, and its number in the app is not an id calls take.
      const cellOf = (label: string) => cells[presented.columns.indexOf(label)] ?? '';
      const values = fields
        .filter((f) => shown.has(f.label))
        .map((f) => [f.external_id, f.type === 'app' ? relatedOf(f.value) : cellOf(f.label)] as const);
      return {
        record_id: row['record_id'],
        title: row['title'],
        ...(values.length ? { values: Object.fromEntries(values) } : {}),
      };
    }),
  };
};

/** The members each row of the list under `key` must have, by the tool's outputSchema. */
const requiredOf = (schema: JsonSchema | undefined, key: string): readonly string[] => {
  const rows = schema?.properties?.[key]?.items;
  return rows && Array.isArray(rows.required) ? rows.required : [];
};

interface FieldEntry {
  readonly label: string;
  readonly external_id: string;
  readonly type?: string;
  readonly value: unknown;
}

/** A relation's value as its ids and titles. */
const relatedOf = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map((v) => (isPlainObject(v) ? { record_id: v['record_id'], title: v['title'] } : v))
    : value;

/** A record row's field entries (label, external_id, value), if it is one. */
const fieldsOf = (row: Record<string, unknown>): readonly FieldEntry[] | undefined => {
  const fields = row['fields'];
  return Array.isArray(fields) &&
    fields.every((f) => isPlainObject(f) && typeof f['label'] === 'string' && typeof f['external_id'] === 'string')
    ? (fields as FieldEntry[])
    : undefined;
};
