import type { ServiceIdentifier } from 'inversify';
import type { TaskEither } from '../domain/shared/fp.js';
import type { Item } from '../domain/files/item.js';
import type { Share } from '../domain/files/share.js';

// The gateway's own data plane (memory mode): what the signed upload and download addresses and the
// public share pages need from the store behind them.

export interface TransferRefusal {
  readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 429;
  readonly code:
    | 'INVALID_PARAMETER'
    | 'UNAUTHORIZED'
    | 'FORBIDDEN'
    | 'NOT_FOUND'
    | 'CONFLICT'
    | 'GONE'
    | 'PAYLOAD_TOO_LARGE'
    | 'RATE_LIMITED';
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface IncomingChunk {
  /** Absent for a Standard upload (one POST of the whole file). */
  readonly index?: number;
  readonly offset?: number;
  readonly bytes: Uint8Array;
  /** The last chunk of a streamed upload may finish it. */
  readonly finish?: boolean;
  readonly fileHash?: string;
}

export type ChunkOutcome =
  | { readonly kind: 'received'; readonly index: number; readonly offset: number; readonly receivedBytes: number }
  | { readonly kind: 'completed'; readonly item: Item; readonly version: number };

export interface FilePayload {
  readonly fileName: string;
  readonly contentType: string;
  readonly entries: readonly { readonly name: string; readonly bytes: Uint8Array; readonly date: Date }[];
  /** True when the entries are to be sent as one zip. */
  readonly zip: boolean;
  readonly md5?: string;
}

export interface UploadSessionState {
  readonly maxThreads: number;
  /**
   * The upload's size limit (its declared size, else the gateway's largest file): no
   * request may carry more, and the bytes held for the upload never pass it.
   */
  readonly limitBytes: number;
}

export interface UploadDesk {
  readonly maxUploadBytes: number;
  /** Whether an upload session exists and accepts bytes, with its thread limit and byte budget. */
  session(uploadId: string): UploadSessionState | undefined;
  receive(uploadId: string, chunk: IncomingChunk): TaskEither<TransferRefusal, ChunkOutcome>;
  /** Drops an upload and the bytes received so far (after an oversized request). */
  discard(uploadId: string): void;
  finish(
    uploadId: string,
    fileHash?: string,
  ): TaskEither<TransferRefusal, { readonly item: Item; readonly version: number }>;
  /** The bytes of one version of a file (`all`: every version, as a zip). */
  read(itemId: string, version: number | 'all'): TaskEither<TransferRefusal, FilePayload>;
}

export interface ShareVisitor {
  /** Set when the visitor sent a valid gateway bearer token (needed by require_login shares). */
  readonly signedIn: boolean;
  readonly name?: string;
  readonly email?: string;
}

export interface ShareListing {
  readonly share: Share;
  readonly files: readonly { readonly item: Item; readonly path: string }[];
}

export interface ShareDesk {
  open(shareId: string, visitor: ShareVisitor): TaskEither<TransferRefusal, ShareListing>;
  download(shareId: string, itemId: string, visitor: ShareVisitor): TaskEither<TransferRefusal, FilePayload>;
  /** The whole share in one download (its direct download address): one file as itself, more as a zip. */
  downloadAll(shareId: string, visitor: ShareVisitor): TaskEither<TransferRefusal, FilePayload>;
  upload(
    shareId: string,
    fileName: string,
    bytes: Uint8Array,
    visitor: ShareVisitor,
  ): TaskEither<TransferRefusal, Item>;
}

export const UploadDesk = Symbol.for('UploadDesk') as ServiceIdentifier<UploadDesk>;
export const ShareDesk = Symbol.for('ShareDesk') as ServiceIdentifier<ShareDesk>;
