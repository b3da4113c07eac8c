// Small helpers for the text a model reads: compact markdown, no nulls, every handle visible.

const escapeCell = (v: string): string =>
  v.includes('|') || v.includes('\n') ? v.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ') : v;

/** A table cell's value: empty for a missing one. */
export type Cell = string | number | undefined | null;

const cell = (v: Cell): string => (v === undefined || v === null ? '' : escapeCell(String(v)));

/** One body row of a table of `width` columns, as `table` writes it (no newline). */
export const tableRow = (cells: readonly Cell[], width: number): string => {
  let out = '|';
  for (let i = 0; i < width; i++) out += ` ${cell(cells[i])} |`;
  return out;
};

/** A markdown table; empty cells for missing values. */
export const table = (headers: readonly string[], rows: readonly (readonly Cell[])[]): string => {
  let out = '|';
  let rule = '|';
  for (const h of headers) {
    out += ` ${escapeCell(h)} |`;
    rule += '---|';
  }
  out += `\n${rule}`;
  for (const r of rows) out += `\n${tableRow(r, headers.length)}`;
  return out;
};

/** A table's header and rule lines, as `table` writes them. */
export const tableHead = (headers: readonly string[]): string => table(headers, []);

/**
 * One row of a two-column table, as `table` writes it, with the newline that goes before it: for a
 * presenter on the hot path that writes its rows as it finds them, without a row array for `table`.
 */
export const pairRow = (a: string, b: string): string => `\n| ${escapeCell(a)} | ${escapeCell(b)} |`;

/** `**Label:** value` lines, skipping empty values. */
export const fields = (entries: readonly (readonly [string, string | number | boolean | undefined | null])[]): string =>
  entries
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `**${k}:** ${v}`)
    .join('\n');

/** A follow-up call written exactly as a model would send it. */
export const call = (tool: string, args: Record<string, unknown>): string => `${tool} ${JSON.stringify(args)}`;

export const nextSteps = (steps: readonly string[]): string =>
  steps.length ? `\nNext steps:\n${steps.map((s) => `- ${s}`).join('\n')}` : '';

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export const joinBlocks = (...blocks: readonly (string | undefined | false)[]): string =>
  blocks.filter(Boolean).join('\n\n');

/**
 * A list answer as data: the markdown around a table, and the table's rows. The output budget
 * (budget.ts `fitPage`) cuts the rows, whole, and never parses the text; `renderPage` writes the whole page.
 * The parts are written in this order: before, position, the table (rows, then footer), notes, more, after.
 */
export interface Page {
  /** Markdown above the table (the heading, a few fields): kept when rows are cut. */
  readonly before?: string;
  /**
   * Where this page sits in the list (`Showing 1-100 of 342.`): true of the whole page only, so left out
   * when rows are cut (the budget's note says what is shown instead).
   */
  readonly position?: string;
  readonly columns: readonly string[];
  /** The rows, one cell per column: what the budget cuts, the same rows as the structured answer's list. */
  readonly rows: readonly (readonly Cell[])[];
  /**
   * Rows after `rows` that sum up the whole list (a total row): not part of the list, so not counted or
   * cut by the budget, and kept under the rows it keeps.
   */
  readonly footer?: readonly (readonly Cell[])[];
  /** Markdown right under the table, about its rows or columns (fields not shown): kept when rows are cut. */
  readonly notes?: string;
  /**
   * How to go on from the whole page (`Next page: ...`, `This is the last page.`): replaced by the budget's
   * note, which names the call for the rows it cut, when rows are cut.
   */
  readonly more?: string;
  /** Markdown below the table (notes, next steps): kept when rows are cut, if it fits. */
  readonly after?: string;
}

/**
 * Where a presenter points to the structured answer (every field, every option): each surface writes it as
 * it offers that answer, "with format=json" on REST and "in structuredContent" on MCP (`forSurface`). Longer
 * than either, so that writing it never makes a text longer than its budget.
 */
export const IN_STRUCTURED = '⟦in the structured answer⟧';

/** A presentation with IN_STRUCTURED written as `phrase`. */
export const forSurface = (presentation: Presentation, phrase: string): Presentation => {
  const put = (s: string | undefined) => (s?.includes(IN_STRUCTURED) ? s.replaceAll(IN_STRUCTURED, phrase) : s);
  if (typeof presentation === 'string') return put(presentation)!;
  const { before, notes, after } = presentation;
  return before?.includes(IN_STRUCTURED) || notes?.includes(IN_STRUCTURED) || after?.includes(IN_STRUCTURED)
    ? { ...presentation, before: put(before), notes: put(notes), after: put(after) }
    : presentation;
};

/** What a presenter gives: markdown, or a list page. */
export type Presentation = string | Page;

/** The page as one markdown text, every row shown. */
export const renderPage = (page: Page): string =>
  joinBlocks(
    page.before,
    page.position,
    table(page.columns, page.footer ? [...page.rows, ...page.footer] : page.rows),
    page.notes,
    page.more,
    page.after,
  );
