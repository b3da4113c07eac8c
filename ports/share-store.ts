import type { ServiceIdentifier } from 'inversify';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';
import type { NewShare, Share, ShareChanges, SharePage, ShareType } from '../domain/files/share.js';
import type { DownloadSpecification } from '../domain/files/transfer.js';

export interface ShareListQuery {
  readonly shareType?: ShareType;
  readonly top: number;
  readonly skip: number;
  readonly includeExpired: boolean;
}

/** The caller's shares (ShareFile or in memory). Both adapters honour test/ports/share-store.contract.ts. */
export interface ShareStore {
  /** A share; an expired one is still returned to its creator (ShareFile's rule), a deleted one is NotFound. */
  get(
    id: string,
    options: { readonly includeItems: boolean; readonly includeRecipients: boolean },
  ): TaskEither<GatewayError, Share>;
  /** Newest first; expired shares only with includeExpired. */
  list(query: ShareListQuery): TaskEither<GatewayError, SharePage>;
  create(share: NewShare): TaskEither<GatewayError, Share>;
  update(id: string, changes: ShareChanges): TaskEither<GatewayError, Share>;
  /**
   * The direct download address of a Send share's contents, without its landing page: the file itself when
   * the share holds one file, else a zip of all of them. The download counts against MaxDownloads when the
   * address is used.
   */
  downloadLink(id: string): TaskEither<GatewayError, DownloadSpecification>;
  /** Revokes the share at once: its Uri and upload link stop working. */
  delete(id: string): TaskEither<GatewayError, void>;
}

export const ShareStore = Symbol.for('ShareStore') as ServiceIdentifier<ShareStore>;
