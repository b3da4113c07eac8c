import type { Item } from '../../../domain/files/item.js';
import type { Share } from '../../../domain/files/share.js';
import type { Json } from './exchange.js';

// Items and shares in ShareFile's shapes (`ShareFile.Api.Models.*`), with their OData addresses under `api`.

export const sfItem = (api: string, i: Item): Json => ({
  'odata.metadata': `${api}/$metadata#Items/ShareFile.Api.Models.${i.type}@Element`,
  'odata.type': `ShareFile.Api.Models.${i.type}`,
  Id: i.Id,
  url: `${api}/Items(${i.Id})`,
  Name: i.Name,
  FileName: i.FileName,
  CreationDate: i.CreationDate,
  ProgenyEditDate: i.ProgenyEditDate,
  Description: i.Description ?? '',
  ExpirationDate: i.ExpirationDate ?? '9999-12-31T23:59:59.9999999Z',
  Path: i.Path,
  FileSizeBytes: i.FileSizeBytes,
  ...(i.type === 'Folder'
    ? { FileCount: i.FileCount, Info: { 'odata.type': 'ShareFile.Api.Models.ItemInfo', ...i.Info } }
    : { Hash: i.MD5, HasMultipleVersions: (i.VersionCount ?? 1) > 1 }),
  StreamID: i.StreamID,
  Creator: { Id: i.CreatorId, FirstName: i.CreatorFirstName, LastName: i.CreatorLastName },
  ...(i.Parent
    ? { Parent: { 'odata.type': 'ShareFile.Api.Models.Item', Id: i.Parent.Id, url: `${api}/Items(${i.Parent.Id})` } }
    : {}),
  ...(i.Children ? { Children: i.Children.map((c) => sfItem(api, c)) } : {}),
});

export const sfShare = (api: string, s: Share, expand: string[]): Json => ({
  'odata.type': 'ShareFile.Api.Models.Share',
  Id: s.Id,
  AliasID: s.Id,
  url: `${api}/Shares(${s.Id})`,
  ShareType: s.ShareType,
  Title: s.Title,
  HasSentMessage: s.HasSentMessage,
  RequireLogin: s.RequireLogin,
  RequireUserInfo: s.RequireUserInfo,
  IsViewOnly: s.IsViewOnly,
  IsArchived: false,
  UsesStreamIDs: false,
  ShareAccessLevel: s.ShareAccessLevel,
  ShareSubType: 'None',
  CreationDate: s.CreationDate,
  ExpirationDate: s.ExpirationDate,
  MaxDownloads: s.MaxDownloads,
  TotalDownloads: s.TotalDownloads,
  Uri: s.Uri,
  Settings: { NotifyOnUse: (s.ShareType === 'Request' ? s.NotifyOnUpload : s.NotifyOnDownload) ?? false },
  ...(s.ParentId ? { Parent: { Id: s.ParentId } } : {}),
  ...(expand.includes('Items') ? { Items: (s.Items ?? []).map((i) => sfItem(api, i)) } : {}),
  ...(expand.includes('Recipients')
    ? { Recipients: (s.Recipients ?? []).map((r) => ({ User: { Email: r.email } })) }
    : {}),
});
