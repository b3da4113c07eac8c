import type { Item } from '../../domain/files/item.js';
import type { DirectDownloadRefusal, Share } from '../../domain/files/share.js';
import { described, NonEmptyString, t } from '../runtime/codecs.js';
import type { DefaultedType, DescribedType } from '../runtime/json-schema.js';
import { fields, joinBlocks, plural, renderPage, type Cell, type Presentation } from '../runtime/markdown.js';

// The files group's payloads (ShareFile's shapes, with `odata.type`) and the text a model reads.

export const TYPE_PREFIX = 'Files.Api.Models.';

export const ItemIdParam = (what: string) => described(NonEmptyString, what);
/** A boolean parameter; with a fallback, an absent flag decodes to it. */
export function flag(description: string): DescribedType<t.BooleanC>;
export function flag(description: string, fallback: boolean): DefaultedType<t.BooleanC>;
export function flag(description: string, fallback?: boolean): DescribedType<t.BooleanC> {
  return fallback === undefined ? described(t.boolean, description) : described(t.boolean, description, fallback);
}

const defined = <T extends Record<string, unknown>>(o: T): T => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
};

export const itemJson = (i: Item): Record<string, unknown> =>
  defined({
    'odata.type': TYPE_PREFIX + i.type,
    Id: i.Id,
    Name: i.Name,
    FileName: i.FileName,
    url: i.url,
    Parent: i.Parent ? defined({ 'odata.type': `${TYPE_PREFIX}Item`, Id: i.Parent.Id, url: i.Parent.url }) : undefined,
    CreationDate: i.CreationDate,
    ProgenyEditDate: i.ProgenyEditDate,
    Description: i.Description,
    ExpirationDate: i.ExpirationDate,
    Path: i.Path,
    CreatorFirstName: i.CreatorFirstName,
    CreatorLastName: i.CreatorLastName,
    FileSizeBytes: i.FileSizeBytes,
    FileCount: i.FileCount,
    State: i.State,
    StreamID: i.StreamID,
    MD5: i.MD5,
    VersionCount: i.VersionCount,
    IsDeleted: i.IsDeleted,
    Info: i.Info ? { 'odata.type': `${TYPE_PREFIX}ItemInfo`, ...i.Info } : undefined,
    Children: i.Children?.map(itemJson),
  });

export const itemSummaryJson = (i: Item, withProgeny = false): Record<string, unknown> =>
  defined({
    Id: i.Id,
    Name: i.Name,
    'odata.type': TYPE_PREFIX + i.type,
    FileSizeBytes: i.FileSizeBytes,
    CreationDate: i.CreationDate,
    ProgenyEditDate: withProgeny ? i.ProgenyEditDate : undefined,
    IsDeleted: i.IsDeleted,
  });

export const size = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
};

const date = (iso: string | undefined): string | undefined =>
  iso
    ? iso
        .replace(/\.\d{3}Z$/, 'Z')
        .replace('T', ' ')
        .replace('Z', ' UTC')
    : undefined;

export const kindWord = (i: Item): string => (i.type === 'Folder' ? 'Folder' : 'File');

export const itemHeading = (i: Item): string => `## ${kindWord(i)} "${i.Name}" (id ${i.Id})`;

/** The columns and rows of a table of items (a folder's contents, a share's items). */
export const itemRows = (items: readonly Item[]): { columns: string[]; rows: Cell[][] } => ({
  columns: ['id', 'name', 'type', 'size', 'created', ...(items.some((i) => i.IsDeleted) ? ['deleted'] : [])],
  rows: items.map((i) => [
    i.Id,
    i.Name,
    i.type === 'Folder' ? `folder (${plural(i.FileCount, 'file')})` : 'file',
    size(i.FileSizeBytes),
    date(i.CreationDate),
    ...(i.IsDeleted ? ['in recycle bin'] : []),
  ]),
});

/**
 * An item: its heading and fields and, for a folder read with its children, its contents as a page of rows
 * (the output budget cuts them; files_listChildren pages through the rest).
 */
export const itemPresentation = (i: Item, after?: string): Presentation => {
  const about = joinBlocks(
    itemHeading(i),
    fields([
      ['Path', i.Path],
      ['Parent', i.Parent?.Id],
      ['Size', `${size(i.FileSizeBytes)} (${i.FileSizeBytes} bytes)`],
      ['Files inside', i.type === 'Folder' ? i.FileCount : undefined],
      ['Versions', i.VersionCount !== undefined && i.VersionCount > 1 ? i.VersionCount : undefined],
      ['MD5', i.MD5],
      ['Created', date(i.CreationDate)],
      ['Last change inside', date(i.ProgenyEditDate)],
      ['Creator', [i.CreatorFirstName, i.CreatorLastName].filter(Boolean).join(' ') || undefined],
      ['Description', i.Description],
      ['Expires', date(i.ExpirationDate)],
      ['Status', i.IsDeleted ? 'in the recycle bin' : undefined],
      ['url', i.url],
    ]),
  );
  if (!i.Children) return joinBlocks(about, after);
  if (!i.Children.length) return joinBlocks(about, '### Contents\n\nThe folder is empty.', after);
  return { before: `${about}\n\n### Contents (${i.Children.length})`, ...itemRows(i.Children), after };
};

export const itemText = (i: Item): string => {
  const out = itemPresentation(i);
  return typeof out === 'string' ? out : renderPage(out);
};

const NO_DIRECT_DOWNLOAD: Record<DirectDownloadRefusal, string> = {
  expired: 'the share has expired',
  'view-only': 'the share is view-only',
  'download-limit': 'all of its downloads are used',
  'wrong-type': 'a Request share collects uploads',
  'sign-in': 'recipients must sign in on the landing page',
  'visitor-details': 'recipients give their name and e-mail on the landing page first',
};

/** Why a Send share's answer carries no direct download address, in words; undefined when it carries one. */
const noDirectDownload = (s: Share): string | undefined => {
  const d = s.DirectDownload;
  if (!d || d.kind === 'link') return undefined;
  return d.kind === 'none'
    ? `none: ${NO_DIRECT_DOWNLOAD[d.reason]}`
    : `not available just now (${d.message}); the landing page still works`;
};

/** A Send share's direct download in the payload: `download_url`, or `download_unavailable` saying why not. */
const directDownloadJson = (s: Share): Record<string, string> => {
  const d = s.DirectDownload;
  if (d?.kind === 'link')
    return { download_url: d.url, ...(d.expiresAt ? { download_url_expires_at: d.expiresAt } : {}) };
  const why = noDirectDownload(s);
  return why ? { download_unavailable: why } : {};
};

/** The direct download line of a share's text: the address and what it gives, or why there is none. */
const directDownloadText = (s: Share): string | undefined => {
  const d = s.DirectDownload;
  if (d?.kind !== 'link') return noDirectDownload(s);
  const what = d.fileName === 'Files.zip' ? 'all the files as one zip' : d.fileName ? `"${d.fileName}" itself` : '';
  const until = d.expiresAt ? `, works until ${date(d.expiresAt)}` : '';
  return `${d.url}${what || until ? ` (${what}${what ? until : until.slice(2)})` : ''}`;
};

export const shareJson = (s: Share, itemJsonOf: (i: Item) => unknown = itemJson): Record<string, unknown> =>
  defined({
    'odata.type': `${TYPE_PREFIX}Share`,
    Id: s.Id,
    AliasID: s.Id,
    ShareType: s.ShareType,
    Title: s.Title,
    HasSentMessage: s.HasSentMessage,
    RequireLogin: s.RequireLogin,
    RequireUserInfo: s.RequireUserInfo,
    IsViewOnly: s.IsViewOnly,
    IsArchived: s.IsArchived,
    UsesStreamIDs: s.UsesStreamIDs,
    ShareAccessLevel: s.ShareAccessLevel,
    ShareSubType: s.ShareSubType,
    CreationDate: s.CreationDate,
    ExpirationDate: s.ExpirationDate,
    MaxDownloads: s.MaxDownloads,
    TotalDownloads: s.TotalDownloads,
    Uri: s.Uri,
    ...directDownloadJson(s),
    ShareAccessRight: {
      'odata.type': `${TYPE_PREFIX}ShareAccessRight`,
      DisplayText: s.IsViewOnly ? 'View Only' : 'Full Control',
      AccessRightType: s.IsViewOnly ? 'ViewOnly' : 'FullControl',
      IsWatermarked: false,
      IsViewOnly: s.IsViewOnly,
    },
    Parent: s.ParentId ? { 'odata.type': `${TYPE_PREFIX}Item`, Id: s.ParentId } : undefined,
    Items: s.Items?.map(itemJsonOf),
    Recipients: s.Recipients?.map((r) => defined({ Email: r.email, Name: r.name })),
    url: s.url,
  });

export const shareSummaryJson = (s: Share, extra: 'get' | 'list'): Record<string, unknown> =>
  defined({
    Id: s.Id,
    ShareType: s.ShareType,
    Title: s.Title,
    Uri: s.Uri,
    ...directDownloadJson(s),
    ExpirationDate: s.ExpirationDate,
    TotalDownloads: s.TotalDownloads,
    ...(extra === 'get' ? { MaxDownloads: s.MaxDownloads } : { CreationDate: s.CreationDate }),
  });

export const downloadsText = (s: Share): string =>
  `${s.TotalDownloads} of ${s.MaxDownloads < 0 ? 'unlimited' : s.MaxDownloads}`;

export const expiryText = (s: Share, now?: Date): string | undefined => {
  if (!s.ExpirationDate) return 'never';
  if (s.ExpirationDate.startsWith('9999')) return 'never';
  const expired = now ? Date.parse(s.ExpirationDate) <= now.getTime() : false;
  return `${date(s.ExpirationDate)}${expired ? ' (expired)' : ''}`;
};

/**
 * A share: its heading and fields and, when read with its items, the shared items as a page of rows (the
 * output budget cuts them, with the note to ask with format=json for all of them).
 */
export const sharePresentation = (
  s: Share,
  heading = `## ${s.ShareType} share "${s.Title}" (id ${s.Id})`,
  after?: string,
): Presentation => {
  const about = joinBlocks(
    heading,
    fields([
      ['Direct download', directDownloadText(s)],
      [s.ShareType === 'Send' ? 'Landing page' : 'Upload page', s.Uri],
      [
        'Type',
        s.ShareType === 'Send'
          ? 'Send (recipients download the shared files)'
          : 'Request (recipients upload files into the folder)',
      ],
      ['Destination folder', s.ParentId],
      ['Downloads', s.ShareType === 'Send' ? downloadsText(s) : undefined],
      ['Expires', expiryText(s)],
      ['Created', date(s.CreationDate)],
      ['View only', s.IsViewOnly ? 'yes (no downloads)' : undefined],
      ['Sign-in required', s.RequireLogin ? 'yes' : undefined],
      ['Asks visitors for name and e-mail', s.RequireUserInfo ? 'yes' : undefined],
      ['Notification sent', s.HasSentMessage ? 'yes' : undefined],
    ]),
  );
  const recipients = s.Recipients
    ? s.Recipients.length
      ? `### Recipients\n\n${s.Recipients.map((r) => `- ${r.email}`).join('\n')}`
      : '### Recipients\n\nNone yet.'
    : undefined;
  if (s.Items?.length) {
    return {
      before: `${about}\n\n### Items (${s.Items.length})`,
      ...itemRows(s.Items),
      after: joinBlocks(recipients, after),
    };
  }
  const items = s.Items ? '### Items\n\nNo shared items remain (they may have been deleted).' : undefined;
  return joinBlocks(about, items, recipients, after);
};

export const shareText = (s: Share, heading?: string): string => {
  const out = sharePresentation(s, heading);
  return typeof out === 'string' ? out : renderPage(out);
};

export { date as displayDate };
