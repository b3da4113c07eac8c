// Inline Markdown (one line, one table cell or a heading's text) parsed into a tree in one forward scan:
// code spans, **strong**, *em* and _em_, [label](http(s) URL), bare http(s) URLs and backslash escapes.
// No regular expression runs over the text, and every step ticks the meter.
import { Meter, type Inline } from './markdown-tree.js';

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
