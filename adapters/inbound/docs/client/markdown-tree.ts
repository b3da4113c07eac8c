// The Markdown parser's tree (what markdown-parse.ts gives markdown.ts to build nodes from) and its work
// meter: every step of a parse ticks the meter, which stops a parse past WORK_PER_CHAR steps a character.

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
