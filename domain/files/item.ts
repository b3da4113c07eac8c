// Files and folders as the files tools see them: ShareFile's Item fields, plus versions and the recycle bin.

export type ItemType = 'Folder' | 'File';

/** The container aliases (ShareFile's special folder ids). getItem accepts all; listChildren the first four. */
export const ITEM_ALIASES = ['home', 'allshared', 'favorites', 'top', 'box', 'connectors'] as const;
export type ItemAlias = (typeof ITEM_ALIASES)[number];
export const LISTABLE_ALIASES = ['home', 'allshared', 'favorites', 'top'] as const;

export const isAlias = (id: string): id is ItemAlias => (ITEM_ALIASES as readonly string[]).includes(id);

export interface ItemInfo {
  readonly IsAHomeFolder?: boolean;
  readonly IsMyHomeFolder?: boolean;
  readonly IsSharedFolder?: boolean;
  readonly CanUpload?: boolean;
  readonly CanDownload?: boolean;
  readonly CanView?: boolean;
  readonly CanDeleteCurrentItem?: boolean;
  readonly CanManagePermissions?: boolean;
}

export interface ItemRef {
  readonly Id: string;
  readonly url?: string;
}

export interface Item {
  readonly Id: string;
  readonly type: ItemType;
  readonly Name: string;
  readonly FileName: string;
  readonly url: string;
  readonly Parent?: ItemRef;
  readonly CreationDate: string;
  readonly ProgenyEditDate?: string;
  readonly Description?: string;
  readonly ExpirationDate?: string;
  readonly Path?: string;
  readonly CreatorId?: string;
  readonly CreatorFirstName?: string;
  readonly CreatorLastName?: string;
  readonly FileSizeBytes: number;
  readonly FileCount: number;
  readonly State?: number;
  readonly StreamID?: string;
  readonly Info?: ItemInfo;
  /** MD5 of the current version's bytes (files). */
  readonly MD5?: string;
  /** Number of versions of a file (1 when it has no history). */
  readonly VersionCount?: number;
  /** True for an item in the recycle bin (only seen with include_deleted). */
  readonly IsDeleted?: boolean;
  readonly Children?: readonly Item[];
}

export interface ItemPage {
  readonly folderId: string;
  readonly totalCount: number;
  readonly items: readonly Item[];
}

/** What a copy or move produced: the item, or an asynchronous operation the storage runs later. */
export type TransferOutcome =
  | { readonly kind: 'done'; readonly item: Item }
  | {
      readonly kind: 'async';
      readonly operationId?: string;
      readonly state?: string;
      readonly itemId: string;
      readonly targetId: string;
    }
  /** The vendor said the copy was made, but it is not listed in the target yet (ShareFile's copy answer names none). */
  | { readonly kind: 'unseen'; readonly itemId: string; readonly name: string; readonly targetId: string };

/**
 * Whether `name` is `source` or the name ShareFile gives a copy beside a same-named item: `<base> (n).<ext>`
 * (`<name> (n)` without an extension).
 */
export const isCopyName = (source: string, name: string): boolean => {
  if (name === source) return true;
  const dot = source.lastIndexOf('.');
  const [base, ext] = dot > 0 ? [source.slice(0, dot), source.slice(dot)] : [source, ''];
  if (!name.startsWith(`${base} (`) || !name.endsWith(`)${ext}`)) return false;
  return /^\d+$/.test(name.slice(base.length + 2, name.length - ext.length - 1));
};

export interface TopLevelFolders {
  readonly folders: readonly Item[];
}

/** The name rule shared by folders and files: no path separators or control characters, not blank. */
export const nameProblem = (name: string): string | undefined => {
  const n = name.trim();
  if (!n) return 'The name is blank.';
  if (n.length > 255) return 'The name is longer than 255 characters.';
  // eslint-disable-next-line no-control-regex -- control characters are refused in names
  if (/[\\/:*?"<>|\u0000-\u001f]/.test(n))
    return 'The name contains a character that is not allowed (\\ / : * ? " < > | or a control character).';
  if (n === '.' || n === '..') return 'The name "." or ".." is not allowed.';
  return undefined;
};

export const sameName = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

const TEXT_EXTENSIONS = new Set([
  'txt',
  'md',
  'csv',
  'tsv',
  'json',
  'xml',
  'html',
  'htm',
  'log',
  'yaml',
  'yml',
  'ini',
  'eml',
  'rtf',
]);

/** Whether a file's content is searched as text: a known text extension, or bytes that decode without control noise. */
export const isTextContent = (fileName: string, bytes: Uint8Array): boolean => {
  const ext = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase() : '';
  if (TEXT_EXTENSIONS.has(ext)) return true;
  const sample = bytes.subarray(0, 4096);
  for (const b of sample) if (b === 0) return false;
  return sample.length > 0;
};

const CONTENT_TYPES: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  html: 'text/html; charset=utf-8',
  xml: 'application/xml',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export const contentTypeOf = (fileName: string): string => {
  const ext = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase() : '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
};

/** "report.txt" -> "report (1).txt": the name a file gets when another of that name exists and overwrite is off. */
export const numberedName = (name: string, n: number): string => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
};
