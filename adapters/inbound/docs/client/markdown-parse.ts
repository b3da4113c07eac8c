// The little Markdown of tool descriptions and text answers, parsed into a tree (no DOM here; markdown.ts
// builds the nodes). Answer text is untrusted and can be long, so every step is a forward scan: no regular
// expression runs over it, each character is looked at a bounded number of times, and a meter counts the
// work and stops a parse that goes past WORK_PER_CHAR steps a character (the page then shows the text as
// it is). Inline: code spans, **strong**, *em* and _em_, [label](http(s) URL), bare http(s) URLs and
// backslash escapes. Blocks: ATX headings, fenced code, tables, bullet and numbered lists, rules and
// paragraphs (each line of a paragraph kept as a line, as the answers are written).
// This file walks the lines into blocks and is the parser's entry point; the tree and the meter are in
// markdown-tree.ts, inline parsing in markdown-inline.ts, and what each kind of line is in markdown-lines.ts.
import { parseInline } from './markdown-inline.js';
import {
  alignmentsOf,
  closesFence,
  fenceOf,
  headingOf,
  indentOf,
  isBlank,
  isRule,
  isTableRow,
  listMarkerOf,
  splitRow,
} from './markdown-lines.js';
import { Meter, type Block, type Inline } from './markdown-tree.js';

export { parseInline } from './markdown-inline.js';
export { splitRow } from './markdown-lines.js';
export { Meter, WORK_PER_CHAR, WorkLimitExceeded, type Align, type Block, type Inline } from './markdown-tree.js';

/** Block Markdown: the blocks of `text`, in order. Throws WorkLimitExceeded past the meter's limit. */
export const parseMarkdown = (input: string, meter: Meter = new Meter(input.length)): Block[] => {
  // CRLF and LF line ends; no regular expression over the text.
  const lines = String(input)
    .split('\n')
    .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const blocks: Block[] = [];
  const inline = (s: string): Inline[] => parseInline(s, meter);
  let para: Inline[][] = [];
  const flush = (): void => {
    if (para.length) blocks.push({ kind: 'paragraph', lines: para });
    para = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    meter.tick(line.length + 1);
    if (isBlank(line)) {
      flush();
      continue;
    }
    const fence = fenceOf(line);
    if (fence) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !closesFence(lines[i]!, fence); i++) {
        meter.tick(lines[i]!.length + 1);
        code.push(lines[i]!);
      }
      blocks.push({ kind: 'code', info: fence.info, text: code.join('\n') });
      continue;
    }
    const heading = headingOf(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading.level, content: inline(heading.text) });
      continue;
    }
    const align = isTableRow(line) ? alignmentsOf(lines[i + 1]) : null;
    if (align) {
      flush();
      const head = splitRow(line);
      const rows: Inline[][][] = [];
      for (i += 2; i < lines.length && isTableRow(lines[i]); i++) {
        meter.tick(lines[i]!.length + 1);
        const cells = splitRow(lines[i]!);
        rows.push(head.map((_, k) => inline(cells[k] ?? '')));
      }
      i--;
      blocks.push({ kind: 'table', align: head.map((_, k) => align[k] ?? null), head: head.map(inline), rows });
      continue;
    }
    if (isRule(line)) {
      flush();
      blocks.push({ kind: 'rule' });
      continue;
    }
    const marker = listMarkerOf(line);
    if (marker) {
      flush();
      const items: Inline[][][] = [];
      let item: Inline[][] = [inline(marker.text)];
      for (i++; i < lines.length; i++) {
        const next = lines[i]!;
        meter.tick(next.length + 1);
        if (isBlank(next)) break;
        const m = listMarkerOf(next);
        if (m && m.ordered === marker.ordered && m.marker === marker.marker && m.indent <= marker.indent + 1) {
          items.push(item);
          item = [inline(m.text)];
        } else if (indentOf(next) > marker.indent) {
          // an indented line belongs to the item above it (numbered search results, nested bullets)
          item.push(inline(next.trim()));
        } else break;
      }
      items.push(item);
      i--;
      blocks.push({ kind: 'list', ordered: marker.ordered, start: marker.start, items });
      continue;
    }
    para.push(inline(line));
  }
  flush();
  return blocks;
};
