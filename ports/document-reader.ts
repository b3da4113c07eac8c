import type { ServiceIdentifier } from 'inversify';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';

/** What a file's bytes say as text: plain text, a table (CSV), or nothing readable (binary, unknown type). */
export type DocumentText =
  | { readonly kind: 'text'; readonly format: string; readonly text: string }
  | {
      readonly kind: 'table';
      readonly format: 'csv';
      readonly header: readonly string[];
      readonly rows: readonly (readonly string[])[];
    }
  | { readonly kind: 'unreadable'; readonly reason: string };

/**
 * Turns a file's bytes into text by its type (name and content type): txt, md, csv, json, html, pdf, docx.
 * Fails with TooComplex when the document passes a reading bound (depth, unpacked size, time, memory) and
 * with Unavailable when every reader is busy; bytes that are simply not text are `unreadable`, not a failure.
 */
export interface DocumentReader {
  /**
   * `deadline` (epoch ms) is when the call's time runs out: reading stops then. `owner` (the caller's tenant)
   * is whom the read counts for: readers shared by many owners give each its share.
   */
  read(
    bytes: Uint8Array,
    fileName: string,
    contentType?: string,
    deadline?: number,
    owner?: string,
  ): TaskEither<GatewayError, DocumentText>;
}

export const DocumentReader = Symbol.for('DocumentReader') as ServiceIdentifier<DocumentReader>;
