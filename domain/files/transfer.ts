// Upload and download specifications: where the bytes go and come from.

export type UploadMethod = 'Standard' | 'Streamed' | 'Threaded';

export interface UploadRequest {
  readonly fileName: string;
  readonly fileSize?: number;
  readonly batchId?: string;
  readonly batchLast?: boolean;
  readonly canResume: boolean;
  readonly startOver: boolean;
  readonly overwrite: boolean;
  readonly title?: string;
  readonly details?: string;
  readonly notify: boolean;
}

export interface UploadSpecification {
  readonly Method: UploadMethod;
  readonly ChunkUri: string;
  readonly FinishUri?: string;
  readonly PrepareUri?: string;
  readonly IsResume: boolean;
  readonly ResumeIndex: number;
  readonly ResumeOffset: number;
  readonly ResumeFileHash?: string;
  readonly MaxNumberOfThreads: number;
  /** When the addresses stop working (in-memory data plane). */
  readonly ExpiresAt?: string;
  /** The chunk size the gateway suggests for a threaded upload. */
  readonly ChunkSizeBytes?: number;
}

export interface DownloadSpecification {
  readonly DownloadToken?: string;
  readonly DownloadUrl: string;
  readonly ExpiresAt?: string;
  readonly FileName?: string;
  readonly ContentType?: string;
}

/** Files of this size or smaller go up in one POST; larger ones in chunks. */
export const THREADED_THRESHOLD_BYTES = 4 * 1024 * 1024;
export const CHUNK_SIZE_BYTES = 4 * 1024 * 1024;
export const MAX_UPLOAD_THREADS = 4;

export const uploadMethodFor = (
  fileSize: number | undefined,
  thresholdBytes = THREADED_THRESHOLD_BYTES,
): UploadMethod => (fileSize !== undefined && fileSize > thresholdBytes ? 'Threaded' : 'Standard');

export interface ReceivedChunk {
  readonly index: number;
  readonly offset: number;
  readonly length: number;
}

/** The bytes from 0 that arrived without a gap, and how many chunks that is: where a resumed upload starts. */
export const contiguousPrefix = (chunks: readonly ReceivedChunk[]): { index: number; offset: number } => {
  const sorted = [...chunks].sort((a, b) => a.offset - b.offset);
  let offset = 0;
  let index = 0;
  for (const c of sorted) {
    if (c.offset > offset) break;
    if (c.offset + c.length > offset) offset = c.offset + c.length;
    index = Math.max(index, c.index + 1);
  }
  return { index, offset };
};
