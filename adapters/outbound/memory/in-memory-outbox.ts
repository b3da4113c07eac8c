import type { GatewayError } from '../../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { ShareNotification, ShareNotifier } from '../../../ports/share-notifier.js';
import { BoundedLog } from './bounded-log.js';

export interface OutboxMessage {
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly subject: string;
  readonly body: string;
  readonly shareId: string;
  readonly shareUri: string;
  readonly sentAt: string;
}

/** Share e-mails kept in memory instead of sent: tests and demo users read `messages` (the last 1,000, for a day). */
export class InMemoryOutbox implements ShareNotifier {
  private readonly log: BoundedLog<OutboxMessage>;

  get messages(): readonly OutboxMessage[] {
    return this.log.items;
  }

  constructor(
    private readonly clock: Clock,
    private readonly sender: { readonly name: string; readonly email: string },
    private readonly onSent?: (shareId: string, recipients: readonly string[]) => void,
    limits: { readonly max: number; readonly ttlMs: number } = { max: 1_000, ttlMs: 86_400_000 },
  ) {
    this.log = new BoundedLog(limits.max, limits.ttlMs, () => clock.now().getTime());
  }

  notify(n: ShareNotification): TaskEither<GatewayError, { readonly recipients: readonly string[] }> {
    const verb = n.share.ShareType === 'Send' ? 'shared files with you' : 'asks you to upload files';
    this.log.push({
      to: [...n.recipients],
      cc: n.ccSender ? [this.sender.email] : [],
      subject: `${this.sender.name} ${verb}: ${n.share.Title}`,
      body: [
        n.personalMessage,
        `${this.sender.name} ${verb}.`,
        `Open: ${n.share.Uri}`,
        n.share.ExpirationDate ? `The link works until ${n.share.ExpirationDate}.` : undefined,
      ]
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
