import type { ServiceIdentifier } from 'inversify';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';
import type { Share } from '../domain/files/share.js';

export interface ShareNotification {
  readonly share: Share;
  readonly recipients: readonly string[];
  readonly personalMessage?: string;
  readonly ccSender: boolean;
}

/** Sends (or re-sends) the e-mail that hands a share's link to its recipients. */
export interface ShareNotifier {
  notify(notification: ShareNotification): TaskEither<GatewayError, { readonly recipients: readonly string[] }>;
}

export const ShareNotifier = Symbol.for('ShareNotifier') as ServiceIdentifier<ShareNotifier>;
