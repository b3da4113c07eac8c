import * as t from 'io-ts';
import { destructive, nullable, openObject, resultObject, Truncated } from '../runtime/results.js';

// The files tools' structured results (ShareFile's member names).

export const DownloadResult = resultObject(
  'DownloadSpecification',
  { 'odata.metadata': t.string, 'odata.type': t.string, DownloadUrl: t.string },
  { DownloadToken: t.string, ExpiresAt: t.string, FileName: t.string },
);

// A file or folder as ShareFile describes one (its member names), in full or as a summary (summary_only):
// the members agents use are named and typed; the item is open, as ShareFile adds members over time.
const itemMembers = {
  FileName: t.string,
  url: t.string,
  Parent: openObject('ParentRef', { Id: t.string }),
  CreationDate: t.string,
  ProgenyEditDate: t.string,
  Description: t.string,
  Path: t.string,
  FileSizeBytes: t.number,
  FileCount: t.number,
  MD5: t.string,
  VersionCount: t.number,
  IsDeleted: t.boolean,
};
const ItemCore = { Id: t.string, Name: t.string, 'odata.type': t.string };

export const ItemResult = openObject('Item', ItemCore, {
  ...itemMembers,
  Children: t.array(openObject('ChildItem', ItemCore, itemMembers)),
});

const Paged = { total_count: t.number, returned_count: t.number, has_more: t.boolean };

export const ItemListResult = resultObject(
  'ItemList',
  { folder_id: t.string, ...Paged, items: t.array(ItemResult) },
  { summary_only: t.literal(true), truncated: Truncated },
);

export const TopLevelFoldersResult = resultObject('TopLevelFolders', {
  description: t.string,
  count: t.number,
  folders: t.array(ItemResult),
});

export const SearchResultsResult = resultObject(
  'SearchResults',
  {
    query: t.string,
    search_scope: t.string,
    total_count: t.number,
    returned_count: t.number,
    partial_results: t.boolean,
    timed_out: t.boolean,
    results: t.array(
      openObject(
        'SearchHit',
        { Id: t.string, Name: t.string, ItemType: t.string, Path: t.string },
        { Size: t.number, CreationDate: t.string, ParentID: t.string, Score: t.number },
      ),
    ),
  },
  { summary_only: t.literal(true) },
);

/** copyItem and moveItem: the item where it now is, or the background operation a cross-zone move starts. */
export const TransferResult = t.union([
  ItemResult,
  resultObject('TransferOperation', {
    async: t.literal(true),
    message: t.string,
    operation_id: t.string,
    state: t.string,
    item_id: t.string,
    target_folder_id: t.string,
  }),
  resultObject('TransferUnseen', {
    copied: t.literal(true),
    found: t.literal(false),
    message: t.string,
    item_id: t.string,
    target_folder_id: t.string,
  }),
]);

export const FileTextResult = t.union([
  resultObject('FileText', {
    item_id: t.string,
    name: t.string,
    format: t.string,
    offset: t.number,
    next_offset: nullable(t.number),
    total_chars: t.number,
    text: t.string,
  }),
  resultObject('UnreadableFile', {
    item_id: t.string,
    name: t.string,
    readable: t.literal(false),
    reason: t.string,
    download_url: nullable(t.string),
  }),
]);

export const UploadResult = openObject(
  'UploadSpecification',
  { 'odata.type': t.string, Method: t.string, ChunkUri: t.string },
  { FinishUri: t.string, ExpiresAt: t.string, ChunkSizeBytes: t.number },
);

export const ShareResult = openObject(
  'Share',
  { Id: t.string, ShareType: t.string, Title: t.string, Uri: t.string },
  {
    ExpirationDate: t.string,
    MaxDownloads: t.number,
    TotalDownloads: t.number,
    CreationDate: t.string,
    RequireLogin: t.boolean,
    IsViewOnly: t.boolean,
    Items: t.array(ItemResult),
    notified_recipients: t.array(t.string),
    // A Send share's direct download address (no landing page), or why it has none.
    download_url: t.string,
    download_url_expires_at: t.string,
    download_unavailable: t.string,
  },
);

export const ShareListResult = resultObject(
  'ShareList',
  { ...Paged, shares: t.array(ShareResult) },
  { summary_only: t.literal(true), truncated: Truncated, total_count_is_lower_bound: t.literal(true), note: t.string },
);

export const ShareNotificationResult = resultObject('ShareNotification', {
  message: t.string,
  recipients: t.array(t.string),
});

export const DeletedItemResult = destructive(
  resultObject('DeletedItem', { message: t.string, single_version: t.boolean }),
);

export const DeletedShareResult = destructive(resultObject('DeletedShare', { message: t.string }));
