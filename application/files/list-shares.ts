import { inject, injectable } from 'inversify';
import type { SharePage } from '../../domain/files/share.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { Clock } from '../../ports/clock.js';
import { ShareStore } from '../../ports/share-store.js';
import { described, intRange, oneOf, params, t, withoutDefaults } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { downloadsText, expiryText, flag, shareJson, shareSummaryJson } from './files-text.js';
import { ShareListResult } from './file-results.js';

export const ListSharesParams = params(
  {},
  {
    share_type: described(oneOf(['Send', 'Request'] as const, 'ShareType'), 'Only Send or only Request shares.'),
    top: described(intRange(1, 500), 'Shares per page.', 50),
    skip: described(intRange(0, 1_000_000), 'Shares to skip (paging).', 0),
    include_expired: flag('Also list expired shares.', false),
    summary_only: flag('Only the main fields.', false),
  },
);
export type ListSharesParams = t.TypeOf<typeof ListSharesParams>;

export interface ListSharesResult extends SharePage {
  readonly skip: number;
  readonly now: Date;
}

@injectable()
export class ListShares implements UseCase<ListSharesParams, ListSharesResult> {
  constructor(
    @inject(ShareStore) private readonly shares: ShareStore,
    @inject(Clock) private readonly clock: Clock,
  ) {}
  execute(p: ListSharesParams): TaskEither<GatewayError, ListSharesResult> {
    const skip = p.skip;
    return pipe(
      this.shares.list({
        ...(p.share_type ? { shareType: p.share_type } : {}),
        top: p.top,
        skip,
        includeExpired: p.include_expired,
      }),
      TE.map((page) => ({ ...page, skip, now: this.clock.now() })),
    );
  }
}

export const listSharesTool = defineTool({
  group: 'files',
  name: 'listShares',
  title: 'List shares',
  description:
    'Lists the shares you created, newest first, a page at a time (top, skip): id, type, title, link, downloads and expiry.',
  annotations: { kind: 'Read', idempotent: true },
  params: ListSharesParams,
  useCase: ListShares,
  result: ShareListResult,
  rows: { key: 'shares', whenCut: (shown) => ({ returned_count: shown, has_more: true }) },
  continuation: (p, r, shown) => (r.skip + shown < r.totalCount ? { ...p, skip: r.skip + shown } : undefined),
  json: (r, p) => ({
    total_count: r.totalCount,
    ...(r.scanEnded ? { total_count_is_lower_bound: true, note: r.scanEnded.note } : {}),
    returned_count: r.shares.length,
    has_more: r.skip + r.shares.length < r.totalCount,
    shares: r.shares.map((s) => (p.summary_only ? shareSummaryJson(s, 'list') : shareJson(s))),
    ...(p.summary_only ? { summary_only: true } : {}),
  }),
  text: (r, p) => {
    const heading = `## Shares: ${r.scanEnded ? 'at least ' : ''}${r.totalCount}${p.share_type ? ` ${p.share_type}` : ''}${p.include_expired ? ' (expired included)' : ''}`;
    if (!r.shares.length) {
      return [
        heading,
        r.scanEnded
          ? `No ${p.share_type ?? ''} shares on this page: the scan ran out. ${r.scanEnded.note}`
          : r.totalCount
            ? `No shares on this page; there are ${r.totalCount}. Start again with skip 0.`
            : `No shares${p.include_expired ? '' : ' that are still active; include_expired=true also lists expired ones'}.`,
      ].join('\n\n');
    }
    const hasMore = r.skip + r.shares.length < r.totalCount;
    return {
      before: heading,
      position: `Showing ${r.skip + 1}-${r.skip + r.shares.length} of ${r.totalCount}.`,
      columns: ['id', 'type', 'title', 'downloads', 'expires', 'landing page'],
      rows: r.shares.map((s) => [
        s.Id,
        s.ShareType,
        s.Title,
        s.ShareType === 'Send' ? downloadsText(s) : '',
        expiryText(s, r.now),
        s.Uri,
      ]),
      more: hasMore
        ? `Next page: ${call('files_listShares', { ...withoutDefaults(ListSharesParams, p), skip: r.skip + r.shares.length })}`
        : (r.scanEnded?.note ?? 'This is the last page.'),
      after: nextSteps([
        `Details of one, with a Send share's direct download link: ${call('files_getShare', { share_id: r.shares[0]!.Id, include_items: true })}`,
      ]),
    };
  },
});
