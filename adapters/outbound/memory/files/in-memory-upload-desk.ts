import { nameProblem, sameName, isAlias, type Item } from '../../../../domain/files/item.js';
import {
  CHUNK_SIZE_BYTES,
  MAX_UPLOAD_THREADS,
  uploadMethodFor,
  type UploadRequest,
  type UploadSpecification,
} from '../../../../domain/files/transfer.js';
import { invalidInput, type GatewayError } from '../../../../domain/shared/errors.js';
import { E, TE, type Either, type TaskEither } from '../../../../domain/shared/fp.js';
import type { Clock } from '../../../../ports/clock.js';
import type {
  ChunkOutcome,
  IncomingChunk,
  TransferRefusal,
  UploadSessionState,
} from '../../../../ports/file-transfers.js';
import type { LinkSigner } from '../../../../ports/link-signer.js';
import { UploadSessions, type UploadSession } from '../in-memory-upload-sessions.js';
import type { ItemEdits } from './item-edits.js';
import { md5, type ItemTree, type NewId } from './item-tree.js';
import { refuse } from './transfer-refusal.js';

// Uploads into the in-memory tree: the signed chunk and finish addresses (the control plane), then the chunks
// themselves (the data plane, served by adapters/inbound/http/file-transfer-routes.ts), checked, assembled
// and stored as a new file or version.

export interface UploadDeskOptions {
  readonly clock: Clock;
  readonly signer: LinkSigner;
  readonly newId: NewId;
  /** Largest file accepted (bytes). */
  readonly maxUploadBytes: number;
  /** Files larger than this are uploaded Threaded. */
  readonly threadedThresholdBytes: number;
  readonly uploadLinkTtlMs: number;
  /** Most bytes all unfinished uploads may hold together. */
  readonly maxHeldUploadBytes: number;
}

/** The upload half of the UploadDesk port (item-downloads.ts serves the reads). */
export class InMemoryUploadDesk {
  private readonly uploads: UploadSessions;

  constructor(
    private readonly tree: ItemTree,
    private readonly edits: ItemEdits,
    private readonly o: UploadDeskOptions,
  ) {
    this.uploads = new UploadSessions({ ttlMs: 2 * o.uploadLinkTtlMs, maxHeldBytes: o.maxHeldUploadBytes });
  }

  uploadLink(folderId: string, r: UploadRequest): TaskEither<GatewayError, UploadSpecification> {
    const { maxUploadBytes, uploadLinkTtlMs: ttl } = this.o;
    const problem = nameProblem(r.fileName);
    if (problem) return TE.left(invalidInput(`${problem} Choose another file name.`, 'file_name', 'file name'));
    if (isAlias(folderId) && folderId !== 'home') {
      return TE.left(
        invalidInput(
          `Files cannot be uploaded to "${folderId}". Use "home" or a folder id.`,
          'folder_id',
          'folder id or "home"',
        ),
      );
    }
    const folder = this.tree.liveFolder(folderId, 'folder_id');
    if (E.isLeft(folder)) return TE.left(folder.left);
    if (r.fileSize !== undefined && r.fileSize > maxUploadBytes) {
      return TE.left(
        invalidInput(
          `The file is ${r.fileSize} bytes; this gateway accepts files up to ${maxUploadBytes} bytes. Nothing was uploaded.`,
          'file_size',
          `at most ${maxUploadBytes}`,
          {
            limit_bytes: maxUploadBytes,
          },
        ),
      );
    }
    const now = this.o.clock.now().getTime();
    this.uploads.sweep((s) => s.expiresAt < now - ttl);
    const pending = this.uploads.find((s) => s.folderId === folder.right.id && sameName(s.fileName, r.fileName));
    if (pending && (r.startOver || !r.canResume || !pending.canResume)) this.uploads.delete(pending.id);
    const resumable =
      pending &&
      !r.startOver &&
      r.canResume &&
      pending.canResume &&
      (r.fileSize === undefined || pending.fileSize === undefined || r.fileSize === pending.fileSize)
        ? pending
        : undefined;
    const method = uploadMethodFor(r.fileSize, this.o.threadedThresholdBytes);
    const session: UploadSession = resumable ?? {
      id: this.o.newId('up'),
      folderId: folder.right.id,
      fileName: r.fileName.trim(),
      fileSize: r.fileSize,
      overwrite: r.overwrite,
      details: r.details,
      method,
      maxThreads: method === 'Threaded' ? MAX_UPLOAD_THREADS : 1,
      canResume: r.canResume,
      chunks: new Map(),
      held: 0,
      expiresAt: 0,
    };
    session.expiresAt = now + ttl;
    this.uploads.set(session);
    const expires = new Date(session.expiresAt);
    const prefix = this.uploads.prefix(session);
    const received = resumable ? this.uploads.assemble(session, prefix.offset) : undefined;
    return TE.right({
      Method: session.method,
      ChunkUri: this.o.signer.sign(`/files/transfer/upload/${session.id}/chunk`, expires),
      FinishUri: this.o.signer.sign(`/files/transfer/upload/${session.id}/finish`, expires),
      IsResume: !!resumable && prefix.offset > 0,
      ResumeIndex: resumable ? prefix.index : 0,
      ResumeOffset: resumable ? prefix.offset : 0,
      ...(received && prefix.offset > 0 ? { ResumeFileHash: md5(received) } : {}),
      MaxNumberOfThreads: session.maxThreads,
      ExpiresAt: expires.toISOString(),
      ...(session.method === 'Threaded' ? { ChunkSizeBytes: CHUNK_SIZE_BYTES } : {}),
    });
  }

  session(uploadId: string): UploadSessionState | undefined {
    const s = this.uploads.get(uploadId);
    return s ? { maxThreads: s.maxThreads, limitBytes: this.limitOf(s) } : undefined;
  }

  discard(uploadId: string): void {
    this.uploads.delete(uploadId);
  }

  receive(uploadId: string, chunk: IncomingChunk): TaskEither<TransferRefusal, ChunkOutcome> {
    const opened = this.openSession(uploadId);
    if (E.isLeft(opened)) return TE.left(opened.left);
    const s = opened.right;
    if (chunk.index === undefined && chunk.offset === undefined) {
      // Standard: the body is the whole file.
      if (this.uploads.putWhole(s, chunk.bytes, this.limitOf(s)) !== 'kept')
        return TE.left(this.tooLarge(s, chunk.bytes.length));
      return TE.fromEither<TransferRefusal, ChunkOutcome>(this.complete(s, chunk.bytes.length, chunk.fileHash));
    }
    const index = chunk.index ?? 0;
    const offset = chunk.offset;
    if (
      offset === undefined ||
      !Number.isSafeInteger(offset) ||
      offset < 0 ||
      !Number.isSafeInteger(index) ||
      index < 0
    ) {
      return TE.left(
        refuse(
          400,
          'INVALID_PARAMETER',
          'A chunk needs a whole-number "index" and "byteOffset" in the query string (for example ?index=1&byteOffset=4194304).',
          { parameter: 'byteOffset' },
        ),
      );
    }
    const end = offset + chunk.bytes.length;
    if (end > this.o.maxUploadBytes) return TE.left(this.tooLarge(s, end));
    if (s.fileSize !== undefined && end > s.fileSize) {
      return TE.left(
        refuse(
          400,
          'INVALID_PARAMETER',
          `This chunk ends at byte ${end}, past the declared file size of ${s.fileSize} bytes. Check byteOffset, or ask files_getUploadUrl again with the right file_size.`,
          { parameter: 'byteOffset' },
        ),
      );
    }
    const kept = this.uploads.put(s, offset, index, chunk.bytes, this.limitOf(s));
    if (kept === 'too-large') return TE.left(this.tooLarge(s, s.held + chunk.bytes.length));
    if (kept === 'too-many-chunks') {
      return TE.left(
        refuse(
          400,
          'INVALID_PARAMETER',
          `This upload already has ${s.chunks.size} chunks, the most one upload may have. Send larger chunks (about ${CHUNK_SIZE_BYTES} bytes each).`,
          { parameter: 'index' },
        ),
      );
    }
    if (chunk.finish) return TE.fromEither<TransferRefusal, ChunkOutcome>(this.complete(s, undefined, chunk.fileHash));
    return TE.right({ kind: 'received', index, offset, receivedBytes: s.held });
  }

  finish(uploadId: string, fileHash?: string): TaskEither<TransferRefusal, { item: Item; version: number }> {
    const opened = this.openSession(uploadId);
    if (E.isLeft(opened)) return TE.left(opened.left);
    const done = this.complete(opened.right, undefined, fileHash);
    return TE.fromEither(E.isLeft(done) ? done : E.right({ item: done.right.item, version: done.right.version }));
  }

  /** The most bytes an upload may hold: its declared size, else the largest file. */
  private limitOf(s: UploadSession): number {
    const max = this.o.maxUploadBytes;
    return s.fileSize !== undefined ? Math.min(s.fileSize, max) : max;
  }

  private openSession(uploadId: string): Either<TransferRefusal, UploadSession> {
    const s = this.uploads.get(uploadId);
    if (!s)
      return E.left(
        refuse(
          404,
          'NOT_FOUND',
          'This upload is finished, was abandoned or never existed. Ask files_getUploadUrl for a new upload address.',
        ),
      );
    const folder = this.tree.nodes.get(s.folderId);
    if (!folder || this.tree.isGone(folder)) {
      this.uploads.delete(uploadId);
      return E.left(
        refuse(
          404,
          'NOT_FOUND',
          'The destination folder of this upload no longer exists (it may be in the recycle bin). Nothing was stored.',
        ),
      );
    }
    return E.right(s);
  }

  private tooLarge(s: UploadSession, size: number): TransferRefusal {
    this.uploads.delete(s.id);
    const limit = this.limitOf(s);
    const which =
      limit < this.o.maxUploadBytes
        ? `this upload was declared as ${limit} bytes`
        : `this gateway accepts files up to ${limit} bytes`;
    return refuse(
      413,
      'PAYLOAD_TOO_LARGE',
      `The upload reached ${size} bytes; ${which}. The upload was discarded and nothing was stored.`,
      { limit_bytes: limit },
    );
  }

  private complete(
    s: UploadSession,
    standardLength: number | undefined,
    fileHash?: string,
  ): Either<TransferRefusal, ChunkOutcome & { kind: 'completed' }> {
    const prefix = this.uploads.prefix(s);
    let last = 0;
    for (const [offset, c] of s.chunks) last = Math.max(last, offset + c.bytes.length);
    const total = standardLength ?? last;
    if (prefix.offset < total) {
      return E.left(
        refuse(
          400,
          'INVALID_PARAMETER',
          `Bytes ${prefix.offset} to ${total} have gaps: send the missing chunks (resume at index ${prefix.index}, byteOffset ${prefix.offset}) and finish again.`,
          {
            resume_index: prefix.index,
            resume_offset: prefix.offset,
          },
        ),
      );
    }
    if (s.fileSize !== undefined && s.method === 'Threaded' && total !== s.fileSize) {
      return E.left(
        refuse(
          400,
          'INVALID_PARAMETER',
          `Received ${total} of the ${s.fileSize} bytes declared. Send the remaining chunks from byteOffset ${total}, then finish again.`,
          {
            resume_index: prefix.index,
            resume_offset: total,
          },
        ),
      );
    }
    const bytes = this.uploads.assemble(s, total);
    if (fileHash && fileHash.toLowerCase() !== md5(bytes)) {
      return E.left(
        refuse(
          400,
          'INVALID_PARAMETER',
          `The file hash ${fileHash} does not match the MD5 of the bytes received (${md5(bytes)}). Resend the chunks that changed, or start over.`,
          { parameter: 'filehash' },
        ),
      );
    }
    const added = this.edits.addFile(s.folderId, s.fileName, bytes, { overwrite: s.overwrite, description: s.details });
    if (E.isLeft(added)) return E.left(refuse(409, 'CONFLICT', added.left.message));
    this.uploads.delete(s.id);
    return E.right({ kind: 'completed', item: added.right.item, version: added.right.version });
  }
}
