import { inject, injectable } from 'inversify';
import type { Item } from '../../domain/files/item.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../domain/shared/fp.js';
import { FileContents } from '../../ports/file-contents.js';
import { described, NonEmptyString, oneOf, params, stringUpTo, t } from '../runtime/codecs.js';
import { defineTool, type CallContext, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { flag, ItemIdParam, itemJson, itemText } from './files-text.js';
import { OVERWRITE_NEEDS, overwriteRefusal } from './overwrite.js';
import { ItemResult } from './file-results.js';

/** The largest file files_writeFile writes: one Standard upload on ShareFile (larger ones: files_getUploadUrl). */
export const WRITE_MAX_BYTES = 4 * 1024 * 1024;
/** Base64 of WRITE_MAX_BYTES, rounded up. */
const MAX_CONTENT_CHARS = Math.ceil(WRITE_MAX_BYTES / 3) * 4;

export const WriteFileParams = params(
  {
    folder_id: ItemIdParam('Destination folder id, or "home".'),
    file_name: described(NonEmptyString, 'Name of the file, with its extension.'),
    content: described(
      stringUpTo(MAX_CONTENT_CHARS),
      `The file's content: text, or base64 with encoding "base64". At most ${WRITE_MAX_BYTES / 1024 / 1024} MiB.`,
    ),
  },
  {
    encoding: described(oneOf(['text', 'base64']), 'How content is given.', 'text'),
    overwrite: flag(`A same-named file gets a new version (otherwise a numbered name). ${OVERWRITE_NEEDS}`, false),
  },
);
export type WriteFileParams = t.TypeOf<typeof WriteFileParams>;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

@injectable()
export class WriteFile implements UseCase<WriteFileParams, Item> {
  constructor(@inject(FileContents) private readonly files: FileContents) {}

  execute(p: WriteFileParams, context: CallContext): TaskEither<GatewayError, Item> {
    const refused = overwriteRefusal(p.overwrite, context, 'files_writeFile');
    if (refused) return TE.left(refused);
    let bytes: Uint8Array;
    if (p.encoding === 'base64') {
      const compact = p.content.replace(/\s+/g, '');
      if (compact.length % 4 !== 0 || !BASE64.test(compact))
        return TE.left(
          invalidInput('content is not valid base64 (A-Z, a-z, 0-9, +, / and = padding).', 'content', 'base64 text'),
        );
      bytes = Buffer.from(compact, 'base64');
    } else bytes = Buffer.from(p.content, 'utf8');
    if (bytes.byteLength > WRITE_MAX_BYTES)
      return TE.left(
        invalidInput(
          `The content is ${bytes.byteLength} bytes; files_writeFile writes at most ${WRITE_MAX_BYTES}. Nothing was written. Upload larger files with files_getUploadUrl.`,
          'content',
          `at most ${WRITE_MAX_BYTES} bytes`,
        ),
      );
    return this.files.write(p.folder_id.trim(), p.file_name.trim(), bytes, p.overwrite);
  }
}

export const writeFileTool = defineTool({
  group: 'files',
  name: 'writeFile',
  title: 'Write a file',
  description: `Creates a file in a folder from text or base64 content (up to ${WRITE_MAX_BYTES / 1024 / 1024} MiB), or with overwrite a new version of a same-named file. Larger files: files_getUploadUrl.`,
  annotations: { kind: 'Write', idempotent: false },
  params: WriteFileParams,
  useCase: WriteFile,
  result: ItemResult,
  json: (i) => itemJson(i),
  text: (i) => [itemText(i), nextSteps([`Read it back: ${call('files_readFile', { item_id: i.Id })}`])].join('\n'),
});
