import { inject, injectable } from 'inversify';
import type { Share } from '../../domain/files/share.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { Clock } from '../../ports/clock.js';
import { ShareStore } from '../../ports/share-store.js';
import { described, intRange, NonEmptyString, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { flag, shareJson, shareText } from './files-text.js';
import { ShareIdParam } from './get-share.js';
import { isoDate } from './update-item.js';
import { ShareResult } from './file-results.js';
import { withDirectDownload } from './share-download.js';

export const UpdateShareParams = params(
  { share_id: ShareIdParam },
  {
    title: described(NonEmptyString, 'New title.'),
    expiration_date: described(NonEmptyString, 'New expiry, ISO 8601; a past date ends the share now.'),
    max_downloads: described(intRange(-1, 1_000_000), 'Downloads allowed; -1 unlimited.'),
    require_login: flag('Recipients must sign in.'),
    require_user_info: flag('Recipients give their name and e-mail first.'),
    is_view_only: flag('Recipients can view but not download.'),
  },
);
export type UpdateShareParams = t.TypeOf<typeof UpdateShareParams>;

@injectable()
export class UpdateShare implements UseCase<UpdateShareParams, Share> {
  constructor(
    @inject(ShareStore) private readonly shares: ShareStore,
    @inject(Clock) private readonly clock: Clock,
  ) {}
  execute(p: UpdateShareParams): TaskEither<GatewayError, Share> {
    const { share_id, ...changes } = p;
    if (!Object.values(changes).some((v) => v !== undefined)) {
      return TE.left(
        invalidInput(
          'Nothing to change: pass title, expiration_date, max_downloads, require_login, require_user_info or is_view_only.',
          'title',
          'at least one change',
        ),
      );
    }
    const bad = p.expiration_date !== undefined ? isoDate(p.expiration_date, 'expiration_date') : undefined;
    if (bad) return TE.left(bad);
    const updated = this.shares.update(share_id.trim(), {
      ...(p.title !== undefined ? { title: p.title.trim() } : {}),
      ...(p.expiration_date !== undefined
        ? { expirationDate: new Date(Date.parse(p.expiration_date.trim())).toISOString() }
        : {}),
      ...(p.max_downloads !== undefined ? { maxDownloads: p.max_downloads } : {}),
      ...(p.require_login !== undefined ? { requireLogin: p.require_login } : {}),
      ...(p.require_user_info !== undefined ? { requireUserInfo: p.require_user_info } : {}),
      ...(p.is_view_only !== undefined ? { isViewOnly: p.is_view_only } : {}),
    });
    return pipe(updated, TE.chain(withDirectDownload(this.shares, this.clock.now())));
  }
}

export const updateShareTool = defineTool({
  group: 'files',
  name: 'updateShare',
  title: 'Update share',
  description:
    "Changes a share's title, expiry, download limit or access options; only the given fields change. The link (Uri) stays the same.",
  annotations: { kind: 'Write', idempotent: true },
  params: UpdateShareParams,
  useCase: UpdateShare,
  result: ShareResult,
  json: (s) => shareJson(s),
  text: (s) => shareText(s, `## Updated ${s.ShareType} share "${s.Title}" (id ${s.Id})`),
});
