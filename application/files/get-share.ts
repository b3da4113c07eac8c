import { inject, injectable } from 'inversify';
import type { Share } from '../../domain/files/share.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { Clock } from '../../ports/clock.js';
import { ShareStore } from '../../ports/share-store.js';
import { described, NonEmptyString, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { flag, sharePresentation, shareJson, shareSummaryJson } from './files-text.js';
import { ShareResult } from './file-results.js';
import { withDirectDownload } from './share-download.js';

export const ShareIdParam = described(NonEmptyString, 'The share id (files_listShares finds ids).');

export const GetShareParams = params(
  { share_id: ShareIdParam },
  {
    include_items: flag('Also return the shared items.', false),
    include_recipients: flag('Also return the recipients.', false),
    summary_only: flag('Only the main fields.', false),
  },
);
export type GetShareParams = t.TypeOf<typeof GetShareParams>;

@injectable()
export class GetShare implements UseCase<GetShareParams, Share> {
  constructor(
    @inject(ShareStore) private readonly shares: ShareStore,
    @inject(Clock) private readonly clock: Clock,
  ) {}
  execute(p: GetShareParams): TaskEither<GatewayError, Share> {
    return pipe(
      this.shares.get(p.share_id.trim(), {
        includeItems: p.include_items,
        includeRecipients: p.include_recipients,
      }),
      TE.chain(withDirectDownload(this.shares, this.clock.now())),
    );
  }
}

export const getShareTool = defineTool({
  group: 'files',
  name: 'getShare',
  title: 'Get share',
  description:
    'Reads one share: its landing page (Uri) and direct download link (Send), type, downloads used of the maximum, expiry and options.',
  annotations: { kind: 'Read', idempotent: true },
  params: GetShareParams,
  useCase: GetShare,
  result: ShareResult,
  json: (s, p) => (p.summary_only ? shareSummaryJson(s, 'get') : shareJson(s)),
  text: (s) =>
    sharePresentation(
      s,
      undefined,
      nextSteps([
        `E-mail the link: ${call('files_sendShareNotification', { share_id: s.Id, recipients: ['<email>'] })}`,
        `Change it: ${call('files_updateShare', { share_id: s.Id })}`,
      ]),
    ),
});
