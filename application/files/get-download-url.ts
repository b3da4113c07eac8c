import { inject, injectable } from 'inversify';
import type { DownloadSpecification } from '../../domain/files/transfer.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import type { TaskEither } from '../../domain/shared/fp.js';
import { ItemStore } from '../../ports/item-store.js';
import { params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { fields } from '../runtime/markdown.js';
import { displayDate, flag, ItemIdParam, TYPE_PREFIX } from './files-text.js';
import { DownloadResult } from './file-results.js';

export const GetDownloadUrlParams = params(
  { item_id: ItemIdParam('Id of the file.') },
  {
    include_all_versions: flag('Download every version of the file as one zip.', false),
    redirect: flag('Ignored: a tool call always returns the address.', false),
  },
);
export type GetDownloadUrlParams = t.TypeOf<typeof GetDownloadUrlParams>;

@injectable()
export class GetDownloadUrl implements UseCase<GetDownloadUrlParams, DownloadSpecification> {
  constructor(@inject(ItemStore) private readonly items: ItemStore) {}
  execute(p: GetDownloadUrlParams): TaskEither<GatewayError, DownloadSpecification> {
    return this.items.downloadLink(p.item_id.trim(), { includeAllVersions: p.include_all_versions });
  }
}

export const getDownloadUrlTool = defineTool({
  group: 'files',
  name: 'getDownloadUrl',
  title: 'Get download address',
  description:
    "A temporary signed address (DownloadUrl) that serves the file's bytes to anyone, without a token. For its text: files_readFile.",
  annotations: { kind: 'Read', idempotent: true },
  params: GetDownloadUrlParams,
  useCase: GetDownloadUrl,
  result: DownloadResult,
  json: (s) => ({
    'odata.metadata': 'Files.Api.Models.DownloadSpecification',
    'odata.type': `${TYPE_PREFIX}DownloadSpecification`,
    ...(s.DownloadToken ? { DownloadToken: s.DownloadToken } : {}),
    DownloadUrl: s.DownloadUrl,
    ...(s.ExpiresAt ? { ExpiresAt: s.ExpiresAt } : {}),
    ...(s.FileName ? { FileName: s.FileName } : {}),
  }),
  text: (s, p) =>
    [
      `## Download address for ${p.item_id.trim()}${p.include_all_versions ? ' (all versions, zip)' : ''}`,
      fields([
        ['DownloadUrl', s.DownloadUrl],
        ['File', s.FileName],
        ['Valid until', displayDate(s.ExpiresAt)],
      ]),
      'A plain GET of the address returns the bytes; no Authorization header is needed. Ask again once it expires.',
    ].join('\n\n'),
});
