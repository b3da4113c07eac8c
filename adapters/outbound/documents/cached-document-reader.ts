import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { GatewayError, TooComplex } from '../../../domain/shared/errors.js';
import { E, type TaskEither } from '../../../domain/shared/fp.js';
import type { DocumentReader, DocumentText } from '../../../ports/document-reader.js';

/** Characters of extracted text kept in all (about twice that in bytes), and for how long. */
export const DEFAULT_TEXT_CACHE = { maxChars: 32_000_000, ttlMs: 10 * 60_000 } as const;

type Known = DocumentText | TooComplex;

const charsOf = (doc: DocumentText): number =>
  doc.kind === 'text'
    ? doc.text.length
    : doc.kind === 'table'
      ? doc.header.join('').length + doc.rows.reduce((n, r) => n + r.join('').length + r.length, 0)
      : doc.reason.length;

/**
 * A DocumentReader that remembers what it extracted, by the bytes' SHA-256 and the type they were read as.
 * files_readFile reads a long document a page at a time and extracts the whole file for each page: without
 * this, paging through a 300-page PDF runs pdf.js 30 times (and a hostile caller can ask for the same
 * heavy file again and again). Keyed by content, so an entry only ever answers someone who already holds
 * the same bytes: no tenant or permission is involved. Bounded by characters and by time.
 */
export class CachedDocumentReader implements DocumentReader {
  readonly #texts: LRUCache<string, Known>;

  constructor(
    private readonly inner: DocumentReader,
    limits: { readonly maxChars: number; readonly ttlMs: number } = DEFAULT_TEXT_CACHE,
  ) {
    this.#texts = new LRUCache<string, Known>({
      maxSize: limits.maxChars,
      sizeCalculation: (known) => Math.max(1, '_tag' in known ? known.message.length : charsOf(known)),
      ttl: limits.ttlMs,
    });
  }

  read(
    bytes: Uint8Array,
    fileName: string,
    contentType?: string,
    deadline?: number,
    owner?: string,
  ): TaskEither<GatewayError, DocumentText> {
    return async () => {
      const extension = /\.([A-Za-z0-9]{1,10})$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
      const key = `${createHash('sha256').update(bytes).digest('base64url')}|${extension}|${contentType ?? ''}`;
      const known = this.#texts.get(key);
      if (known) return '_tag' in known ? E.left(known) : E.right(known);
      const doc = await this.inner.read(bytes, fileName, contentType, deadline, owner)();
      // What was read is kept, and so is a document's own refusal (past a bound, or too slow or too large
      // to read at all), so that asking again for a hostile file does not hold a reader for its whole time
      // limit each time. Not kept: busy readers, and a call whose own time ran out first. An entry larger
      // than the whole cache is not kept (lru-cache refuses it); the answer is the same.
      if (E.isRight(doc)) this.#texts.set(key, doc.right);
      else if (doc.left._tag === 'TooComplex' && doc.left.limit !== 'call_time') this.#texts.set(key, doc.left);
      return doc;
    };
  }

  /** Entries held (for tests). */
  get size(): number {
    return this.#texts.size;
  }
}
