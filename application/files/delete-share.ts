import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { ShareStore } from '../../ports/share-store.js';
import { params, t } from '../runtime/codecs.js';
import type { Preview } from '../runtime/confirm.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { ShareIdParam } from './get-share.js';
import { DeletedShareResult } from './file-results.js';

export const DeleteShareParams = params({ share_id: ShareIdParam }, {});
export type DeleteShareParams = t.TypeOf<typeof DeleteShareParams>;

@injectable()
export class DeleteShare implements UseCase<DeleteShareParams, { readonly message: string }> {
  constructor(@inject(ShareStore) private readonly shares: ShareStore) {}
  preview(p: DeleteShareParams): TaskEither<GatewayError, Preview> {
    return pipe(
      this.shares.get(p.share_id, { includeItems: false, includeRecipients: false }),
      TE.map((s) => ({
        summary: `revoke the ${s.ShareType} share ${s.Id} "${s.Title}" (${s.ItemIds.length} item(s), downloaded ${s.TotalDownloads} time(s)); its link stops working at once`,
        facts: {
          share_id: s.Id,
          title: s.Title,
          type: s.ShareType,
          items: s.ItemIds,
          downloads: s.TotalDownloads,
          url: s.Uri,
        },
      })),
    );
  }

  execute(p: DeleteShareParams): TaskEither<GatewayError, { readonly message: string }> {
    const id = p.share_id.trim();
    return pipe(
      this.shares.delete(id),
      TE.map(() => ({
        message: `Share ${id} was deleted. Its link and upload address stopped working for every recipient; the shared files themselves are unchanged.`,
      })),
    );
  }
}

export const deleteShareTool = defineTool({
  group: 'files',
  name: 'deleteShare',
  title: 'Delete share',
  description:
    'Deletes a share: its link stops working for every recipient at once. The shared files are not touched. Cannot be undone.',
  annotations: { kind: 'Destructive', idempotent: false },
  params: DeleteShareParams,
  useCase: DeleteShare,
  result: DeletedShareResult,
  text: (r, p) => `## Share ${p.share_id.trim()} deleted\n\n${r.message}`,
});
