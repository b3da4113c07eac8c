import { inject, injectable } from 'inversify';
import type { FileValue } from '../../domain/records/values.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { E, type TaskEither } from '../../domain/shared/fp.js';
import { RecordStore } from '../../ports/record-store.js';
import { UrlFetcher } from '../../ports/url-fetcher.js';
import { described, NonEmptyString, object, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { table } from '../runtime/markdown.js';
import { storeAll, type FileSource } from './attachments.js';
import { UploadedFilesResult } from './record-results.js';

const FileCodec = object(
  'UploadFile',
  {},
  {
    url: described(NonEmptyString, 'A public http(s) address to fetch it from.'),
    content_base64: described(NonEmptyString, 'The file content, base64-encoded (instead of url).'),
    name: described(NonEmptyString, 'File name (default: the last part of the URL).'),
    mimetype: described(NonEmptyString, 'MIME type (default: from the download).'),
  },
);

export const UploadFilesParams = params(
  { files: described(t.array(FileCodec), 'Files to upload, each {url} or {content_base64, name}. At most 10.') },
  {},
);
export type UploadFilesParams = t.TypeOf<typeof UploadFilesParams>;

@injectable()
export class UploadFiles implements UseCase<UploadFilesParams, readonly FileValue[]> {
  constructor(
    @inject(RecordStore) private readonly store: RecordStore,
    @inject(UrlFetcher) private readonly fetcher: UrlFetcher,
  ) {}

  /** Checks every entry before fetching or storing anything; a failure later removes the files this call stored. */
  execute(p: UploadFilesParams): TaskEither<GatewayError, readonly FileValue[]> {
    return async () => {
      if (p.files.length === 0 || p.files.length > 10)
        return E.left(invalidInput('Give 1 to 10 files.', 'files', 'array of 1 to 10 files'));
      const sources: FileSource[] = [];
      for (const [i, f] of p.files.entries()) {
        const at = `files[${i}]`;
        if ((f.url === undefined) === (f.content_base64 === undefined))
          return E.left(
            invalidInput(`${at}: give either url or content_base64.`, at, '{url} or {content_base64, name}'),
          );
        if (f.url !== undefined) {
          sources.push({ url: f.url, parameter: `${at}.url`, name: f.name, mimetype: f.mimetype });
          continue;
        }
        const base64 = f.content_base64 as string;
        if (!f.name)
          return E.left(invalidInput(`${at}: name is required with content_base64.`, `${at}.name`, 'file name'));
        if (!/^[A-Za-z0-9+/=\s]+$/.test(base64))
          return E.left(invalidInput(`${at}: content_base64 is not base64.`, `${at}.content_base64`, 'base64 text'));
        sources.push({
          file: {
            name: f.name,
            mimetype: f.mimetype ?? 'application/octet-stream',
            content: Buffer.from(base64, 'base64'),
          },
        });
      }
      return storeAll(this.store, this.fetcher, sources);
    };
  }
}

export const uploadFilesTool = defineTool({
  group: 'records',
  name: 'uploadFiles',
  title: 'Upload files',
  description:
    'Uploads files from public URLs or base64 content and returns file ids for attachment fields and for records_createRecordComment (attachment fields also take URLs).',
  annotations: { kind: 'Write', idempotent: false },
  params: UploadFilesParams,
  useCase: UploadFiles,
  result: UploadedFilesResult,
  json: (files) => ({ files }),
  text: (files) =>
    [
      `## Uploaded ${files.length} file${files.length === 1 ? '' : 's'}`,
      table(
        ['file_id', 'name', 'mimetype', 'size'],
        files.map((f) => [f.file_id, f.name, f.mimetype, f.size]),
      ),
    ].join('\n\n'),
});
