import type { NextCall } from './executor-types.js';
import { joinBlocks, renderPage, tableHead, tableRow, type Page } from './markdown.js';

// Output budgets: no text result exceeds a fixed number of characters. A list page (a Page: rows and the
// markdown around them) that would is cut to the whole rows that fit, and says how many it shows and how
// to get the rest; any other text is cut with a visible marker. Truncation is always visible and
// recoverable, and no text is parsed to find rows.

/** Trailing space before a line break, or a run of blank lines: what `tidy` removes. */
const UNTIDY = /[ \t]\n|\n\n\n/;

/** No runs of blank lines and no trailing space, whichever presenter wrote the text. */
export const tidy = (text: string): string =>
  UNTIDY.test(text)
    ? text
        .replace(/[ \t]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim()
    : text.trim();

/**
 * What a cut answer tells its reader to do for the rest, by surface: REST offers `format=json`; MCP rejects
 * that parameter and gives structuredContent with every answer instead (when the payload is an object).
 */
export interface Advice {
  /** After a text cut short: how to read the whole value. */
  readonly value: string;
  /** After a page cut with no call that fetches the rest: how to get every row. */
  readonly rows: string;
}

export const REST_ADVICE: Advice = {
  value: 'Ask with format=json for the full value.',
  rows: 'Ask for a smaller page, narrow the request, or use format=json for all of it.',
};

/** MCP's advice; `structured`: the answer's structuredContent holds the whole payload. */
export const mcpAdvice = (structured: boolean): Advice =>
  structured
    ? {
        value: 'The full value is in structuredContent.',
        rows: 'structuredContent has every row of this answer; or ask for a smaller page or narrow the request.',
      }
    : {
        value: 'Ask for less: a smaller page or a narrower request.',
        rows: 'Ask for a smaller page or narrow the request.',
      };

const cutValue = (text: string, budget: number, advice: Advice = REST_ADVICE): string => {
  const marker = (n: number) => `\n\n[... cut: ${n} more characters. ${advice.value}]`;
  const keep = Math.max(0, budget - marker(text.length).length - 8);
  return text.slice(0, keep) + marker(text.length - keep);
};

/** A text within its budget, and how many rows of its page it kept when it had to cut them. */
export interface Fitted {
  readonly text: string;
  readonly shownRows?: number;
}

/** A text that is not a list page, within `budget` characters: cut with a visible marker when longer. */
export const fitText = (text: string, budget: number, advice: Advice = REST_ADVICE): string => {
  const tidied = tidy(text);
  return tidied.length <= budget ? tidied : cutValue(tidied, budget, advice);
};

/**
 * A list page within `budget` characters, and at most `maxRows` rows (so that the text shows the same
 * rows as a structured answer its own budget cut shorter). When every row fits, the whole page; else the
 * rows that fit, whole (and the footer), without the page's position and `more`, and a note saying how many
 * rows it shows and naming the call for the rest: `next(shownRows)`, the call that returns the rows after
 * the first `shownRows` of this answer (without one, `advice.rows`). A first row that alone is too long is
 * itself cut, visibly, so that every answer makes progress.
 */
export const fitPage = (
  page: Page,
  budget: number,
  next?: (shownRows: number) => string | undefined,
  maxRows = Number.POSITIVE_INFINITY,
  advice: Advice = REST_ADVICE,
): Fitted => {
  const { rows } = page;
  if (rows.length <= maxRows) {
    const whole = tidy(renderPage(page));
    if (whole.length <= budget) return { text: whole };
    if (rows.length === 0) return { text: cutValue(whole, budget, advice) };
  }
  // The text's own budget, or the structured answer's (maxRows): the note names the one that was reached.
  const reached = (shown: number) =>
    shown >= maxRows ? "The structured answer's budget reached" : `Output budget of ${budget} characters reached`;
  const note = (shown: number) => {
    const rest = next?.(shown);
    return `[${reached(shown)}: showing ${shown} of ${rows.length} rows of this answer.${rest ? ` The rest: ${rest}` : ` ${advice.rows}`}]`;
  };
  const width = page.columns.length;
  const lines = rows.map((r) => tableRow(r, width));
  const header = tableHead(page.columns);
  const footer = (page.footer ?? []).map((r) => `\n${tableRow(r, width)}`).join('');
  const before = page.before ? tidy(page.before) : '';
  // The note for a shorter table names a call (the note for the whole table may not): reserve room for
  // the longer of the two, and a little for a longer cursor.
  const noteRoom =
    Math.max(note(rows.length).length, note(1).length, note(Math.min(maxRows, rows.length)).length) + 2 + 16;
  // When the text before the table leaves no room for a row, only the table's own header stays.
  const head =
    before && before.length + 2 + header.length + 1 + lines[0]!.length + footer.length + noteRoom < budget
      ? `${before}\n\n${header}`
      : header;
  let size = head.length + footer.length + noteRoom;
  const kept: string[] = [];
  for (const line of lines) {
    if (size + line.length + 1 > budget || kept.length >= maxRows) break;
    kept.push(line);
    size += line.length + 1;
  }
  // Every cut answer makes progress: at least one row, itself cut short when it alone is too long.
  if (kept.length === 0) {
    const room = Math.max(12, budget - size - 1);
    kept.push(`${lines[0]!.slice(0, room - 8)} …(cut) |`);
  }
  const body = `${head}\n${kept.join('\n')}${footer}\n\n${note(kept.length)}`;
  const after = tidy(joinBlocks(page.notes, page.after));
  const assembled = after && body.length + 2 + after.length <= budget ? `${body}\n\n${after}` : body;
  return {
    text: assembled.length <= budget ? assembled : cutValue(assembled, budget, advice),
    shownRows: kept.length,
  };
};

/**
 * A list payload cut to its first `shown` rows: the rows member shortened, the members `whenCut` names
 * set (undefined leaves one out), the `cursor` member (the payload's own paging member, named as the
 * parameter it feeds) set to the continuation's value, so that a client that follows it alone loses no row,
 * and `truncated` saying how many rows this is of how many and which call returns the rest.
 */
export const cutRows = (
  payload: Record<string, unknown>,
  rows: { readonly key: string; readonly cursor?: string },
  shown: number,
  whenCut: Readonly<Record<string, unknown>>,
  next: NextCall | undefined,
): Record<string, unknown> => {
  const all = payload[rows.key] as readonly unknown[];
  const out: Record<string, unknown> = { ...payload, ...whenCut, [rows.key]: all.slice(0, shown) };
  if (rows.cursor) out[rows.cursor] = next?.arguments[rows.cursor] ?? null;
  for (const [k, v] of Object.entries(out)) if (v === undefined) delete out[k];
  return next ? { ...out, truncated: { shown, of: all.length, next } } : out;
};

/**
 * The most rows of a list payload whose JSON fits `budget` characters (at least one, so that every answer
 * makes progress; that one row may exceed the budget alone). Binary search: the JSON is serialised
 * about log2(rows) times.
 */
export const rowsWithin = (size: (shown: number) => number, total: number, budget: number): number => {
  if (size(total) <= budget) return total;
  let lo = 1;
  let hi = total - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (size(mid) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return lo;
};
