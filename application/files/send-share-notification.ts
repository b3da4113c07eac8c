import { inject, injectable } from 'inversify';
import { isExpired } from '../../domain/files/share.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { Clock } from '../../ports/clock.js';
import { ShareNotifier } from '../../ports/share-notifier.js';
import { ShareStore } from '../../ports/share-store.js';
import { described, NonEmptyString, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call } from '../runtime/markdown.js';
import { checkEmails } from './create-share.js';
import { flag } from './files-text.js';
import { ShareIdParam } from './get-share.js';
import { ShareNotificationResult } from './file-results.js';

export const SendShareNotificationParams = params(
  { share_id: ShareIdParam, recipients: described(t.array(NonEmptyString), 'E-mail addresses to send the link to.') },
  {
    personal_message: described(t.string, 'Message included in the e-mail.'),
    cc_sender: flag('Send yourself a copy.', false),
  },
);
export type SendShareNotificationParams = t.TypeOf<typeof SendShareNotificationParams>;

export interface SendShareNotificationResult {
  readonly message: string;
  readonly recipients: readonly string[];
}

@injectable()
export class SendShareNotification implements UseCase<SendShareNotificationParams, SendShareNotificationResult> {
  constructor(
    @inject(ShareStore) private readonly shares: ShareStore,
    @inject(ShareNotifier) private readonly notifier: ShareNotifier,
    @inject(Clock) private readonly clock: Clock,
  ) {}

  execute(p: SendShareNotificationParams): TaskEither<GatewayError, SendShareNotificationResult> {
    const recipients = p.recipients.map((r) => r.trim());
    if (!recipients.length)
      return TE.left(
        invalidInput('Give at least one e-mail address in "recipients".', 'recipients', 'array of e-mail addresses'),
      );
    const bad = checkEmails(recipients, 'recipients');
    if (bad) return TE.left(bad);
    const id = p.share_id.trim();
    return pipe(
      this.shares.get(id, { includeItems: false, includeRecipients: false }),
      TE.chain((share) =>
        isExpired(share, this.clock.now())
          ? TE.left(
              invalidInput(
                `Share ${id} expired on ${share.ExpirationDate}; its link no longer works. Extend it first: ${call('files_updateShare', { share_id: id, expiration_date: '<future date>' })}`,
                'share_id',
                'an active share',
              ),
            )
          : this.notifier.notify({
              share,
              recipients,
              ...(p.personal_message ? { personalMessage: p.personal_message } : {}),
              ccSender: p.cc_sender,
            }),
      ),
      TE.map((sent) => ({
        message: `The link of share ${id} was e-mailed to ${sent.recipients.length} recipient${sent.recipients.length === 1 ? '' : 's'}.`,
        recipients: sent.recipients,
      })),
    );
  }
}

export const sendShareNotificationTool = defineTool({
  group: 'files',
  name: 'sendShareNotification',
  title: 'E-mail share link',
  description: "E-mails a share's link (again) to the given addresses. The share must not be expired.",
  annotations: { kind: 'Write', idempotent: false },
  params: SendShareNotificationParams,
  useCase: SendShareNotification,
  result: ShareNotificationResult,
  text: (r, p) =>
    `## Share ${p.share_id.trim()} sent\n\n${r.message}\n\n${r.recipients.map((x) => `- ${x}`).join('\n')}`,
});
