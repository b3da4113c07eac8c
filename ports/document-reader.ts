import type { ServiceIdentifier } from 'inversify';

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

/** Turns a file's bytes into text by its type (name and content type): txt, md, csv, json, html, pdf, docx. */
export interface DocumentReader {
  read(bytes: Uint8Array, fileName: string, contentType?: string): Promise<DocumentText>;
}

export const DocumentReader = Symbol.for('DocumentReader') as ServiceIdentifier<DocumentReader>;
