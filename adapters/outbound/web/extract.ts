import type { PageKind } from '../../../domain/web/page.js';

// Which fetched bytes the gateway turns into text, by media type. The turning itself (HTML to markdown,
// PDF to text) runs in the parser pool's workers: adapters/outbound/documents/.

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
