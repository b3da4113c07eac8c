import { randomBytes } from 'node:crypto';
import { contentTypeOf, type Item } from '../../../domain/files/item.js';
import {
  DEFAULT_SHARE_DAYS,
  downloadRefusal,
  isExpired,
  type NewShare,
  type Share,
  type ShareChanges,
  type SharePage,
} from '../../../domain/files/share.js';
import type { DownloadSpecification } from '../../../domain/files/transfer.js';
import { invalidInput, notFound, type GatewayError } from '../../../domain/shared/errors.js';
import { E, TE, type TaskEither } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type {
  FilePayload,
  ShareDesk,
  ShareListing,
  ShareVisitor,
  TransferRefusal,
} from '../../../ports/file-transfers.js';
import type { ShareListQuery, ShareStore } from '../../../ports/share-store.js';
import { DEFAULT_DEMO_LIMITS, roomFor } from './demo-limits.js';
import type { InMemoryItemStore } from './in-memory-item-store.js';

export interface InMemoryShareStoreOptions {
  readonly clock: Clock;
  readonly items: InMemoryItemStore;
  /** The gateway's public base URL: share pages are served at {baseUrl}/files/shares/{id}. */
  readonly baseUrl: string;
  readonly newId?: () => string;
  /** How many shares it holds at most (expired ones count until deleted). */
  readonly maxShares?: number;
}

interface StoredShare {
  share: Share;
  readonly recipients: string[];
}

const refuse = (
  status: TransferRefusal['status'],
  code: TransferRefusal['code'],
  message: string,
): TransferRefusal => ({ status, code, message });

/**
 * Shares held in memory, served by the gateway's public share pages: Send shares list and hand out
 * their files (counting downloads), Request shares accept uploads into their folder.
 */
export class InMemoryShareStore implements ShareStore, ShareDesk {
  private readonly shares = new Map<string, StoredShare>();
  private readonly clock: Clock;
  private readonly items: InMemoryItemStore;
  private readonly baseUrl: string;
  private readonly newId: () => string;
  private readonly maxShares: number;

  constructor(options: InMemoryShareStoreOptions) {
    this.clock = options.clock;
    this.maxShares = options.maxShares ?? DEFAULT_DEMO_LIMITS.shares;
    this.items = options.items;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // Share ids are the capability of the public link: long and random.
    this.newId = options.newId ?? (() => `s${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`);
  }

  private withDetails(s: StoredShare, o: { includeItems: boolean; includeRecipients: boolean }): Share {
    const items = o.includeItems
      ? s.share.ItemIds.map((id) => this.items.currentItem(id)).filter((i): i is Item => i !== undefined)
      : undefined;
    return {
      ...s.share,
      ...(items ? { Items: items } : {}),
      ...(o.includeRecipients ? { Recipients: s.recipients.map((email) => ({ email })) } : {}),
    };
  }

  private find(id: string): StoredShare | undefined {
    return this.shares.get(id);
  }

  private missing(id: string): GatewayError {
    return notFound(
      'share',
      id,
      `No share with id "${id}" (it may have been deleted). List shares with files_listShares.`,
    );
  }

  get(id: string, o: { includeItems: boolean; includeRecipients: boolean }): TaskEither<GatewayError, Share> {
    const s = this.find(id);
    return s ? TE.right(this.withDetails(s, o)) : TE.left(this.missing(id));
  }

  list(q: ShareListQuery): TaskEither<GatewayError, SharePage> {
    const now = this.clock.now();
    const all = [...this.shares.values()]
      .map((s) => s.share)
      .filter((s) => (q.shareType ? s.ShareType === q.shareType : true) && (q.includeExpired || !isExpired(s, now)))
      .sort((a, b) => b.CreationDate.localeCompare(a.CreationDate) || a.Id.localeCompare(b.Id));
    return TE.right({ totalCount: all.length, shares: all.slice(q.skip, q.skip + q.top) });
  }

  create(n: NewShare): TaskEither<GatewayError, Share> {
    const now = this.clock.now();
    const itemIds: string[] = [];
    for (const id of n.itemIds) {
      const item = this.items.currentItem(id);
      if (!item)
        return TE.left(
          notFound(
            'item',
            id,
            `No item with id "${id}" to share. Find ids with files_listChildren or files_searchItems.`,
          ),
        );
      itemIds.push(item.Id);
    }
    let parentId: string | undefined;
    if (n.shareType === 'Request') {
      const folder = this.items.currentItem(n.parentId ?? 'home');
      if (!folder)
        return TE.left(notFound('item', n.parentId ?? 'home', `No folder with id "${n.parentId}" to receive uploads.`));
      if (folder.type !== 'Folder')
        return TE.left(
          invalidInput(
            `"${folder.Name}" is a file; a Request share needs a destination folder.`,
            'parent_id',
            'folder id',
          ),
        );
      parentId = folder.Id;
    }
    const room = roomFor('shares', this.shares.size, this.maxShares);
    if (E.isLeft(room)) return TE.left(room.left);
    const id = this.newId();
    const firstName = itemIds.length ? this.items.currentItem(itemIds[0]!)?.Name : undefined;
    const share: Share = {
      Id: id,
      ShareType: n.shareType,
      Title:
        n.title?.trim() ||
        (n.shareType === 'Send'
          ? `Files: ${firstName ?? 'shared items'}${itemIds.length > 1 ? ` and ${itemIds.length - 1} more` : ''}`
          : `Upload request: ${this.items.currentItem(parentId!)?.Name ?? 'folder'}`),
      CreationDate: now.toISOString(),
      ExpirationDate: n.expirationDate ?? new Date(now.getTime() + DEFAULT_SHARE_DAYS * 86_400_000).toISOString(),
      MaxDownloads: n.maxDownloads,
      TotalDownloads: 0,
      RequireLogin: n.requireLogin,
      RequireUserInfo: n.requireUserInfo,
      IsViewOnly: n.isViewOnly,
      IsArchived: false,
      HasSentMessage: false,
      UsesStreamIDs: false,
      ShareAccessLevel: n.requireLogin ? 'Employee' : 'Anonymous',
      ShareSubType: 'None',
      Uri: `${this.baseUrl}/files/shares/${id}`,
      url: `memory://files/Shares(${id})`,
      ItemIds: itemIds,
      ...(parentId ? { ParentId: parentId } : {}),
      NotifyOnDownload: n.notifyOnDownload,
      NotifyOnUpload: n.notifyOnUpload,
    };
    const stored: StoredShare = { share, recipients: [...n.recipients] };
    this.shares.set(id, stored);
    return TE.right(this.withDetails(stored, { includeItems: false, includeRecipients: false }));
  }

  update(id: string, c: ShareChanges): TaskEither<GatewayError, Share> {
    const s = this.find(id);
    if (!s) return TE.left(this.missing(id));
    s.share = {
      ...s.share,
      ...(c.title !== undefined ? { Title: c.title } : {}),
      ...(c.expirationDate !== undefined ? { ExpirationDate: new Date(c.expirationDate).toISOString() } : {}),
      ...(c.maxDownloads !== undefined ? { MaxDownloads: c.maxDownloads } : {}),
      ...(c.requireLogin !== undefined
        ? { RequireLogin: c.requireLogin, ShareAccessLevel: c.requireLogin ? 'Employee' : 'Anonymous' }
        : {}),
      ...(c.requireUserInfo !== undefined ? { RequireUserInfo: c.requireUserInfo } : {}),
      ...(c.isViewOnly !== undefined ? { IsViewOnly: c.isViewOnly } : {}),
    };
    return TE.right(this.withDetails(s, { includeItems: false, includeRecipients: false }));
  }

  /** The share page's /download address: the whole share at once (downloadAll), under the share's own rules. */
  downloadLink(id: string): TaskEither<GatewayError, DownloadSpecification> {
    const s = this.find(id);
    if (!s) return TE.left(this.missing(id));
    if (s.share.ShareType !== 'Send')
      return TE.left(
        invalidInput('A Request share collects uploads; it has nothing to download.', 'share_id', 'a Send share id'),
      );
    const only = s.share.ItemIds.length === 1 ? this.items.currentItem(s.share.ItemIds[0]!) : undefined;
    return TE.right({
      DownloadUrl: `${s.share.Uri}/download`,
      FileName: only?.type === 'File' ? only.Name : 'Files.zip',
    });
  }

  delete(id: string): TaskEither<GatewayError, void> {
    return this.shares.delete(id) ? TE.right(undefined) : TE.left(this.missing(id));
  }

  /** Records that the share's link was e-mailed (the notifier calls this). */
  markSent(id: string, recipients: readonly string[]): void {
    const s = this.find(id);
    if (!s) return;
    for (const r of recipients) if (!s.recipients.includes(r)) s.recipients.push(r);
    s.share = { ...s.share, HasSentMessage: true };
  }

  // ---- ShareDesk (public share pages) ------------------------------------------------------------

  private usable(shareId: string, visitor: ShareVisitor): E.Either<TransferRefusal, StoredShare> {
    const s = this.find(shareId);
    if (!s) return E.left(refuse(404, 'NOT_FOUND', 'This share does not exist or was revoked by its owner.'));
    if (isExpired(s.share, this.clock.now()))
      return E.left(
        refuse(410, 'GONE', `This share expired on ${s.share.ExpirationDate}. Ask the sender for a new link.`),
      );
    if (s.share.RequireLogin && !visitor.signedIn)
      return E.left(refuse(401, 'UNAUTHORIZED', 'This share requires sign-in: send "Authorization: Bearer <token>".'));
    if (s.share.RequireUserInfo && (!visitor.name || !visitor.email)) {
      return E.left({
        status: 403,
        code: 'FORBIDDEN',
        message: 'This share asks who you are: add the query parameters name and email.',
        details: { parameters: ['name', 'email'] },
      });
    }
    return E.right(s);
  }

  open(shareId: string, visitor: ShareVisitor): TaskEither<TransferRefusal, ShareListing> {
    const s = this.usable(shareId, visitor);
    if (E.isLeft(s)) return TE.left(s.left);
    const files =
      s.right.share.ShareType === 'Send' ? s.right.share.ItemIds.flatMap((id) => this.items.filesWithin(id)) : [];
    return TE.right({ share: s.right.share, files });
  }

  /** Why a download through the share is refused, as the share page answers it. */
  private downloadRefused(share: Share): TransferRefusal | undefined {
    switch (downloadRefusal(share, this.clock.now())) {
      case 'wrong-type':
        return refuse(400, 'INVALID_PARAMETER', 'This is a Request share: it accepts uploads, not downloads.');
      case 'view-only':
        return refuse(403, 'FORBIDDEN', 'This share is view-only: its files can be listed but not downloaded.');
      case 'download-limit':
        return refuse(
          403,
          'FORBIDDEN',
          `This share allowed ${share.MaxDownloads} downloads and they have all been used. Ask the sender for a new link.`,
        );
      case 'expired':
        return refuse(410, 'GONE', 'This share has expired.');
      case undefined:
        return undefined;
    }
  }

  download(shareId: string, itemId: string, visitor: ShareVisitor): TaskEither<TransferRefusal, FilePayload> {
    const s = this.usable(shareId, visitor);
    if (E.isLeft(s)) return TE.left(s.left);
    const share = s.right.share;
    if (share.ShareType === 'Send' && !share.ItemIds.some((id) => this.items.isWithin(itemId, id)))
      return TE.left(refuse(404, 'NOT_FOUND', 'That file is not part of this share.'));
    const refused = this.downloadRefused(share);
    if (refused) return TE.left(refused);
    const file = this.items.currentBytes(itemId);
    if (!file) return TE.left(refuse(404, 'NOT_FOUND', 'That file no longer exists.'));
    s.right.share = { ...share, TotalDownloads: share.TotalDownloads + 1 };
    return TE.right({
      fileName: file.node.Name,
      contentType: contentTypeOf(file.node.Name),
      zip: false,
      ...(file.node.MD5 ? { md5: file.node.MD5 } : {}),
      entries: [{ name: file.node.Name, bytes: file.bytes, date: new Date(file.node.CreationDate) }],
    });
  }

  /**
   * The whole share in one download, as ShareFile's Shares(id)/Download gives it: a share of one file is that
   * file, anything else a zip named Files.zip. One download is counted.
   */
  downloadAll(shareId: string, visitor: ShareVisitor): TaskEither<TransferRefusal, FilePayload> {
    const s = this.usable(shareId, visitor);
    if (E.isLeft(s)) return TE.left(s.left);
    const share = s.right.share;
    const refused = this.downloadRefused(share);
    if (refused) return TE.left(refused);
    const files = share.ItemIds.flatMap((id) => this.items.filesWithin(id)).flatMap((f) => {
      const b = this.items.currentBytes(f.item.Id);
      return b ? [{ path: f.path, ...b }] : [];
    });
    const [first] = files;
    if (!first) return TE.left(refuse(404, 'NOT_FOUND', 'No shared files remain (they may have been deleted).'));
    s.right.share = { ...share, TotalDownloads: share.TotalDownloads + 1 };
    const entries = files.map((f) => ({ name: f.path, bytes: f.bytes, date: new Date(f.node.CreationDate) }));
    if (files.length === 1 && share.ItemIds.length === 1 && share.ItemIds[0] === first.node.Id)
      return TE.right({
        fileName: first.node.Name,
        contentType: contentTypeOf(first.node.Name),
        zip: false,
        ...(first.node.MD5 ? { md5: first.node.MD5 } : {}),
        entries,
      });
    return TE.right({ fileName: 'Files.zip', contentType: 'application/zip', zip: true, entries });
  }

  upload(
    shareId: string,
    fileName: string,
    bytes: Uint8Array,
    visitor: ShareVisitor,
  ): TaskEither<TransferRefusal, Item> {
    const s = this.usable(shareId, visitor);
    if (E.isLeft(s)) return TE.left(s.left);
    const share = s.right.share;
    if (share.ShareType !== 'Request' || !share.ParentId)
      return TE.left(
        refuse(400, 'INVALID_PARAMETER', 'This is a Send share: it hands out files and accepts no uploads.'),
      );
    if (bytes.length > this.items.maxUploadBytes) {
      return TE.left({
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        message: `The file is larger than the ${this.items.maxUploadBytes}-byte limit. Nothing was stored.`,
        details: { limit_bytes: this.items.maxUploadBytes },
      });
    }
    const added = this.items.addFile(share.ParentId, fileName, bytes, { overwrite: false });
    if (E.isLeft(added))
      return TE.left(
        refuse(
          added.left._tag === 'NotFound' ? 410 : 400,
          added.left._tag === 'NotFound' ? 'GONE' : 'INVALID_PARAMETER',
          added.left.message,
        ),
      );
    return TE.right(added.right.item);
  }
}
