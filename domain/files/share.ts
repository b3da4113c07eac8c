import { isEmailAddress } from '../shared/email.js';
import type { Item } from './item.js';

export type ShareType = 'Send' | 'Request';

export interface ShareRecipient {
  readonly email: string;
  readonly name?: string;
}

export interface Share {
  readonly Id: string;
  readonly ShareType: ShareType;
  readonly Title: string;
  readonly CreationDate: string;
  readonly ExpirationDate?: string;
  readonly MaxDownloads: number;
  readonly TotalDownloads: number;
  readonly RequireLogin: boolean;
  readonly RequireUserInfo: boolean;
  readonly IsViewOnly: boolean;
  readonly IsArchived: boolean;
  readonly HasSentMessage: boolean;
  readonly UsesStreamIDs: boolean;
  readonly ShareAccessLevel?: string;
  readonly ShareSubType?: string;
  readonly Uri: string;
  readonly url: string;
  /** The items shared (Send) or none. */
  readonly ItemIds: readonly string[];
  /** The destination folder of a Request share. */
  readonly ParentId?: string;
  readonly Items?: readonly Item[];
  readonly Recipients?: readonly ShareRecipient[];
  readonly NotifyOnDownload?: boolean;
  readonly NotifyOnUpload?: boolean;
  /** A Send share's direct download (the file, or a zip of several), when asked for: see ShareDirectDownload. */
  readonly DirectDownload?: ShareDirectDownload;
}

/**
 * What a Send share's answer says about downloading without the landing page: the direct address, or why
 * there is none (the share's own rules, or the file service not giving one just now).
 */
export type ShareDirectDownload =
  | { readonly kind: 'link'; readonly url: string; readonly expiresAt?: string; readonly fileName?: string }
  | { readonly kind: 'none'; readonly reason: DirectDownloadRefusal }
  | { readonly kind: 'failed'; readonly message: string };

export interface NewShare {
  readonly shareType: ShareType;
  readonly itemIds: readonly string[];
  readonly parentId?: string;
  readonly title?: string;
  readonly expirationDate?: string;
  readonly maxDownloads: number;
  readonly requireLogin: boolean;
  readonly requireUserInfo: boolean;
  readonly isViewOnly: boolean;
  readonly notifyOnDownload: boolean;
  readonly notifyOnUpload: boolean;
  readonly recipients: readonly string[];
}

export interface ShareChanges {
  readonly title?: string;
  readonly expirationDate?: string;
  readonly maxDownloads?: number;
  readonly requireLogin?: boolean;
  readonly requireUserInfo?: boolean;
  readonly isViewOnly?: boolean;
}

export interface SharePage {
  readonly totalCount: number;
  readonly shares: readonly Share[];
  /**
   * Set when the listing could not read every share (ShareFile's shares of one type, past the scan):
   * `totalCount` is then the number found, the least there are, and `note` says what was read and how to go on.
   */
  readonly scanEnded?: { readonly note: string };
}

/** Days until a share expires when the caller does not say (ShareFile's documented default). */
export const DEFAULT_SHARE_DAYS = 30;

export const isExpired = (share: Pick<Share, 'ExpirationDate'>, now: Date): boolean =>
  share.ExpirationDate !== undefined && Date.parse(share.ExpirationDate) <= now.getTime();

export const downloadsLeft = (share: Pick<Share, 'MaxDownloads' | 'TotalDownloads'>): number =>
  share.MaxDownloads < 0 ? Number.POSITIVE_INFINITY : Math.max(0, share.MaxDownloads - share.TotalDownloads);

export type ShareRefusal = 'expired' | 'view-only' | 'download-limit' | 'wrong-type';

/** Why a download through a share is refused, if it is. */
export const downloadRefusal = (share: Share, now: Date): ShareRefusal | undefined => {
  if (isExpired(share, now)) return 'expired';
  if (share.ShareType !== 'Send') return 'wrong-type';
  if (share.IsViewOnly) return 'view-only';
  if (downloadsLeft(share) <= 0) return 'download-limit';
  return undefined;
};

export type DirectDownloadRefusal = ShareRefusal | 'sign-in' | 'visitor-details';

/**
 * Why a Send share gets no direct download address, if it does not: the rules of a download, and the shares
 * whose landing page asks the visitor to sign in or to say who they are (a direct address would skip that).
 */
export const directDownloadRefusal = (share: Share, now: Date): DirectDownloadRefusal | undefined =>
  downloadRefusal(share, now) ??
  (share.RequireLogin ? 'sign-in' : share.RequireUserInfo ? 'visitor-details' : undefined);

/** The address check of share recipients (linear time; see domain/shared/email.ts). */
export const EMAIL = { test: isEmailAddress } as const;
