// A page read from the web, as text an agent can use, and how a long one is read in parts.

/** What a fetched document was turned into. */
/** `binary`: a type the gateway does not turn into text (an image, an archive); the text is empty. */
export type PageKind = 'html' | 'pdf' | 'json' | 'csv' | 'text' | 'markdown' | 'xml' | 'binary';

export interface WebPage {
  /** The URL the caller asked for. */
  readonly url: string;
  /** The URL that answered, after redirects. */
  readonly finalUrl: string;
  readonly title?: string;
  /** The media type the server named (`text/html`), without parameters. */
  readonly contentType: string;
  readonly kind: PageKind;
  /** Bytes received. */
  readonly bytes: number;
  /** When it was fetched (ISO 8601), and how long it took. */
  readonly fetchedAt: string;
  readonly fetchMs: number;
  /** Markdown for HTML, the text for PDF, the document itself for JSON, CSV and plain text. */
  readonly text: string;
  /** Served from the gateway's short-lived cache (revalidated with the server when it allows). */
  readonly cached: boolean;
}

/** One part of a long text: characters [offset, offset + length), cut at a line break where possible. */
export interface TextPart {
  readonly text: string;
  readonly offset: number;
  /** The offset of the next part, or undefined when this part reaches the end. */
  readonly nextOffset?: number;
  readonly total: number;
}

/**
 * The part of `text` starting at `offset` that fits in `maxChars`, ending at the last line break (or else
 * space) in its second half, so that a reader following `nextOffset` reads every character exactly once.
 */
export const partOf = (text: string, offset: number, maxChars: number): TextPart => {
  const start = Math.min(Math.max(0, offset), text.length);
  if (text.length - start <= maxChars) return { text: text.slice(start), offset: start, total: text.length };
  let end = start + maxChars;
  const window = text.slice(start + Math.floor(maxChars / 2), end);
  const lineBreak = window.lastIndexOf('\n');
  const space = window.lastIndexOf(' ');
  const cut = lineBreak >= 0 ? lineBreak + 1 : space >= 0 ? space + 1 : -1;
  if (cut >= 0) end = start + Math.floor(maxChars / 2) + cut;
  return { text: text.slice(start, end), offset: start, nextOffset: end, total: text.length };
};

/** Host patterns: `example.com` matches it and its subdomains; `*.example.com` only subdomains. */
export const hostMatches = (host: string, pattern: string): boolean => {
  const h = host.toLowerCase().replace(/\.$/, '');
  const p = pattern.toLowerCase().trim().replace(/\.$/, '');
  if (!p) return false;
  if (p.startsWith('*.')) return h.endsWith(p.slice(1));
  return h === p || h.endsWith(`.${p}`);
};

/** Why a host may not be fetched under the allow and deny lists, or undefined when it may. */
export const hostRefusal = (host: string, allow: readonly string[], deny: readonly string[]): string | undefined => {
  if (deny.some((p) => hostMatches(host, p))) return `${host} is on this gateway's deny list (WEB_FETCH_DENY_HOSTS)`;
  if (allow.length && !allow.some((p) => hostMatches(host, p)))
    return `${host} is not on this gateway's allow list (WEB_FETCH_ALLOW_HOSTS)`;
  return undefined;
};
