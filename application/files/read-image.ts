import { inject, injectable } from 'inversify';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { FileContents } from '../../ports/file-contents.js';
import { params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { ItemIdParam } from './files-text.js';

// An image file's bytes for the file view's preview (MCP Apps, issue 43). Not listed to the model: the
// views' app-only tool views_fileImage runs it through the executor (files:read, the caller's connection,
// the rate limit), and the view shows the bytes from a data: URL (its CSP allows img-src data: blob:).

/** The largest image the view previews; a larger one gets its download link instead. */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/** Raster types a browser shows in an <img>, by the file's extension (SVG left out: it is a document). */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
};

export const imageTypeOf = (name: string): string | undefined => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? undefined : IMAGE_TYPES[name.slice(dot + 1).toLowerCase()];
};

export const ReadImageParams = params({ item_id: ItemIdParam('Id of the image file.') }, {});
export type ReadImageParams = t.TypeOf<typeof ReadImageParams>;

export interface ImageBytes {
  readonly itemId: string;
  readonly name: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

@injectable()
export class ReadImage implements UseCase<ReadImageParams, ImageBytes> {
  constructor(@inject(FileContents) private readonly files: FileContents) {}

  execute(p: ReadImageParams): TaskEither<GatewayError, ImageBytes> {
    return pipe(
      this.files.read(p.item_id.trim(), IMAGE_MAX_BYTES),
      TE.chain((file) => {
        const contentType = imageTypeOf(file.item.Name);
        if (!contentType)
          return TE.left<GatewayError, ImageBytes>(
            invalidInput(`${file.item.Name} is not an image the preview shows (png, jpeg, gif, webp, bmp).`, 'item_id'),
          );
        return TE.right({ itemId: file.item.Id, name: file.item.Name, contentType, bytes: file.bytes });
      }),
    );
  }
}

export const readImageTool = defineTool({
  group: 'files',
  name: 'readImage',
  title: 'Read an image (file view)',
  description: `An image file's bytes, base64, at most ${IMAGE_MAX_BYTES / 1024 / 1024} MiB. For the file view only.`,
  annotations: { kind: 'Read', idempotent: true },
  params: ReadImageParams,
  useCase: ReadImage,
  json: (r) => ({
    item_id: r.itemId,
    name: r.name,
    content_type: r.contentType,
    size: r.bytes.length,
    data_base64: Buffer.from(r.bytes).toString('base64'),
  }),
  text: (r) => `${r.name}: ${r.contentType}, ${r.bytes.length} bytes (shown in the file view).`,
});
