// The Markdown of tool descriptions and text answers, parsed as the clients parse it: CommonMark with GFM
// tables and bare http(s)/www links, by mdast-util-from-markdown (micromark), then reduced to the page's
// small tree (markdown-tree.ts). No DOM here; markdown.ts builds the nodes. Only http(s) links stay links;
// any other link, an image, a reference and raw HTML are kept as the text they were written as. A text past
// MAX_MARKDOWN_CHARS, or nested too deep for the parser, throws TooLargeToParse (the page then shows it as
// it is).
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmTable } from 'micromark-extension-gfm-table';
import { MAX_DEPTH, MAX_MARKDOWN_CHARS, TooLargeToParse, type Block, type Inline } from './markdown-tree.js';

export {
  MAX_DEPTH,
  MAX_MARKDOWN_CHARS,
  TooLargeToParse,
  type Align,
  type Block,
  type Inline,
} from './markdown-tree.js';

const WEB_LINK = /^https?:\/\//i;
/** A bare (literal) http(s) link whose address holds a quote: written as is, not in <...> or [...](...). */
const bareWithQuote = (url: string, source: string): boolean =>
  source === url && WEB_LINK.test(url) && /["']/.test(url);

// The mdast types, through the parser's own signature (the `mdast` types package is not imported by name).
type Root = ReturnType<typeof fromMarkdown>;
type RootContent = Root['children'][number];
type PhrasingContent = Extract<RootContent, { type: 'paragraph' }>['children'][number];
/** Any node: only its place in the source is read. */
type Nodes = Pick<RootContent, 'position'>;

/** Container markers (quote, bullet, number) that may open on one line; micromark's work grows with their square. */
const MAX_CONTAINERS_PER_LINE = 8;

/** The most quote and list markers any one line opens with, counted in one forward scan. */
const deepestLine = (input: string): number => {
  let deepest = 0;
  let count = 0;
  let atStart = true;
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === '\n') {
      count = 0;
      atStart = true;
    } else if (!atStart || c === ' ' || c === '\t' || c === '\r') {
      continue;
    } else if (c === '>') {
      deepest = Math.max(deepest, ++count);
    } else if ((c === '-' || c === '*' || c === '+') && (i + 1 === input.length || ' \t\r\n'.includes(input[i + 1]!))) {
      deepest = Math.max(deepest, ++count);
    } else if (c >= '0' && c <= '9') {
      let j = i;
      while (j < input.length && j - i < 9 && input[j]! >= '0' && input[j]! <= '9') j++;
      if ((input[j] === '.' || input[j] === ')') && (j + 1 === input.length || ' \t\r\n'.includes(input[j + 1]!))) {
        deepest = Math.max(deepest, ++count);
        i = j;
      } else atStart = false;
    } else atStart = false;
  }
  return deepest;
};

const syntaxTree = (input: string): Root => {
  if (input.length > MAX_MARKDOWN_CHARS) throw new TooLargeToParse(`${input.length} characters`);
  if (deepestLine(input) > MAX_CONTAINERS_PER_LINE) throw new TooLargeToParse('nested too deep');
  try {
    return fromMarkdown(input, {
      extensions: [gfmTable(), gfmAutolinkLiteral()],
      mdastExtensions: [gfmTableFromMarkdown(), gfmAutolinkLiteralFromMarkdown()],
    });
  } catch (error) {
    // Thousands of nested quotes or list markers overflow micromark's stack.
    if (error instanceof RangeError) throw new TooLargeToParse('nested too deep');
    throw error;
  }
};

/** What one text is made of, with the source text for the nodes the page shows as written. */
class Reader {
  constructor(private readonly source: string) {}

  /** The node as it was written. */
  sourceOf(node: Nodes): string {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    return start === undefined || end === undefined ? '' : this.source.slice(start, end);
  }

  inlines(nodes: readonly PhrasingContent[], depth: number, inLink = false): Inline[] {
    const out: Inline[] = [];
    const text = (t: string): void => {
      if (!t) return;
      const last = out[out.length - 1];
      if (last?.kind === 'text') out[out.length - 1] = { kind: 'text', text: last.text + t };
      else out.push({ kind: 'text', text: t });
    };
    for (const node of nodes) {
      if (depth > MAX_DEPTH) {
        text(this.sourceOf(node));
        continue;
      }
      switch (node.type) {
        case 'text':
          text(node.value);
          break;
        case 'break':
          text('\n');
          break;
        case 'inlineCode':
          out.push({ kind: 'code', text: node.value });
          break;
        case 'strong':
        case 'emphasis':
          out.push({
            kind: node.type === 'strong' ? 'strong' : 'em',
            children: this.inlines(node.children, depth + 1, inLink),
          });
          break;
        case 'link':
          // A link holds no link: one inside a label is its text.
          if (inLink) for (const n of this.inlines(node.children, depth + 1, true)) pushInline(out, n);
          else if (bareWithQuote(node.url, this.sourceOf(node))) {
            // A bare link runs to the next space in GFM, but a quote cannot be part of an address (RFC 3986): an
            // answer's `web_fetch {"url":"https://..."}` links the address and keeps `"}` as text.
            const end = node.url.search(/["']/);
            out.push({
              kind: 'link',
              href: node.url.slice(0, end),
              children: [{ kind: 'text', text: node.url.slice(0, end) }],
            });
            text(this.sourceOf(node).slice(end));
          } else if (WEB_LINK.test(node.url))
            out.push({ kind: 'link', href: node.url, children: this.inlines(node.children, depth + 1, true) });
          else text(this.sourceOf(node));
          break;
        default:
          // html, image, linkReference, imageReference...: as written.
          text(this.sourceOf(node));
      }
    }
    return out;
  }

  /** A paragraph's inlines split at its line ends (answers are written line by line). */
  lines(nodes: readonly PhrasingContent[], depth: number): Inline[][] {
    const lines: Inline[][] = [[]];
    for (const node of this.inlines(nodes, depth)) {
      if (node.kind !== 'text' || !node.text.includes('\n')) {
        lines[lines.length - 1]!.push(node);
        continue;
      }
      node.text.split(/\r\n|\r|\n/).forEach((part, i) => {
        if (i) lines.push([]);
        if (part) lines[lines.length - 1]!.push({ kind: 'text', text: part });
      });
    }
    return lines.filter((line, i) => line.length > 0 || i < lines.length - 1);
  }

  /** A list item's content as lines: paragraphs' lines, code as code, a nested list's items with markers. */
  itemLines(children: readonly RootContent[], depth: number): Inline[][] {
    const out: Inline[][] = [];
    for (const child of children) {
      if (child.type === 'paragraph' || child.type === 'heading') out.push(...this.lines(child.children, depth + 1));
      else if (child.type === 'list' && depth < MAX_DEPTH)
        child.children.forEach((item, k) => {
          const marker = child.ordered ? `${(child.start ?? 1) + k}. ` : '- ';
          const [first = [], ...rest] = this.itemLines(item.children, depth + 1);
          const line: Inline[] = [{ kind: 'text', text: marker }];
          for (const node of first) pushInline(line, node);
          out.push(line, ...rest);
        });
      else if (child.type === 'code') out.push([{ kind: 'code', text: child.value }]);
      else
        out.push(
          ...this.sourceOf(child)
            .split(/\r\n|\r|\n/)
            .map((l): Inline[] => [{ kind: 'text', text: l.trim() }]),
        );
    }
    return out;
  }

  blocks(children: readonly RootContent[], depth = 0): Block[] {
    const out: Block[] = [];
    for (const node of children) {
      switch (node.type) {
        case 'heading':
          out.push({ kind: 'heading', level: node.depth, content: this.inlines(node.children, depth) });
          break;
        case 'paragraph':
          out.push({ kind: 'paragraph', lines: this.lines(node.children, depth) });
          break;
        case 'code':
          out.push({ kind: 'code', info: [node.lang, node.meta].filter(Boolean).join(' '), text: node.value });
          break;
        case 'thematicBreak':
          out.push({ kind: 'rule' });
          break;
        case 'list':
          out.push({
            kind: 'list',
            ordered: node.ordered === true,
            start: node.start ?? 1,
            items: node.children.map((item) => this.itemLines(item.children, depth + 1)),
          });
          break;
        case 'table': {
          const [head, ...rows] = node.children;
          const width = head?.children.length ?? 0;
          const cells = (row: (typeof rows)[number]): Inline[][] =>
            Array.from({ length: width }, (_, k) => this.inlines(row.children[k]?.children ?? [], depth));
          out.push({
            kind: 'table',
            align: Array.from({ length: width }, (_, k) => node.align?.[k] ?? null),
            head: head ? cells(head) : [],
            rows: rows.map(cells),
          });
          break;
        }
        case 'blockquote':
          // The page has no quote style: a quote's blocks are shown in its place.
          if (depth < MAX_DEPTH) out.push(...this.blocks(node.children, depth + 1));
          else out.push(this.asWritten(node));
          break;
        case 'definition':
          // A link reference definition shows nothing, as in every CommonMark renderer.
          break;
        default:
          // html and anything else: as written.
          out.push(this.asWritten(node));
      }
    }
    return out;
  }

  asWritten(node: Nodes): Block {
    return {
      kind: 'paragraph',
      lines: this.sourceOf(node)
        .split(/\r\n|\r|\n/)
        .map((l): Inline[] => (l ? [{ kind: 'text', text: l }] : [])),
    };
  }
}

const pushInline = (into: Inline[], node: Inline): void => {
  const last = into[into.length - 1];
  if (node.kind === 'text' && last?.kind === 'text')
    into[into.length - 1] = { kind: 'text', text: last.text + node.text };
  else into.push(node);
};

/** Block Markdown: the blocks of `input`, in order. Throws TooLargeToParse (see MAX_MARKDOWN_CHARS). */
export const parseMarkdown = (input: string): Block[] => {
  const text = String(input);
  return new Reader(text).blocks(syntaxTree(text).children);
};

/**
 * Inline Markdown (a description, an error message): the inline content of its paragraphs and headings,
 * one after another; any other block is kept as written. Throws TooLargeToParse.
 */
export const parseInline = (input: string): Inline[] => {
  const text = String(input);
  const reader = new Reader(text);
  const out: Inline[] = [];
  syntaxTree(text).children.forEach((node, i) => {
    if (i) pushInline(out, { kind: 'text', text: '\n' });
    const parts =
      node.type === 'paragraph' || node.type === 'heading'
        ? reader.inlines(node.children, 0)
        : [{ kind: 'text', text: reader.sourceOf(node) } as const];
    for (const part of parts) pushInline(out, part);
  });
  return out;
};
