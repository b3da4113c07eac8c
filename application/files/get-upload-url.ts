import { inject, injectable } from 'inversify';
import type { UploadSpecification } from '../../domain/files/transfer.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../domain/shared/fp.js';
import { ItemStore } from '../../ports/item-store.js';
import { described, intRange, NonEmptyString, params, t } from '../runtime/codecs.js';
import { defineTool, type CallContext, type UseCase } from '../runtime/define-tool.js';
import { OVERWRITE_NEEDS, overwriteRefusal } from './overwrite.js';
import { fields } from '../runtime/markdown.js';
import { displayDate, flag, ItemIdParam, size, TYPE_PREFIX } from './files-text.js';
import { UploadResult } from './file-results.js';

export const GetUploadUrlParams = params(
  {
    folder_id: ItemIdParam('Destination folder id, or "home".'),
    file_name: described(NonEmptyString, 'Name of the file to create.'),
  },
  {
    file_size: described(
      intRange(0, Number.MAX_SAFE_INTEGER),
      'Size in bytes: large files get a threaded, resumable upload; oversized ones are refused up front.',
    ),
    batch_id: described(NonEmptyString, 'Groups the files of a multi-file upload.'),
    batch_last: flag('This is the last file of the batch.'),
    can_resume: flag('Resume an unfinished upload of this name.', true),
    start_over: flag('Start a new upload even if an unfinished one exists.', false),
    overwrite: flag(
      `A same-named file gets a new version (otherwise the upload is named "name (1).ext"). ${OVERWRITE_NEEDS}`,
      false,
    ),
    title: described(t.string, 'Display title; defaults to file_name.'),
    details: described(t.string, 'Description of the file.'),
    notify: flag('E-mail when the upload completes.', false),
  },
);
export type GetUploadUrlParams = t.TypeOf<typeof GetUploadUrlParams>;

@injectable()
export class GetUploadUrl implements UseCase<GetUploadUrlParams, UploadSpecification> {
  constructor(@inject(ItemStore) private readonly items: ItemStore) {}
  execute(p: GetUploadUrlParams, context: CallContext): TaskEither<GatewayError, UploadSpecification> {
    const refused = overwriteRefusal(p.overwrite, context, 'files_getUploadUrl');
    if (refused) return TE.left(refused);
    return this.items.uploadLink(p.folder_id.trim(), {
      fileName: p.file_name.trim(),
      ...(p.file_size !== undefined ? { fileSize: p.file_size } : {}),
      ...(p.batch_id ? { batchId: p.batch_id } : {}),
      ...(p.batch_last !== undefined ? { batchLast: p.batch_last } : {}),
      canResume: p.can_resume,
      startOver: p.start_over,
      overwrite: p.overwrite,
      ...(p.title ? { title: p.title } : {}),
      ...(p.details ? { details: p.details } : {}),
      notify: p.notify,
    });
  }
}

export const uploadInstructions = (s: UploadSpecification): string => {
  if (s.Method === 'Standard') {
    return 'Send the whole file in one request: `POST <ChunkUri>` with the raw bytes as the body (or multipart with the field "Filedata"). No Authorization header is needed. The answer names the new file and its id.';
  }
  const chunk = s.ChunkSizeBytes ? ` of about ${size(s.ChunkSizeBytes)}` : '';
  return [
    `Send the file in chunks${chunk}: \`POST <ChunkUri>&index=<n>&byteOffset=<offset>\` with each chunk's raw bytes (index from 0, byteOffset = position of the chunk's first byte), at most ${s.MaxNumberOfThreads} at a time.`,
    s.IsResume
      ? `This resumes an unfinished upload: the first ${s.ResumeOffset} bytes (${s.ResumeIndex} chunks) are already stored, so continue at index ${s.ResumeIndex}, byteOffset ${s.ResumeOffset}.`
      : '',
    'Then `POST <FinishUri>` (optionally with `&filehash=<md5 hex>` to have the bytes checked). No Authorization header is needed.',
  ]
    .filter(Boolean)
    .join(' ');
};

export const getUploadUrlTool = defineTool({
  group: 'files',
  name: 'getUploadUrl',
  title: 'Get upload address',
  description:
    'Prepares an upload into a folder: signed addresses that take the bytes without a token. Small files: POST them to ChunkUri. Large: POST chunks to ChunkUri with &index=N&byteOffset=O (MaxNumberOfThreads at once), then POST FinishUri. An unfinished upload of the same name resumes (IsResume, ResumeOffset) unless start_over.',
  // Write: it opens an upload that adds content (see overwrite.ts for what overwrite needs besides).
  annotations: { kind: 'Write', idempotent: true },
  params: GetUploadUrlParams,
  useCase: GetUploadUrl,
  result: UploadResult,
  json: (s) => ({
    'odata.metadata': 'Files.Api.Models.UploadSpecification',
    'odata.type': `${TYPE_PREFIX}UploadSpecification`,
    Method: s.Method,
    ChunkUri: s.ChunkUri,
    ...(s.FinishUri ? { FinishUri: s.FinishUri } : {}),
    IsResume: s.IsResume,
    ResumeIndex: s.ResumeIndex,
    ResumeOffset: s.ResumeOffset,
    ...(s.ResumeFileHash ? { ResumeFileHash: s.ResumeFileHash } : {}),
    MaxNumberOfThreads: s.MaxNumberOfThreads,
    ...(s.ExpiresAt ? { ExpiresAt: s.ExpiresAt } : {}),
    ...(s.ChunkSizeBytes ? { ChunkSizeBytes: s.ChunkSizeBytes } : {}),
  }),
  text: (s, p) =>
    [
      `## Upload address for "${p.file_name.trim()}" into ${p.folder_id.trim()} (${s.Method}${s.IsResume ? ', resuming' : ''})`,
      fields([
        ['ChunkUri', s.ChunkUri],
        ['FinishUri', s.Method === 'Standard' ? undefined : s.FinishUri],
        ['MaxNumberOfThreads', s.Method === 'Standard' ? undefined : s.MaxNumberOfThreads],
        ['ResumeIndex', s.IsResume ? s.ResumeIndex : undefined],
        ['ResumeOffset', s.IsResume ? s.ResumeOffset : undefined],
        ['ResumeFileHash', s.ResumeFileHash],
        ['Valid until', displayDate(s.ExpiresAt)],
      ]),
      uploadInstructions(s),
    ].join('\n\n'),
});
