import { inject, injectable } from 'inversify';
import { EMAIL, type Share } from '../../domain/files/share.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { Clock } from '../../ports/clock.js';
import { ShareNotifier } from '../../ports/share-notifier.js';
import { ShareStore } from '../../ports/share-store.js';
import { described, intRange, NonEmptyString, oneOf, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { flag, shareJson, shareText } from './files-text.js';
import { ShareResult } from './file-results.js';
import { withDirectDownload } from './share-download.js';

export const CreateShareParams = params(
  {
    share_type: described(
      oneOf(['Send', 'Request'] as const, 'ShareType'),
      'Send: recipients download the items. Request: recipients upload files into parent_id.',
    ),
  },
  {
    items: described(t.array(NonEmptyString), 'Ids of the files or folders to share; required for Send shares.'),
    parent_id: described(NonEmptyString, 'Folder that receives the uploads of a Request share; default home.'),
    title: described(t.string, 'Title shown to recipients.'),
    expiration_days: described(intRange(-1, 3650), 'Days until the link expires; -1 never.', 30),
    max_downloads: described(intRange(-1, 1_000_000), 'Downloads allowed; -1 unlimited.', -1),
    require_login: flag('Recipients must sign in.', false),
    require_user_info: flag('Recipients give name and e-mail first.', false),
    is_view_only: flag('Send shares: recipients can view but not download.', false),
    notify_on_download: flag('E-mail you when someone downloads.', false),
    notify_on_upload: flag('Request shares: e-mail you when someone uploads.', false),
    recipients: described(t.array(NonEmptyString), 'E-mail addresses that receive the link now.'),
    personal_message: described(t.string, 'Message in the e-mail.'),
    cc_sender: flag('Send yourself a copy of the e-mail.', false),
  },
);
export type CreateShareParams = t.TypeOf<typeof CreateShareParams>;

export interface CreateShareResult {
  readonly share: Share;
  readonly notified: readonly string[];
}

export const checkEmails = (emails: readonly string[], parameter: string): GatewayError | undefined => {
  const bad = emails.filter((e) => !EMAIL.test(e.trim()));
  return bad.length
    ? invalidInput(`Not e-mail addresses: ${bad.join(', ')}.`, parameter, 'array of e-mail addresses', { invalid: bad })
    : undefined;
};

@injectable()
export class CreateShare implements UseCase<CreateShareParams, CreateShareResult> {
  constructor(
    @inject(ShareStore) private readonly shares: ShareStore,
    @inject(ShareNotifier) private readonly notifier: ShareNotifier,
    @inject(Clock) private readonly clock: Clock,
  ) {}

  execute(p: CreateShareParams): TaskEither<GatewayError, CreateShareResult> {
    const items = (p.items ?? []).map((i) => i.trim());
    if (p.share_type === 'Send' && !items.length)
      return TE.left(
        invalidInput('A Send share needs the ids of the items to share in "items".', 'items', 'array of item ids'),
      );
    if (p.share_type === 'Request' && items.length)
      return TE.left(
        invalidInput(
          'A Request share takes no items: it collects uploads into parent_id.',
          'items',
          'no value for Request shares',
        ),
      );
    if (p.share_type === 'Request' && p.is_view_only)
      return TE.left(
        invalidInput('is_view_only applies to Send shares only.', 'is_view_only', 'false for Request shares'),
      );
    if (p.share_type === 'Send' && p.parent_id)
      return TE.left(
        invalidInput(
          'parent_id is the destination of a Request share; a Send share takes items.',
          'parent_id',
          'no value for Send shares',
        ),
      );
    if (p.expiration_days === 0)
      return TE.left(
        invalidInput(
          'expiration_days must be at least 1, or -1 for a link that never expires.',
          'expiration_days',
          'integer from 1 to 3650, or -1',
        ),
      );
    const recipients = (p.recipients ?? []).map((r) => r.trim());
    const bad = checkEmails(recipients, 'recipients');
    if (bad) return TE.left(bad);
    const days = p.expiration_days;
    const expirationDate =
      days < 0 ? '9999-12-31T23:59:59.000Z' : new Date(this.clock.now().getTime() + days * 86_400_000).toISOString();
    return pipe(
      this.shares.create({
        shareType: p.share_type,
        itemIds: items,
        ...(p.parent_id ? { parentId: p.parent_id.trim() } : {}),
        ...(p.title?.trim() ? { title: p.title.trim() } : {}),
        expirationDate,
        maxDownloads: p.max_downloads,
        requireLogin: p.require_login,
        requireUserInfo: p.require_user_info,
        isViewOnly: p.is_view_only,
        notifyOnDownload: p.notify_on_download,
        notifyOnUpload: p.notify_on_upload,
        recipients,
      }),
      TE.chain(withDirectDownload(this.shares, this.clock.now())),
      TE.chain((share): TaskEither<GatewayError, CreateShareResult> =>
        recipients.length
          ? pipe(
              this.notifier.notify({
                share,
                recipients,
                ...(p.personal_message ? { personalMessage: p.personal_message } : {}),
                ccSender: p.cc_sender,
              }),
              TE.map((sent): CreateShareResult => ({
                share: { ...share, HasSentMessage: true },
                notified: sent.recipients,
              })),
            )
          : TE.right({ share, notified: [] }),
      ),
    );
  }
}

export const createShareTool = defineTool({
  group: 'files',
  name: 'createShare',
  title: 'Create share',
  description:
    'Creates a share link (Uri) that sends items or requests uploads, and e-mails it to recipients if given; a Send share also gets a direct download link.',
  annotations: { kind: 'Write', idempotent: false },
  params: CreateShareParams,
  useCase: CreateShare,
  result: ShareResult,
  json: (r) => ({ ...shareJson(r.share), ...(r.notified.length ? { notified_recipients: r.notified } : {}) }),
  text: (r) =>
    [
      shareText(r.share, `## Created ${r.share.ShareType} share "${r.share.Title}" (id ${r.share.Id})`),
      r.notified.length ? `The link was e-mailed to ${r.notified.join(', ')}.` : '',
      nextSteps([
        `E-mail the link: ${call('files_sendShareNotification', { share_id: r.share.Id, recipients: ['<email>'] })}`,
        `Revoke it: ${call('files_deleteShare', { share_id: r.share.Id })}`,
      ]),
    ]
      .filter(Boolean)
      .join('\n\n'),
});
