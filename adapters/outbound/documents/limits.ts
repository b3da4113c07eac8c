// The bounds on reading untrusted documents. Each is checked before or while the work it bounds runs, by
// counting (elements and depth while tokenizing HTML, inflated bytes while inflating), never by trusting
// what the document declares about itself. The worker pool adds time and memory limits around all of it.

/** HTML: elements a page may have, and how deeply they may nest (Readability's cost grows with depth cubed). */
export const MAX_HTML_ELEMENTS = 50_000;
export const MAX_HTML_DEPTH = 128;

/** PDF: pages read (the rest is named, not read) and bytes its compressed streams may inflate to in all. */
export const MAX_PDF_PAGES = 500;
export const MAX_PDF_DECODED_BYTES = 96 * 1024 * 1024;

/** Word (and any later zip-based format): bytes all parts may inflate to, counted while inflating. */
export const MAX_ZIP_UNPACKED_BYTES = 64 * 1024 * 1024;
/** Entries a zip may hold. */
export const MAX_ZIP_ENTRIES = 5_000;

/** CSV: cells read (the rest is cut). */
export const MAX_CSV_CELLS = 200_000;

/**
 * Thrown inside a worker when a document passes a bound; the worker answers it as a refusal (`limit` names
 * the bound) instead of an error, so the caller gets 422 DOCUMENT_TOO_COMPLEX.
 */
export class DocumentTooComplex extends Error {
  constructor(
    readonly limit: string,
    message: string,
  ) {
    super(message);
    this.name = 'DocumentTooComplex';
  }
}

/** A byte count as whole MiB, for messages. */
export const describeBytes = (n: number): string => `${Math.round(n / 1024 / 1024)} MiB`;
