// Small helpers for the text a model reads: compact markdown, no nulls, every handle visible.

const escapeCell = (v: string): string =>
  v.includes('|') || v.includes('\n') ? v.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ') : v;

const cell = (v: string | number | undefined | null): string =>
  v === undefined || v === null ? '' : escapeCell(String(v));

/** A markdown table; empty cells for missing values. */
export const table = (
  headers: readonly string[],
  rows: readonly (readonly (string | number | undefined | null)[])[],
): string => {
  let out = '|';
  let rule = '|';
  for (const h of headers) {
    out += ` ${escapeCell(h)} |`;
    rule += '---|';
  }
  out += `\n${rule}`;
  for (const r of rows) {
    out += '\n|';
    for (let i = 0; i < headers.length; i++) out += ` ${cell(r[i])} |`;
  }
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
