import { inject, injectable } from 'inversify';
import type { Item } from '../../domain/files/item.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { DocumentReader } from '../../ports/document-reader.js';
import { FileContents } from '../../ports/file-contents.js';
import { ItemStore } from '../../ports/item-store.js';
import { described, intRange, params, t } from '../runtime/codecs.js';
import { defineTool, type CallContext, type UseCase } from '../runtime/define-tool.js';
import { call, table } from '../runtime/markdown.js';
import { ItemIdParam } from './files-text.js';
import { FileTextResult } from './file-results.js';

/** The largest file files_readFile reads (its text is then paged). */
export const READ_MAX_BYTES = 20 * 1024 * 1024;
const DEFAULT_CHARS = 8_000;

export const ReadFileParams = params(
  { item_id: ItemIdParam('Id of the file.') },
  {
    offset: described(
      intRange(0, 50_000_000),
      'Character offset to read from: the next_offset of the previous page.',
      0,
    ),
    max_chars: described(intRange(500, 10_000), 'Characters per page.', DEFAULT_CHARS),
  },
);
export type ReadFileParams = t.TypeOf<typeof ReadFileParams>;

export type ReadFileResult =
  | {
      readonly kind: 'text';
      readonly item: Item;
      readonly format: string;
      readonly text: string;
      readonly offset: number;
      readonly totalChars: number;
      readonly nextOffset?: number;
    }
  | { readonly kind: 'unreadable'; readonly item: Item; readonly reason: string; readonly downloadUrl?: string };

/**
 * One page of a file's text. The whole text is made each time (files are at most READ_MAX_BYTES) and cut at
 * a line break, so a page never splits a line or a table row; a table's header opens every page.
 */
const page = (text: string, header: string, offset: number, maxChars: number) => {
  const room = Math.max(200, maxChars - (offset > 0 ? header.length : 0));
  let end = Math.min(text.length, offset + room);
  if (end < text.length) {
    const lineEnd = text.lastIndexOf('\n', end);
    if (lineEnd > offset) end = lineEnd + 1;
  }
  const body = text.slice(offset, end);
  return { text: offset > 0 && header ? header + body : body, end };
};

@injectable()
export class ReadFile implements UseCase<ReadFileParams, ReadFileResult> {
  constructor(
    @inject(FileContents) private readonly files: FileContents,
    @inject(DocumentReader) private readonly reader: DocumentReader,
    @inject(ItemStore) private readonly items: ItemStore,
  ) {}

  execute(p: ReadFileParams, context?: CallContext): TaskEither<GatewayError, ReadFileResult> {
    return pipe(
      this.files.read(p.item_id.trim(), READ_MAX_BYTES),
      TE.chain((file) =>
        pipe(
          this.reader.read(file.bytes, file.item.Name, file.contentType, context?.deadline, context?.principal.tenant),
          TE.chain((doc): TaskEither<GatewayError, ReadFileResult> => {
            if (doc.kind === 'unreadable')
              return pipe(
                this.items.downloadLink(file.item.Id, { includeAllVersions: false }),
                TE.map((d) => ({
                  kind: 'unreadable' as const,
                  item: file.item,
                  reason: doc.reason,
                  downloadUrl: d.DownloadUrl,
                })),
                TE.orElse(() =>
                  TE.right<GatewayError, ReadFileResult>({ kind: 'unreadable', item: file.item, reason: doc.reason }),
                ),
              );
            const header = doc.kind === 'table' ? `${table(doc.header, []).trimEnd()}\n` : '';
            const full =
              doc.kind === 'table'
                ? `${header}${table(doc.header, doc.rows).split('\n').slice(2).join('\n')}`
                : doc.text;
            const offset = Math.min(p.offset, full.length);
            const cut = page(full, header, offset, p.max_chars);
            return TE.right({
              kind: 'text',
              item: file.item,
              format: doc.format,
              text: cut.text,
              offset,
              totalChars: full.length,
              ...(cut.end < full.length ? { nextOffset: cut.end } : {}),
            });
          }),
        ),
      ),
    );
  }
}

export const readFileTool = defineTool({
  group: 'files',
  name: 'readFile',
  title: 'Read a file',
  description:
    'The text of a file, a page at a time (next_offset): txt, md, json, html, pdf, docx; csv as a table. Other types get their download address.',
  annotations: { kind: 'Read', idempotent: true },
  params: ReadFileParams,
  useCase: ReadFile,
  result: FileTextResult,
  json: (r) =>
    r.kind === 'text'
      ? {
          item_id: r.item.Id,
          name: r.item.Name,
          format: r.format,
          offset: r.offset,
          next_offset: r.nextOffset ?? null,
          total_chars: r.totalChars,
          text: r.text,
        }
      : {
          item_id: r.item.Id,
          name: r.item.Name,
          readable: false,
          reason: r.reason,
          download_url: r.downloadUrl ?? null,
        },
  text: (r, p) =>
    r.kind === 'text'
      ? [
          `## ${r.item.Name} (${r.format}): characters ${r.offset + 1}-${r.offset + r.text.length} of ${r.totalChars}`,
          r.text,
          r.nextOffset !== undefined
            ? `Next page: ${call('files_readFile', { item_id: p.item_id.trim(), offset: r.nextOffset, ...(p.max_chars !== DEFAULT_CHARS ? { max_chars: p.max_chars } : {}) })}`
            : '(end of file)',
        ].join('\n\n')
      : [
          `## ${r.item.Name} cannot be read as text`,
          `${r.reason[0]!.toUpperCase()}${r.reason.slice(1)}.`,
          r.downloadUrl
            ? `Download it instead (a plain GET, no token): ${r.downloadUrl}`
            : `Get its address: ${call('files_getDownloadUrl', { item_id: r.item.Id })}`,
        ].join('\n\n'),
});
