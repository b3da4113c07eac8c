import type { Item, ItemType } from '../../../domain/files/item.js';
import type { ItemSearch, SearchResult, SearchResults } from '../../../domain/files/search.js';
import type { Share, ShareType } from '../../../domain/files/share.js';
import type {
  DownloadSpecification,
  UploadMethod,
  UploadRequest,
  UploadSpecification,
} from '../../../domain/files/transfer.js';
import type { AxiosResponse } from 'axios';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import {
  decodeShareFile,
  SfDownloadSpecification,
  type SfItem,
  type SfSearchResult,
  type SfSearchResults,
  type SfShare,
  type SfUploadSpecification,
} from './sharefile-codecs.js';

// ShareFile's items, shares, search results and transfer specifications as the domain's, and the
// domain's searches and upload requests as ShareFile's request bodies.

export const itemTypeOf = (odataType: string | undefined): ItemType =>
  /Folder$/i.test(odataType ?? '') || /Folder/.test(odataType ?? '') ? 'Folder' : 'File';

export const toItem = (sf: SfItem): Item => ({
  Id: sf.Id,
  type: itemTypeOf(sf['odata.type']),
  Name: sf.Name ?? sf.FileName ?? sf.Id,
  FileName: sf.FileName ?? sf.Name ?? sf.Id,
  url: sf.url ?? '',
  ...(sf.Parent?.Id ? { Parent: { Id: sf.Parent.Id, ...(sf.Parent.url ? { url: sf.Parent.url } : {}) } } : {}),
  CreationDate: sf.CreationDate ?? '',
  ...(sf.ProgenyEditDate ? { ProgenyEditDate: sf.ProgenyEditDate } : {}),
  ...(sf.Description ? { Description: sf.Description } : {}),
  ...(sf.ExpirationDate && !sf.ExpirationDate.startsWith('9999') ? { ExpirationDate: sf.ExpirationDate } : {}),
  ...(sf.Path ? { Path: sf.Path } : {}),
  ...(sf.Creator?.Id ? { CreatorId: sf.Creator.Id } : {}),
  ...(sf.Creator?.FirstName ? { CreatorFirstName: sf.Creator.FirstName } : {}),
  ...(sf.Creator?.LastName ? { CreatorLastName: sf.Creator.LastName } : {}),
  FileSizeBytes: sf.FileSizeBytes ?? 0,
  FileCount: sf.FileCount ?? 0,
  ...(sf.State !== undefined ? { State: sf.State } : {}),
  ...(sf.StreamID ? { StreamID: sf.StreamID } : {}),
  ...(sf.Info ? { Info: sf.Info } : {}),
  ...(sf.Hash ? { MD5: sf.Hash } : {}),
  ...(sf.Children ? { Children: sf.Children.map(toItem) } : {}),
});

export const toShare = (s: SfShare): Share => ({
  Id: s.Id,
  ShareType: (s.ShareType === 'Request' ? 'Request' : 'Send') as ShareType,
  Title: s.Title ?? '',
  CreationDate: s.CreationDate ?? '',
  ...(s.ExpirationDate ? { ExpirationDate: s.ExpirationDate } : {}),
  MaxDownloads: s.MaxDownloads ?? -1,
  TotalDownloads: s.TotalDownloads ?? 0,
  RequireLogin: s.RequireLogin ?? false,
  RequireUserInfo: s.RequireUserInfo ?? false,
  IsViewOnly: s.IsViewOnly ?? false,
  IsArchived: s.IsArchived ?? false,
  HasSentMessage: s.HasSentMessage ?? false,
  UsesStreamIDs: s.UsesStreamIDs ?? false,
  ...(s.ShareAccessLevel ? { ShareAccessLevel: s.ShareAccessLevel } : {}),
  ...(s.ShareSubType ? { ShareSubType: s.ShareSubType } : {}),
  // One setting, NotifyOnUse: a download of a Send share, an upload to a Request share.
  ...(s.Settings?.NotifyOnUse !== undefined
    ? s.ShareType === 'Request'
      ? { NotifyOnUpload: s.Settings.NotifyOnUse }
      : { NotifyOnDownload: s.Settings.NotifyOnUse }
    : {}),
  Uri: s.Uri ?? '',
  url: s.url ?? '',
  ItemIds: (s.Items ?? []).map((i) => i.Id),
  ...(s.Parent?.Id ? { ParentId: s.Parent.Id } : {}),
  ...(s.Items ? { Items: s.Items.map(toItem) } : {}),
  ...(s.Recipients
    ? {
        Recipients: s.Recipients.flatMap((r) =>
          r.User?.Email ? [{ email: r.User.Email, ...(r.User.FullName ? { name: r.User.FullName } : {}) }] : [],
        ),
      }
    : {}),
});

/**
 * The AdvancedSimpleSearch body. Members the search does not use are left out, as the official .NET SDK leaves
 * out null members (`NullValueHandling.Ignore`, citrix/ShareFile-NET @ 679b331 ShareFileClient.cs; `SimpleQuery`
 * in Models/SimpleQuery.cs). `parent` is the folder id the search is limited to: the store resolves the
 * aliases `home` and `allshared` (the personal and shared scopes) to folder ids first (docs/decisions.md,
 * Issue 31: the doubtful points of ShareFile and Podio).
 */
export const toSearchRequest = (s: ItemSearch, parent: string | undefined) => {
  return {
    Query: {
      ...(s.itemTypes?.length === 1 ? { ItemType: s.itemTypes[0] } : {}),
      ...(parent !== undefined ? { ParentID: parent } : {}),
      ...(s.creatorId !== undefined ? { CreatorID: s.creatorId } : {}),
      SearchQuery: s.query,
      ...(s.createdFrom !== undefined ? { CreateStartDate: s.createdFrom } : {}),
      ...(s.createdTo !== undefined ? { CreateEndDate: s.createdTo } : {}),
      ItemNameOnly: s.namesOnly,
    },
    Paging: { Count: s.top, Skip: 0 },
    TimeoutInSeconds: 10,
  };
};

export const toSearchResult = (x: SfSearchResult, i: number): SearchResult => ({
  Id: x.ItemID,
  Name: x.DisplayName ?? x.FileName ?? x.ItemID,
  FileName: x.FileName ?? x.DisplayName ?? x.ItemID,
  DisplayName: x.DisplayName ?? x.FileName ?? x.ItemID,
  ItemType: /folder/i.test(x.ItemType ?? '') ? 'folder' : 'file',
  ...(x.Path ? { Path: x.Path } : {}),
  Rank: x.Rank ?? i + 1,
  Score: x.Score ?? 0,
  ...(x.ParentID ? { ParentID: x.ParentID } : {}),
  ...(x.ParentName ? { ParentName: x.ParentName } : {}),
  ...(x.ParentSemanticPath ? { ParentSemanticPath: x.ParentSemanticPath } : {}),
  Size: x.Size ?? 0,
  ...(x.CreatorName ? { CreatorName: x.CreatorName } : {}),
  ...(x.CreationDate ? { CreationDate: x.CreationDate } : {}),
  ...(x.MD5 ? { MD5: x.MD5 } : {}),
  ...(x.VirusStatus !== undefined ? { VirusStatus: x.VirusStatus } : {}),
  ...(x.CanDownload !== undefined ? { CanDownload: x.CanDownload } : {}),
  ...(x.CanView !== undefined ? { CanView: x.CanView } : {}),
  ...(x.CanDelete !== undefined ? { CanDelete: x.CanDelete } : {}),
});

export const toSearchResults = (r: SfSearchResults, top: number): SearchResults => ({
  totalCount: r.TotalCount ?? r['odata.count'] ?? r.Results.length,
  partialResults: r.PartialResults ?? false,
  timedOut: r.TimedOut ?? false,
  results: r.Results.slice(0, top).map(toSearchResult),
});

export const toDownloadSpecification = (d: SfDownloadSpecification): DownloadSpecification => ({
  DownloadUrl: d.DownloadUrl,
  ...(d.DownloadToken ? { DownloadToken: d.DownloadToken } : {}),
});

/**
 * The answer of a `Download` action asked with redirect=false: a DownloadSpecification, or, from a provider
 * that redirects anyway, a 302 whose Location is the address.
 */
export const downloadAnswer = (res: AxiosResponse, what: string): Either<GatewayError, DownloadSpecification> => {
  const location: unknown = res.headers['location'];
  if (res.status >= 300 && res.status < 400 && typeof location === 'string' && /^https?:\/\//i.test(location))
    return E.right(toDownloadSpecification({ DownloadUrl: location }));
  return E.map(toDownloadSpecification)(decodeShareFile(SfDownloadSpecification, res.data, what));
};

export const toUploadRequest = (r: UploadRequest, method: UploadMethod) => ({
  Method: method,
  Raw: true,
  FileName: r.fileName,
  ...(r.fileSize !== undefined ? { FileSize: r.fileSize } : {}),
  ...(r.batchId ? { BatchId: r.batchId } : {}),
  ...(r.batchLast !== undefined ? { BatchLast: r.batchLast } : {}),
  CanResume: r.canResume,
  StartOver: r.startOver,
  Overwrite: r.overwrite,
  ...(r.title ? { Title: r.title } : {}),
  ...(r.details ? { Details: r.details } : {}),
  Notify: r.notify,
  ...(method === 'Threaded' ? { ThreadCount: 4 } : {}),
});

export const toUploadSpecification = (u: SfUploadSpecification, method: UploadMethod): UploadSpecification => ({
  Method: (['Standard', 'Streamed', 'Threaded'].includes(u.Method) ? u.Method : method) as UploadMethod,
  ChunkUri: u.ChunkUri,
  ...(u.FinishUri ? { FinishUri: u.FinishUri } : {}),
  ...(u.PrepareUri ? { PrepareUri: u.PrepareUri } : {}),
  IsResume: u.IsResume ?? false,
  ResumeIndex: u.ResumeIndex ?? 0,
  ResumeOffset: u.ResumeOffset ?? 0,
  ...(u.ResumeFileHash ? { ResumeFileHash: u.ResumeFileHash } : {}),
  MaxNumberOfThreads: u.MaxNumberOfThreads ?? 1,
});
