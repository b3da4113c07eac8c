import type { AxiosResponse } from 'axios';
import type { NewShare, Share, ShareChanges, SharePage, ShareType } from '../../../domain/files/share.js';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { E, pipe, TE, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { ShareListQuery, ShareStore } from '../../../ports/share-store.js';
import type { ShareNotification, ShareNotifier } from '../../../ports/share-notifier.js';
import { decodeShareFile, SfFeed, SfShare } from './sharefile-codecs.js';
import { sharePath, type ShareFileClient, type SfRequest } from './sharefile-client.js';
import type { DownloadSpecification } from '../../../domain/files/transfer.js';
import { downloadAnswer, toShare } from './sharefile-mapping.js';

/** Shares read per call when listing one type (the feed is read from the start). */
const SCAN_PAGE = 500;
/** Pages read at most when listing one type: the first 5,000 shares. */
const SCAN_PAGES = 10;

/** Shares over ShareFile v3: Shares(id), Shares feed, POST/PATCH/DELETE (api.sharefile.com/html/docs/Shares.html). */
export class ShareFileShareStore implements ShareStore {
  constructor(
    private readonly client: ShareFileClient,
    /** The scan of one type's listing (tests make it small). */
    private readonly scan: { readonly page: number; readonly pages: number } = { page: SCAN_PAGE, pages: SCAN_PAGES },
  ) {}

  private call<A>(r: SfRequest, decode: (res: AxiosResponse) => Either<GatewayError, A>): TaskEither<GatewayError, A> {
    return this.client.call(r, decode);
  }

  private share(
    r: SfRequest,
    what: string,
    o?: { includeItems: boolean; includeRecipients: boolean },
  ): TaskEither<GatewayError, Share> {
    return this.call(r, (res) =>
      pipe(
        decodeShareFile(SfShare, res.data, what),
        E.map(toShare),
        E.map((s) => (o && !o.includeItems ? { ...s, Items: undefined } : s)),
        E.map((s) => (o && !o.includeRecipients ? { ...s, Recipients: undefined } : s)),
      ),
    );
  }

  get(id: string, o: { includeItems: boolean; includeRecipients: boolean }): TaskEither<GatewayError, Share> {
    const expand = [...(o.includeItems ? ['Items'] : []), ...(o.includeRecipients ? ['Recipients'] : [])].join(',');
    return this.share(
      {
        method: 'GET',
        path: sharePath(id),
        query: { includeExpired: true, ...(expand ? { $expand: expand } : {}) },
        subject: ['share', id],
      },
      'the share',
      o,
    );
  }

  /**
   * `GET /Shares` (includeExpired, $top, $skip). No document shows that the Shares feed honours
   * `$filter=ShareType eq '...'` (ShareFile-NET SharesEntity.Get takes no type; the SDK's generic OData
   * filters, Requests/Filters/*.cs, say nothing of this feed), so a type is never sent as a filter: without a
   * type the caller's page is one call; with one, see {@link ShareFileShareStore.listOfType}.
   */
  list(q: ShareListQuery): TaskEither<GatewayError, SharePage> {
    if (q.shareType) return this.listOfType(q.shareType, q);
    return pipe(
      this.feed(q.includeExpired, q.top, q.skip),
      TE.map((f) => ({ totalCount: f.count ?? q.skip + f.shares.length + (f.more ? 1 : 0), shares: f.shares })),
    );
  }

  /**
   * Shares of one type: the feed of both types read from the start in pages of {@link SCAN_PAGE} (one call
   * for an account with up to 500 shares), at most {@link SCAN_PAGES} pages, the other type dropped, and the
   * caller's skip and top applied to what is left. `totalCount` counts the shares of that type: exact when the
   * feed ended within the scan; when the account has more shares than the scan reads, it is the count found,
   * marked a lower bound (`scanEnded`), and a page past what was found is an empty page that says the scan
   * ran out and how to go on (issue 42: it was an estimate presented as a count, and `skip: 0` was refused
   * when the scan found none of the type).
   */
  private listOfType(type: ShareType, q: ShareListQuery): TaskEither<GatewayError, SharePage> {
    return async () => {
      const matching: Share[] = [];
      let offset = 0;
      for (let page = 0; page < this.scan.pages; page++) {
        const f = await this.feed(q.includeExpired, this.scan.page, offset)();
        if (E.isLeft(f)) return f;
        matching.push(...f.right.shares.filter((s) => s.ShareType === type));
        offset += f.right.shares.length;
        // the count decides when the feed gives one; else a link to more, else a full page may have more
        const { shares, count, more } = f.right;
        const ended =
          !shares.length || (count !== undefined ? offset >= count : !more && shares.length < this.scan.page);
        if (ended) return E.right({ totalCount: matching.length, shares: matching.slice(q.skip, q.skip + q.top) });
      }
      const note =
        `The gateway reads the first ${offset} shares to list ${type} shares (no document shows ShareFile filters shares by type) and found ${matching.length} of them; the account has more shares than that, so there may be more ${type} shares. ` +
        `To go on, list without share_type from skip ${offset}: every share, both types, newest first.`;
      return E.right({
        totalCount: matching.length,
        shares: matching.slice(q.skip, q.skip + q.top),
        scanEnded: { note },
      });
    };
  }

  /** One page of the Shares feed (both types). */
  private feed(
    includeExpired: boolean,
    top: number,
    skip: number,
  ): TaskEither<GatewayError, { shares: Share[]; count: number | undefined; more: boolean }> {
    return this.call({ method: 'GET', path: '/Shares', query: { includeExpired, $top: top, $skip: skip } }, (res) =>
      pipe(
        decodeShareFile(SfFeed(SfShare), res.data, 'the share list'),
        E.map((f) => ({
          shares: f.value.map(toShare).map((s) => ({ ...s, Items: undefined })),
          count: f['odata.count'],
          more: typeof f['odata.nextLink'] === 'string',
        })),
      ),
    );
  }

  create(n: NewShare): TaskEither<GatewayError, Share> {
    const notifyOnUse = n.shareType === 'Send' ? n.notifyOnDownload : n.notifyOnUpload;
    const body = {
      ShareType: n.shareType,
      ...(n.title ? { Title: n.title } : {}),
      ...(n.shareType === 'Send'
        ? { Items: n.itemIds.map((Id) => ({ Id })), MaxDownloads: n.maxDownloads, UsesStreamIDs: false }
        : { Parent: { Id: n.parentId ?? 'home' } }),
      ...(n.expirationDate ? { ExpirationDate: n.expirationDate } : {}),
      RequireLogin: n.requireLogin,
      RequireUserInfo: n.requireUserInfo,
      ...(n.shareType === 'Send' && n.isViewOnly ? { IsViewOnly: true } : {}),
      // Notification on use is the share's Settings.NotifyOnUse (ShareFile-NET Models/Share.cs, ShareSettings).
      Settings: { NotifyOnUse: notifyOnUse },
    };
    return pipe(
      this.share({ method: 'POST', path: '/Shares', query: { notify: false, direct: false }, body }, 'the new share', {
        includeItems: false,
        includeRecipients: false,
      }),
      // An answer without Settings keeps what was asked, so that a later resend carries the same setting.
      TE.map((s) =>
        n.shareType === 'Send'
          ? { ...s, NotifyOnDownload: s.NotifyOnDownload ?? notifyOnUse }
          : { ...s, NotifyOnUpload: s.NotifyOnUpload ?? notifyOnUse },
      ),
    );
  }

  update(id: string, c: ShareChanges): TaskEither<GatewayError, Share> {
    const body = {
      ...(c.title !== undefined ? { Title: c.title } : {}),
      ...(c.expirationDate !== undefined ? { ExpirationDate: c.expirationDate } : {}),
      ...(c.maxDownloads !== undefined ? { MaxDownloads: c.maxDownloads } : {}),
      ...(c.requireLogin !== undefined ? { RequireLogin: c.requireLogin } : {}),
      ...(c.requireUserInfo !== undefined ? { RequireUserInfo: c.requireUserInfo } : {}),
      ...(c.isViewOnly !== undefined ? { IsViewOnly: c.isViewOnly } : {}),
    };
    return this.share({ method: 'PATCH', path: sharePath(id), body, subject: ['share', id] }, 'the updated share', {
      includeItems: false,
      includeRecipients: false,
    });
  }

  /**
   * `GET Shares(id)/Download?redirect=false`: without an item id the action downloads all of the share's items,
   * one item under its own name, several as Files.zip; with redirect=true (the default) it answers 302 to the
   * download address, with redirect=false a DownloadSpecification whose DownloadUrl is that address.
   * Sources: ShareFile-NET SharesEntity.Download ("Downloads Share Items", query id/Name/Email/Company/redirect,
   * "Redirects the caller (302) to the download address for the share contents"), citrix/ShareFile-NET @
   * 679b33144720c2e40c749164ca4ddab4fec07a1f, src/ShareFile.Api.Client/Entities/SharesEntity.cs. The
   * redirect=false answer is the same DownloadSpecification as Items(id)/Download's (Models/DownloadSpecification.cs);
   * for Shares that is stated by a third-party copy of the reference (withone.ai, "Download a Share's Items": "If
   * redirect=false, the caller receives a DownloadSpecification object in a 200 response"), not by the SDK, so a
   * 302 is accepted too: its Location is then the address.
   */
  downloadLink(id: string): TaskEither<GatewayError, DownloadSpecification> {
    return this.call(
      {
        method: 'GET',
        path: `${sharePath(id)}/Download`,
        query: { redirect: false },
        subject: ['share', id],
        acceptRedirect: true,
      },
      (res) => downloadAnswer(res, "the share's download request"),
    );
  }

  delete(id: string): TaskEither<GatewayError, void> {
    return this.call({ method: 'DELETE', path: sharePath(id), subject: ['share', id] }, () => E.right(undefined));
  }
}

/** Share e-mails through ShareFile: `POST /Shares/Resend` (ShareFile sends them). */
export class ShareFileShareNotifier implements ShareNotifier {
  constructor(private readonly client: ShareFileClient) {}

  notify(n: ShareNotification): TaskEither<GatewayError, { readonly recipients: readonly string[] }> {
    const body = {
      ShareId: n.share.Id,
      Recipients: [...n.recipients],
      Subject: n.share.Title,
      Body: n.personalMessage ?? '',
      CcSender: n.ccSender,
      NotifyOnUse:
        n.share.ShareType === 'Send' ? (n.share.NotifyOnDownload ?? false) : (n.share.NotifyOnUpload ?? false),
    };
    return pipe(
      () => this.client.send({ method: 'POST', path: '/Shares/Resend', body, subject: ['share', n.share.Id] }),
      TE.map(() => ({ recipients: [...n.recipients] })),
    );
  }
}
