// What a line of block Markdown is: a fence, a heading, a rule, a list item, a table row or delimiter row.
// Each looks at one line (or two, for a table's delimiter row); markdown-parse.ts walks the lines with them.
import type { Align } from './markdown-tree.js';

/** Leading spaces (a tab counts as four). */
export const indentOf = (line: string): number => {
  let n = 0;
  for (const ch of line) {
    if (ch === ' ') n++;
    else if (ch === '\t') n += 4;
    else break;
  }
  return n;
};

export const isBlank = (line: string): boolean => line.trim() === '';

/** A fence (``` or ~~~, three or more) opening a code block: its character, length and info string. */
export const fenceOf = (line: string): { char: string; length: number; info: string } | null => {
  if (indentOf(line) > 3) return null;
  const body = line.trimStart();
  const char = body.charAt(0);
  if (char !== '`' && char !== '~') return null;
  let n = 0;
  while (body.charAt(n) === char) n++;
  if (n < 3) return null;
  const info = body.slice(n).trim();
  if (char === '`' && info.includes('`')) return null;
  return { char, length: n, info };
};

export const closesFence = (line: string, open: { char: string; length: number }): boolean => {
  if (indentOf(line) > 3) return false;
  const body = line.trim();
  if (body.length < open.length) return false;
  for (const ch of body) if (ch !== open.char) return false;
  return true;
};

export const headingOf = (line: string): { level: number; text: string } | null => {
  if (indentOf(line) > 3) return null;
  const body = line.trimStart();
  let n = 0;
  while (n < body.length && body.charAt(n) === '#') n++;
  if (n < 1 || n > 6) return null;
  if (n < body.length && body.charAt(n) !== ' ' && body.charAt(n) !== '\t') return null;
  let text = body.slice(n).trim();
  // an optional closing run of #
  let end = text.length;
  while (end > 0 && text.charAt(end - 1) === '#') end--;
  if (end < text.length && (end === 0 || text.charAt(end - 1) === ' ')) text = text.slice(0, end).trim();
  return { level: n, text };
};

/** `---`, `***` or `___` (three or more, spaces allowed) alone on a line. */
export const isRule = (line: string): boolean => {
  if (indentOf(line) > 3) return false;
  const body = line.trim();
  const char = body.charAt(0);
  if (char !== '-' && char !== '*' && char !== '_') return false;
  let n = 0;
  for (const ch of body) {
    if (ch === char) n++;
    else if (ch !== ' ' && ch !== '\t') return false;
  }
  return n >= 3;
};

/** A list item's marker: `-`, `*`, `+`, or a number with `.` or `)`, then a space. */
export const listMarkerOf = (
  line: string,
): { ordered: boolean; start: number; indent: number; text: string; marker: string } | null => {
  const indent = indentOf(line);
  const body = line.trimStart();
  const first = body.charAt(0);
  if ((first === '-' || first === '*' || first === '+') && (body.charAt(1) === ' ' || body.charAt(1) === '\t')) {
    return { ordered: false, start: 1, indent, text: body.slice(2).trim(), marker: first };
  }
  let n = 0;
  while (n < body.length && n < 9 && body.charCodeAt(n) >= 48 && body.charCodeAt(n) <= 57) n++;
  if (n === 0) return null;
  const delimiter = body.charAt(n);
  if ((delimiter !== '.' && delimiter !== ')') || (body.charAt(n + 1) !== ' ' && body.charAt(n + 1) !== '\t')) {
    return null;
  }
  return { ordered: true, start: Number(body.slice(0, n)), indent, text: body.slice(n + 2).trim(), marker: delimiter };
};

export const isTableRow = (line: string | undefined): line is string =>
  line !== undefined && line.trim().charAt(0) === '|';

/** The cells of a table row; `\|` is a pipe inside a cell. */
export const splitRow = (line: string): string[] => {
  let body = line.trim();
  if (body.charAt(0) === '|') body = body.slice(1);
  if (body.charAt(body.length - 1) === '|' && body.charAt(body.length - 2) !== '\\') body = body.slice(0, -1);
  const cells: string[] = [];
  let cur = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body.charAt(i);
    if (ch === '\\' && body.charAt(i + 1) === '|') {
      cur += '|';
      i++;
    } else if (ch === '|') {
      cells.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  cells.push(cur.trim());
  return cells;
};

/** A table's delimiter row (`|---|:---:|`): each column's alignment, or null when the line is not one. */
export const alignmentsOf = (line: string | undefined): Align[] | null => {
  if (line === undefined || !line.includes('-')) return null;
  const body = line.trim();
  if (!body.includes('|')) return null;
  const cells = splitRow(body);
  const out: Align[] = [];
  for (const cell of cells) {
    const left = cell.charAt(0) === ':';
    const right = cell.length > 1 && cell.charAt(cell.length - 1) === ':';
    const dashes = cell.slice(left ? 1 : 0, right ? -1 : undefined);
    if (dashes.length < 3) return null;
    for (const ch of dashes) if (ch !== '-') return null;
    out.push(left && right ? 'center' : right ? 'right' : left ? 'left' : null);
  }
  return out;
};
