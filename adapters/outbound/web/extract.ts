import { Readability } from '@mozilla/readability';
import iconv from 'iconv-lite';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PageKind } from '../../../domain/web/page.js';

// From fetched bytes to text an agent can read: HTML as markdown of its main content (Readability over a
// linkedom DOM, then turndown), PDF as its text (pdfjs-dist), JSON, CSV, markdown, XML and plain text as
// they are, each decoded with the charset the server or the document names.

export interface Extracted {
  readonly kind: PageKind;
  readonly title?: string;
  readonly text: string;
}

const KINDS: readonly [RegExp, PageKind][] = [
  [/^(text\/html|application\/xhtml\+xml)$/, 'html'],
  [/^application\/pdf$/, 'pdf'],
  [/^(application\/json|application\/[\w.+-]+\+json|text\/json)$/, 'json'],
  [/^(text\/csv|application\/csv)$/, 'csv'],
  [/^text\/markdown$/, 'markdown'],
  [/^(text\/xml|application\/xml|application\/[\w.+-]+\+xml)$/, 'xml'],
  [/^text\/plain$/, 'text'],
];

/** The kind of text a media type gives, or undefined for types the gateway does not turn into text. */
export const kindOf = (mediaType: string): PageKind | undefined => KINDS.find(([re]) => re.test(mediaType))?.[1];

/** `text/html; charset=windows-1252` -> `text/html`. */
export const mediaTypeOf = (contentType: string | undefined): string =>
  (contentType ?? '').split(';')[0]!.trim().toLowerCase();

const charsetIn = (contentType: string | undefined): string | undefined =>
  /charset\s*=\s*"?([\w.:-]{1,40})/i.exec(contentType ?? '')?.[1];

/** The charset an HTML document names in its first 2 KB (`<meta charset>` or the http-equiv form). */
const metaCharset = (head: string): string | undefined =>
  /<meta[^>]{0,200}?charset\s*=\s*["']?([\w.:-]{1,40})/i.exec(head)?.[1];

/**
 * Bytes as text in the named charset, else UTF-8. iconv-lite decodes the legacy charsets: Node 20's
 * TextDecoder reads windows-1252 as ISO-8859-1 (so 0x80 is not the euro sign).
 */
export const decodeText = (bytes: Uint8Array, contentType: string | undefined, html: boolean): string => {
  const named =
    charsetIn(contentType) ?? (html ? metaCharset(Buffer.from(bytes.subarray(0, 2048)).toString('latin1')) : undefined);
  const charset = named && iconv.encodingExists(named) ? named : 'utf-8';
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), charset);
};

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button', 'svg', 'canvas']);

/** Runs of blank lines and trailing spaces removed. */
const tidy = (markdown: string): string =>
  markdown
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/** The main content of an HTML document as markdown, without navigation, ads and scripts. */
export const htmlToMarkdown = (html: string): { title?: string; markdown: string } => {
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

type PdfJs = typeof PdfJsModule;
let pdfjs: Promise<PdfJs> | undefined;

/** The text of a PDF, page by page (at most `maxPages`). pdfjs-dist is loaded on first use. */
export const pdfToText = async (bytes: Uint8Array, maxPages = 500): Promise<{ title?: string; text: string }> => {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const { getDocument } = await pdfjs;
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, maxPages); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let line = '';
      const lines: string[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          lines.push(line);
          line = '';
        }
      }
      if (line) lines.push(line);
      pages.push(lines.join('\n').trim());
      page.cleanup();
    }
    const info = (await doc.getMetadata().catch(() => undefined))?.info as { Title?: string } | undefined;
    const more = doc.numPages > maxPages ? `\n\n[${doc.numPages - maxPages} more pages not read]` : '';
    return { title: info?.Title || undefined, text: tidy(pages.join('\n\n')) + more };
  } finally {
    await doc.destroy();
  }
};

/** Bytes of a supported kind as text. */
export const extract = async (
  kind: PageKind,
  bytes: Uint8Array,
  contentType: string | undefined,
): Promise<Extracted> => {
  if (kind === 'pdf') {
    const { title, text } = await pdfToText(bytes);
    return { kind, title, text };
  }
  const text = decodeText(bytes, contentType, kind === 'html');
  if (kind === 'html') {
    const { title, markdown } = htmlToMarkdown(text);
    return { kind, title, text: markdown };
  }
  if (kind === 'json') {
    try {
      return { kind, text: JSON.stringify(JSON.parse(text), null, 2) };
    } catch {
      return { kind, text };
    }
  }
  return { kind, text };
};
