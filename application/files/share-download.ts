import { directDownloadRefusal, type Share, type ShareDirectDownload } from '../../domain/files/share.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { E, type TaskEither } from '../../domain/shared/fp.js';
import type { ShareStore } from '../../ports/share-store.js';

/**
 * A Send share with its direct download: the address of its files without the landing page, when the share's
 * rules allow one, or why there is none. The share's answer never fails for want of it: when the file
 * service does not give the address, the answer says so and the landing page still works.
 */
export const withDirectDownload =
  (shares: ShareStore, now: Date) =>
  (share: Share): TaskEither<GatewayError, Share> =>
  async () => {
    if (share.ShareType !== 'Send') return E.right(share);
    const reason = directDownloadRefusal(share, now);
    if (reason) return E.right({ ...share, DirectDownload: { kind: 'none', reason } });
    const r = await shares.downloadLink(share.Id)();
    const direct: ShareDirectDownload = E.isRight(r)
      ? {
          kind: 'link',
          url: r.right.DownloadUrl,
          ...(r.right.ExpiresAt ? { expiresAt: r.right.ExpiresAt } : {}),
          ...(r.right.FileName ? { fileName: r.right.FileName } : {}),
        }
      : { kind: 'failed', message: r.left.message };
    return E.right({ ...share, DirectDownload: direct });
  };
