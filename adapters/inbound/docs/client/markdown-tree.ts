// The tree markdown.ts builds DOM nodes from: the few kinds of block and inline the page shows, made by
// markdown-parse.ts from the CommonMark syntax tree (mdast).

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
      /** Each item's lines: its paragraphs' lines, and a nested list's items as lines with their marker. */
      readonly items: readonly (readonly (readonly Inline[])[])[];
    }
  | { readonly kind: 'rule' };

/**
 * The longest text parsed as Markdown. Answers are cut to the output budget (12,000 characters unless
 * configured) before they reach the page; a longer text, or one whose nesting is too deep for the parser,
 * is shown as it is, so a hostile answer cannot keep the page's script busy for long.
 */
export const MAX_MARKDOWN_CHARS = 16_000;

/** Nesting past this depth (emphasis in emphasis, lists in lists) is shown as its source text. */
export const MAX_DEPTH = 24;

export class TooLargeToParse extends Error {
  constructor(reason: string) {
    super(`Markdown shown as text: ${reason}`);
    this.name = 'TooLargeToParse';
  }
}
