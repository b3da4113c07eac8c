// The little Markdown of tool descriptions and text answers, parsed into a tree (no DOM here; markdown.ts
// builds the nodes). Answer text is untrusted and can be long, so every step is a forward scan: no regular
// expression runs over it, each character is looked at a bounded number of times, and a meter counts the
// work and stops a parse that goes past WORK_PER_CHAR steps a character (the page then shows the text as
// it is). Inline: code spans, **strong**, *em* and _em_, [label](http(s) URL), bare http(s) URLs and
// backslash escapes. Blocks: ATX headings, fenced code, tables, bullet and numbered lists, rules and
// paragraphs (each line of a paragraph kept as a line, as the answers are written).

export type Inline =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'strong' | 'em'; readonly children: readonly Inline[] }
  | { readonly kind: 'link'; readonly href: string; readonly children: readonly Inline[] };

export type Align = 'left' | 'center' | 'right' | null;

export type Block =
  | { readonly kind: 'heading'; readonly level: number; readonly content: readonly Inline[] }
  | { readonly kind: 'paragraph'; readonly lines: readonly (readonly Inline[])[] }
  | { readonly kind: 'code'; readonly info: string; readonly text: string }
  | {
      readonly kind: 'table';
      readonly align: readonly Align[];
      readonly head: readonly (readonly Inline[])[];
      readonly rows: readonly (readonly (readonly Inline[])[])[];
    }
  | {
      readonly kind: 'list';
      readonly ordered: boolean;
      readonly start: number;
      /** Each item's lines: the marker's line and the indented lines under it. */
      readonly items: readonly (readonly (readonly Inline[])[])[];
    }
  | { readonly kind: 'rule' };

/** Steps a parse may take per character of input (plus a constant) before it gives up. */
export const WORK_PER_CHAR = 40;
const WORK_BASE = 4096;

/** Counts the parse's steps; past its limit the parse throws WorkLimitExceeded. */
export class Meter {
  steps = 0;
  readonly limit: number;
  constructor(length: number) {
    this.limit = WORK_PER_CHAR * length + WORK_BASE;
  }
  tick(n = 1): void {
    this.steps += n;
    if (this.steps > this.limit) throw new WorkLimitExceeded(this.limit);
  }
}

export class WorkLimitExceeded extends Error {
  constructor(limit: number) {
    super(`Markdown parse stopped after ${limit} steps`);
    this.name = 'WorkLimitExceeded';
  }
}

/** Deepest nesting of emphasis and link brackets; delimiters past it are text. */
const MAX_DEPTH = 16;
const ESCAPABLE = '\\`*_[]()#+-.!|<>{}~"\'';
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
/** Where a bare URL ends (a bracket too: a URL in a link's label ends with the label). */
const URL_STOP = ' \t\n\r\f\v<>"`|[]';
/** Where a link's destination ends. */
const DESTINATION_STOP = URL_STOP + '()';
/** Left off the end of a bare URL: sentence punctuation and closing marks. */
const URL_TRAIL = '.,;:!?)]}\'"*_';

const isSpace = (c: string | undefined): boolean =>
  c === undefined || c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0';
const isPunct = (c: string | undefined): boolean => c !== undefined && PUNCTUATION.includes(c);
const isAlnum = (c: string | undefined): boolean => {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 127;
};

/** The length of `http://` or `https://` at `i` (any case), or 0. */
const schemeAt = (s: string, i: number): number => {
  const lower = s.slice(i, i + 8).toLowerCase();
  if (lower.startsWith('https://')) return 8;
  if (lower.startsWith('http://')) return 7;
  return 0;
};

interface Frame {
  readonly kind: 'root' | 'strong' | 'em' | 'bracket';
  /** The delimiter text that opened it, given back as text when it never closes. */
  readonly opener: string;
  readonly children: Inline[];
  /** Brackets only: false once a link formed inside (a link holds no link). */
  active: boolean;
}

const pushText = (into: Inline[], text: string): void => {
  if (!text) return;
  const last = into[into.length - 1];
  if (last && last.kind === 'text') into[into.length - 1] = { kind: 'text', text: last.text + text };
  else into.push({ kind: 'text', text });
};

const pushAll = (into: Inline[], nodes: readonly Inline[], meter: Meter): void => {
  for (const node of nodes) {
    meter.tick();
    if (node.kind === 'text') pushText(into, node.text);
    else into.push(node);
  }
};

/** A link's label: links in it become their text (a link holds no link). */
const unlinked = (nodes: readonly Inline[], meter: Meter): Inline[] => {
  const out: Inline[] = [];
  for (const node of nodes) {
    meter.tick();
    if (node.kind === 'link') pushAll(out, node.children, meter);
    else if (node.kind === 'text') pushText(out, node.text);
    else out.push(node);
  }
  return out;
};

/** Backtick runs, each with the index of the next run of the same length (its closing run), or -1. */
const backtickRuns = (s: string, meter: Meter): { start: number; length: number; next: number }[] => {
  const runs: { start: number; length: number; next: number }[] = [];
  for (let i = 0; i < s.length;) {
    meter.tick();
    if (s.charAt(i) !== '`') {
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && s.charAt(j) === '`') j++;
    meter.tick(j - i);
    runs.push({ start: i, length: j - i, next: -1 });
    i = j;
  }
  const lastOfLength = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    meter.tick();
    const run = runs[r]!;
    run.next = lastOfLength.get(run.length) ?? -1;
    lastOfLength.set(run.length, r);
  }
  return runs;
};

/** Inline Markdown of one line (or one table cell, or a heading's text). */
export const parseInline = (s: string, meter: Meter = new Meter(s.length)): Inline[] => {
  const runs = backtickRuns(s, meter);
  let run = 0;
  const root: Frame = { kind: 'root', opener: '', children: [], active: true };
  const stack: Frame[] = [root];
  let text = '';
  const top = (): Frame => stack[stack.length - 1]!;
  const flush = (): void => {
    pushText(top().children, text);
    text = '';
  };
  /** Gives the frames above `k` back as text (their openers and what they hold), leaving `k` on top. */
  const unwindTo = (k: number): void => {
    while (stack.length - 1 > k) {
      const frame = stack.pop()!;
      const parent = top().children;
      pushText(parent, frame.opener);
      pushAll(parent, frame.children, meter);
    }
  };
  /** The nearest open frame that `match` accepts, not looking past a bracket (emphasis does not cross one). */
  const nearest = (match: (f: Frame) => boolean, throughBrackets: boolean): number => {
    for (let k = stack.length - 1; k > 0; k--) {
      meter.tick();
      const frame = stack[k]!;
      if (match(frame)) return k;
      if (frame.kind === 'bracket' && !throughBrackets) return -1;
    }
    return -1;
  };

  /** A run of `*` or `_` at `i`: closes what it can, opens with the rest, leaves the rest as text. */
  const delimiters = (i: number): number => {
    const ch = s.charAt(i);
    let j = i;
    while (j < s.length && s.charAt(j) === ch) j++;
    meter.tick(j - i);
    let count = j - i;
    const before = s.charAt(i - 1) || undefined;
    const after = s.charAt(j) || undefined;
    const left = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
    const right = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
    // `_` inside a word (snake_case) neither opens nor closes.
    const canOpen = ch === '*' ? left : left && (!right || isPunct(before)) && !isAlnum(before);
    const canClose = ch === '*' ? right : right && (!left || isPunct(after)) && !isAlnum(after);
    if (canClose) {
      while (count > 0) {
        const k = nearest(
          (f) => f.opener.charAt(0) === ch && (f.kind === 'em' || (f.kind === 'strong' && count >= 2)),
          false,
        );
        if (k < 0) break;
        flush();
        unwindTo(k);
        const frame = stack.pop()!;
        top().children.push({ kind: frame.kind as 'strong' | 'em', children: frame.children });
        count -= frame.opener.length;
      }
    }
    if (canOpen && count > 0) {
      flush();
      while (count > 0 && stack.length < MAX_DEPTH) {
        meter.tick();
        const strong = count >= 2;
        stack.push({ kind: strong ? 'strong' : 'em', opener: strong ? ch + ch : ch, children: [], active: true });
        count -= strong ? 2 : 1;
      }
    }
    text += ch.repeat(count);
    return j;
  };

  /** `](http(s)://...)` after a `]` at `i`: the URL and the index after `)`, or null. */
  const destination = (i: number): { href: string; end: number } | null => {
    if (s.charAt(i + 1) !== '(') return null;
    const start = i + 2;
    const scheme = schemeAt(s, start);
    if (!scheme) return null;
    let j = start + scheme;
    while (j < s.length && !DESTINATION_STOP.includes(s.charAt(j))) {
      meter.tick();
      j++;
    }
    if (s.charAt(j) !== ')' || j === start + scheme) return null;
    return { href: s.slice(start, j), end: j + 1 };
  };

  /** A `]` at `i`: a link when a bracket is open and an http(s) destination follows; text otherwise. */
  const closeBracket = (i: number): number => {
    const k = nearest((f) => f.kind === 'bracket', true);
    if (k < 0) {
      text += ']';
      return i + 1;
    }
    flush();
    const link = stack[k]!.active ? destination(i) : null;
    if (!link) {
      unwindTo(k - 1);
      text += ']';
      return i + 1;
    }
    unwindTo(k);
    const frame = stack.pop()!;
    top().children.push({ kind: 'link', href: link.href, children: unlinked(frame.children, meter) });
    for (const f of stack) if (f.kind === 'bracket') f.active = false;
    return link.end;
  };

  /** A bare http(s) URL at `i`, without the punctuation that ends a sentence. */
  const bareUrl = (i: number): number => {
    const scheme = schemeAt(s, i);
    let j = i + scheme;
    while (j < s.length && !URL_STOP.includes(s.charAt(j))) {
      meter.tick();
      j++;
    }
    while (j > i + scheme && URL_TRAIL.includes(s.charAt(j - 1))) {
      meter.tick();
      j--;
    }
    if (j === i + scheme) {
      text += s.slice(i, j);
      return j;
    }
    flush();
    const href = s.slice(i, j);
    top().children.push({ kind: 'link', href, children: [{ kind: 'text', text: href }] });
    return j;
  };

  let i = 0;
  while (i < s.length) {
    meter.tick();
    const c = s.charAt(i);
    if (c === '\\' && i + 1 < s.length && ESCAPABLE.includes(s.charAt(i + 1))) {
      text += s.charAt(i + 1);
      i += 2;
    } else if (c === '`') {
      while (run < runs.length && runs[run]!.start < i) {
        meter.tick();
        run++;
      }
      const opening = runs[run];
      if (!opening || opening.start !== i) {
        text += c;
        i++;
        continue;
      }
      const closing = opening.next >= 0 ? runs[opening.next] : undefined;
      if (closing) {
        flush();
        top().children.push({ kind: 'code', text: s.slice(i + opening.length, closing.start) });
        i = closing.start + closing.length;
        run = opening.next + 1;
      } else {
        text += s.slice(i, i + opening.length);
        i += opening.length;
        run++;
      }
    } else if (c === '*' || c === '_') {
      i = delimiters(i);
    } else if (c === '[') {
      if (stack.length < MAX_DEPTH) {
        flush();
        stack.push({ kind: 'bracket', opener: '[', children: [], active: true });
      } else text += c;
      i++;
    } else if (c === ']') {
      i = closeBracket(i);
    } else if ((c === 'h' || c === 'H') && !isAlnum(s.charAt(i - 1) || undefined) && schemeAt(s, i)) {
      i = bareUrl(i);
    } else {
      text += c;
      i++;
    }
  }
  flush();
  unwindTo(0);
  return root.children;
};

// ---- blocks ----

/** Leading spaces (a tab counts as four). */
const indentOf = (line: string): number => {
  let n = 0;
  for (const ch of line) {
    if (ch === ' ') n++;
    else if (ch === '\t') n += 4;
    else break;
  }
  return n;
};

const isBlank = (line: string): boolean => line.trim() === '';

/** A fence (``` or ~~~, three or more) opening a code block: its character, length and info string. */
const fenceOf = (line: string): { char: string; length: number; info: string } | null => {
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

const closesFence = (line: string, open: { char: string; length: number }): boolean => {
  if (indentOf(line) > 3) return false;
  const body = line.trim();
  if (body.length < open.length) return false;
  for (const ch of body) if (ch !== open.char) return false;
  return true;
};

const headingOf = (line: string): { level: number; text: string } | null => {
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
const isRule = (line: string): boolean => {
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
const listMarkerOf = (
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

const isTableRow = (line: string | undefined): line is string => line !== undefined && line.trim().charAt(0) === '|';

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
const alignmentsOf = (line: string | undefined): Align[] | null => {
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
