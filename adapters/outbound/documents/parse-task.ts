import type { MessagePort } from 'node:worker_threads';
import type { PageKind } from '../../../domain/web/page.js';
import type { DocumentText } from '../../../ports/document-reader.js';

// What the main thread asks of a parser worker and what it answers: plain data, copied between threads.

export type ParseTask =
  /** Loads every document library in the worker (a warm-up: nothing asks for it by default). */
  | { readonly op: 'warm' }
  | {
      readonly op: 'page';
      readonly kind: PageKind;
      readonly bytes: Uint8Array;
      readonly contentType?: string;
    }
  | {
      readonly op: 'file';
      readonly bytes: Uint8Array;
      readonly fileName: string;
      readonly contentType?: string;
    };

/**
 * Added to every task by the pool: the worker posts one message on it when it begins the task, once the
 * libraries the task needs are loaded; the document's time limit counts from then.
 */
export interface Started {
  readonly started?: MessagePort;
}

export interface PageText {
  readonly kind: PageKind;
  readonly title?: string;
  readonly text: string;
}

export type ParseOutcome<T> =
  | { readonly ok: true; readonly value: T }
  /** A reading bound was passed (`limit` names it). */
  | { readonly ok: false; readonly limit: string; readonly message: string }
  /** The bytes are not what their type says (a damaged PDF, HTML that is not HTML). */
  | { readonly ok: false; readonly limit?: undefined; readonly message: string };

/** What the pool hands back once bounds are handled: the text, or why the bytes are not their type. */
export type ParseRead<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

export type ResultOf<T extends ParseTask> = T extends { op: 'page' }
  ? PageText
  : T extends { op: 'warm' }
    ? true
    : DocumentText;
