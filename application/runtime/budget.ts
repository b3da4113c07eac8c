import type { NextCall } from './executor-types.js';

// Output budgets: no text result exceeds a fixed number of characters. A result that would is cut at a
// table row, says how many rows it shows and how to get the rest; a single huge value is cut with a
// visible marker. Truncation is always visible and recoverable.

const isRow = (line: string): boolean => line.startsWith('|');
const isRule = (line: string): boolean => /^\|(\s*:?-{3,}:?\s*\|)+\s*$/.test(line);

/** Where the largest markdown table sits: its header, rule and body lines. */
const largestTable = (lines: readonly string[]): { start: number; bodyStart: number; end: number } | undefined => {
  let best: { start: number; bodyStart: number; end: number } | undefined;
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!isRow(lines[i]!) || !isRule(lines[i + 1]!)) continue;
    let end = i + 2;
    while (end < lines.length && isRow(lines[end]!)) end++;
    if (!best || end - i > best.end - best.start) best = { start: i, bodyStart: i + 2, end };
    i = end - 1;
  }
  return best;
};

const cutValue = (text: string, budget: number): string => {
  const marker = (n: number) => `\n\n[... cut: ${n} more characters. Ask with format=json for the full value.]`;
  const keep = Math.max(0, budget - marker(text.length).length - 8);
  return text.slice(0, keep) + marker(text.length - keep);
};

/** A text within its budget, and how many rows of its largest table it kept when it had to cut them. */
export interface Fitted {
  readonly text: string;
  readonly shownRows?: number;
}

/**
 * Fits `text` into `budget` characters. `next(shownRows)` names the call that fetches what a cut table
 * left out (rows after the first `shownRows` of this answer).
 */
export const fitToBudget = (text: string, budget: number, next?: (shownRows: number) => string | undefined): string =>
  fitRows(text, budget, next).text;

/**
 * fitToBudget, also saying how many table rows the text kept; `maxRows` keeps at most that many (so that
 * the text shows the same rows as a structured answer cut shorter).
 */
export const fitRows = (
  text: string,
  budget: number,
  next?: (shownRows: number) => string | undefined,
  maxRows = Number.POSITIVE_INFINITY,
): Fitted => {
  // the common case, on every answer: short enough, and no row limit to apply
  if (text.length <= budget && maxRows === Number.POSITIVE_INFINITY) return { text };
  const lines = text.split('\n');
  const table = largestTable(lines);
  if (text.length <= budget && (!table || table.end - table.bodyStart <= maxRows)) return { text };
  if (table) {
    const before = lines
      .slice(0, table.bodyStart)
      .filter((l) => !/^Showing \d/.test(l))
      .filter((l, i, all) => !(l === '' && all[i - 1] === ''));
    const rows = lines.slice(table.bodyStart, table.end);
    const after = lines.slice(table.end).filter((l) => !/^(Next page|This is the last page|Showing )/.test(l));
    const note = (shown: number) => {
      const rest = next?.(shown);
      return `\n\n[Output budget of ${budget} characters reached: showing ${shown} of ${rows.length} rows of this answer.${rest ? ` The rest: ${rest}` : ' Ask for a smaller page, narrow the request, or use format=json for all of it.'}]`;
    };
    // The note for a shorter table names a call (the note for the whole table may not): reserve room for
    // the longer of the two, and a little for a longer cursor.
    const noteRoom = Math.max(note(rows.length).length, note(1).length) + 16;
    // When the text before the table leaves no room for a row, only the table's own header stays.
    const head =
      before.join('\n').length + noteRoom + 2 + rows[0]!.length < budget
        ? before
        : lines.slice(table.start, table.bodyStart);
    let size = head.join('\n').length + noteRoom + 2;
    const kept: string[] = [];
    for (const row of rows) {
      if (size + row.length + 1 > budget || kept.length >= maxRows) break;
      kept.push(row);
      size += row.length + 1;
    }
    // Every cut answer makes progress: at least one row, itself cut short when it alone is too long.
    if (kept.length === 0 && rows.length > 0) {
      const room = Math.max(12, budget - size - 2);
      kept.push(`${rows[0]!.slice(0, room - 8)} …(cut) |`);
    }
    const tail = after.join('\n');
    const noteText = note(kept.length);
    const body = [...head, ...kept].join('\n') + noteText;
    const assembled = tail && body.length + tail.length + 1 <= budget ? `${body}\n${tail}` : body;
    return { text: assembled.length <= budget ? assembled : cutValue(assembled, budget), shownRows: kept.length };
  }
  return { text: cutValue(text, budget) };
};

/**
 * A list payload cut to its first `shown` rows: the rows member shortened, the members `whenCut` names
 * set (undefined leaves one out), and `truncated` saying how many rows this is of how many and which call
 * returns the rest.
 */
export const cutRows = (
  payload: Record<string, unknown>,
  key: string,
  shown: number,
  whenCut: Readonly<Record<string, unknown>>,
  next: NextCall | undefined,
): Record<string, unknown> => {
  const rows = payload[key] as readonly unknown[];
  const out: Record<string, unknown> = { ...payload, ...whenCut, [key]: rows.slice(0, shown) };
  for (const [k, v] of Object.entries(out)) if (v === undefined) delete out[k];
  return next ? { ...out, truncated: { shown, of: rows.length, next } } : out;
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
