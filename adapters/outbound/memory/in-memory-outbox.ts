import type { GatewayError } from '../../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { ShareNotification, ShareNotifier } from '../../../ports/share-notifier.js';

export interface OutboxMessage {
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly subject: string;
  readonly body: string;
  readonly shareId: string;
  readonly shareUri: string;
  readonly sentAt: string;
}

/** Share e-mails kept in memory instead of sent: tests and demo users read `messages`. */
export class InMemoryOutbox implements ShareNotifier {
  readonly messages: OutboxMessage[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly sender: { readonly name: string; readonly email: string },
    private readonly onSent?: (shareId: string, recipients: readonly string[]) => void,
  ) {}

  notify(n: ShareNotification): TaskEither<GatewayError, { readonly recipients: readonly string[] }> {
    const verb = n.share.ShareType === 'Send' ? 'shared files with you' : 'asks you to upload files';
    this.messages.push({
      to: [...n.recipients],
      cc: n.ccSender ? [this.sender.email] : [],
      subject: `${this.sender.name} ${verb}: ${n.share.Title}`,
      body: [n.personalMessage, `${this.sender.name} ${verb}.`, `Open: ${n.share.Uri}`, n.share.ExpirationDate ? `The link works until ${n.share.ExpirationDate}.` : undefined]
        .filter(Boolean)
        .join('\n\n'),
      shareId: n.share.Id,
      shareUri: n.share.Uri,
      sentAt: this.clock.now().toISOString(),
    });
    this.onSent?.(n.share.Id, n.recipients);
    return TE.right({ recipients: [...n.recipients] });
  }
}
