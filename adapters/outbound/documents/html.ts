import { Readability } from '@mozilla/readability';
import { Parser } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { DocumentTooComplex, MAX_HTML_DEPTH, MAX_HTML_ELEMENTS } from './limits.js';

// HTML to markdown of its main content (Readability over a linkedom DOM, then turndown). Runs in a parser
// worker only. Before any DOM is built, one streaming pass of htmlparser2 (the tokenizer linkedom itself
// uses, so both see the same elements) counts elements and nesting depth and refuses a page past either
// bound: Readability's work grows with the cube of the depth (500 nested divs took 3.8 s), so the bound is
// checked on the tokens, in linear time, before it can cost anything.

/** Elements and deepest nesting of an HTML text, stopping as soon as a bound is passed. */
export const htmlStructure = (
  html: string,
  bounds: { readonly elements: number; readonly depth: number } = {
    elements: MAX_HTML_ELEMENTS,
    depth: MAX_HTML_DEPTH,
  },
): { elements: number; depth: number } => {
  let elements = 0;
  let depth = 0;
  let deepest = 0;
  let passed: DocumentTooComplex | undefined;
  const parser = new Parser(
    {
      onopentag() {
        elements++;
        depth++;
        if (depth > deepest) deepest = depth;
        if (passed) return;
        if (depth > bounds.depth)
          passed = new DocumentTooComplex(
            'html_depth',
            `the page nests elements more than ${bounds.depth} deep, past what the gateway reads`,
          );
        else if (elements > bounds.elements)
          passed = new DocumentTooComplex(
            'html_elements',
            `the page has more than ${bounds.elements.toLocaleString('en')} elements, past what the gateway reads`,
          );
        if (passed) parser.pause();
      },
      onclosetag() {
        if (depth > 0) depth--;
      },
    },
    { decodeEntities: false },
  );
  parser.end(html);
  if (passed) throw passed;
  return { elements, depth: deepest };
};

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button', 'svg', 'canvas']);

/** Runs of blank lines and trailing spaces removed. */
export const tidy = (markdown: string): string =>
  markdown
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/** The main content of an HTML document as markdown, without navigation, ads and scripts. */
export const htmlToMarkdown = (html: string): { title?: string; markdown: string } => {
  htmlStructure(html);
  const { document } = parseHTML(html);
  const title = document.querySelector('title')?.textContent?.trim() || undefined;
  // Readability edits the document it reads; it gets its own copy.
  const article = new Readability(parseHTML(html).document as unknown as ConstructorParameters<typeof Readability>[0], {
    keepClasses: false,
  }).parse();
  if (article?.content) {
    return { title: article.title?.trim() || title, markdown: tidy(turndown.turndown(article.content)) };
  }
  // No article found (a short page, a list of links): the body without the page furniture.
  for (const el of document.querySelectorAll('script, style, nav, header, footer, aside, noscript, iframe, form'))
    el.remove();
  const body = document.querySelector('body')?.innerHTML ?? html;
  return { title, markdown: tidy(turndown.turndown(body)) };
};
