import { LRUCache } from 'lru-cache';
import { contiguousPrefix, type UploadMethod } from '../../../domain/files/transfer.js';

// The unfinished uploads of the in-memory files store, and the bytes they hold. Bounded three ways:
// each upload holds at most its limit (overlapping or repeated chunks cannot pile up past it), at most
// MAX_CHUNKS_PER_UPLOAD pieces, and the uploads together at most `maxHeldBytes` and `maxSessions`
// (least recently used ones are dropped first) for at most `ttlMs`.

export const MAX_CHUNKS_PER_UPLOAD = 4096;
export const MAX_UPLOAD_SESSIONS = 1000;

export interface UploadSession {
  readonly id: string;
  readonly folderId: string;
  readonly fileName: string;
  readonly fileSize?: number;
  readonly overwrite: boolean;
  readonly details?: string;
  readonly method: UploadMethod;
  readonly maxThreads: number;
  readonly canResume: boolean;
  /** Chunks by byte offset. */
  readonly chunks: Map<number, { index: number; bytes: Uint8Array }>;
  /** Bytes held in `chunks`. */
  held: number;
  expiresAt: number;
}

export type ChunkVerdict = 'kept' | 'too-large' | 'too-many-chunks';

export interface UploadSessionLimits {
  readonly ttlMs: number;
  readonly maxHeldBytes: number;
  readonly maxSessions?: number;
}

export class UploadSessions {
  private readonly cache: LRUCache<string, UploadSession>;

  constructor(limits: UploadSessionLimits) {
    this.cache = new LRUCache<string, UploadSession>({
      max: limits.maxSessions ?? MAX_UPLOAD_SESSIONS,
      ttl: limits.ttlMs,
      maxSize: limits.maxHeldBytes,
      // Every session counts for at least one unit, so that empty ones are bounded by `max` alone.
      sizeCalculation: (s) => Math.max(1, s.held),
    });
  }

  get(id: string): UploadSession | undefined {
    return this.cache.get(id);
  }

  set(session: UploadSession): void {
    this.cache.set(session.id, session);
  }

  delete(id: string): void {
    this.cache.delete(id);
  }

  /** The first unfinished upload that matches. */
  find(match: (s: UploadSession) => boolean): UploadSession | undefined {
    for (const s of this.cache.values()) if (match(s)) return s;
    return undefined;
  }

  /** Drops the uploads `expired` picks (the store's clock decides, not only the cache's own TTL). */
  sweep(expired: (s: UploadSession) => boolean): void {
    for (const [id, s] of this.cache.entries()) if (expired(s)) this.cache.delete(id);
  }

  /** The whole file of a Standard upload: it replaces whatever was held. */
  putWhole(s: UploadSession, bytes: Uint8Array, limit: number): ChunkVerdict {
    if (bytes.length > limit) return 'too-large';
    s.chunks.clear();
    s.chunks.set(0, { index: 0, bytes });
    s.held = bytes.length;
    this.cache.set(s.id, s);
    return 'kept';
  }

  /**
   * Keeps one chunk of a threaded upload. A chunk replaces the chunks that lie wholly inside its range (a
   * retried or re-cut chunk); it is refused when the bytes held would then pass `limit` or the upload would
   * have too many chunks.
   */
  put(s: UploadSession, offset: number, index: number, bytes: Uint8Array, limit: number): ChunkVerdict {
    const end = offset + bytes.length;
    const covered: number[] = [];
    let freed = 0;
    for (const [at, c] of s.chunks) {
      if (at >= offset && at + c.bytes.length <= end) {
        covered.push(at);
        freed += c.bytes.length;
      }
    }
    if (s.held - freed + bytes.length > limit) return 'too-large';
    if (s.chunks.size - covered.length + 1 > MAX_CHUNKS_PER_UPLOAD) return 'too-many-chunks';
    for (const at of covered) s.chunks.delete(at);
    s.chunks.set(offset, { index, bytes });
    s.held += bytes.length - freed;
    // Re-set so that the cache counts the new size (and drops other uploads if the total is over).
    this.cache.set(s.id, s);
    return 'kept';
  }

  /** Where the bytes from 0 stop being contiguous. */
  prefix(s: UploadSession): { index: number; offset: number } {
    return contiguousPrefix(
      [...s.chunks.entries()].map(([offset, c]) => ({ index: c.index, offset, length: c.bytes.length })),
    );
  }

  /** The first `length` bytes of the upload. */
  assemble(s: UploadSession, length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (const [offset, c] of s.chunks) {
      if (offset >= length) continue;
      out.set(c.bytes.subarray(0, Math.min(c.bytes.length, length - offset)), offset);
    }
    return out;
  }
}
