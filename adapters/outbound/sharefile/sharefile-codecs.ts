import * as t from 'io-ts';
import { PathReporter } from 'io-ts/lib/PathReporter.js';
import { upstreamFailure, type UpstreamFailure } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import { lenient } from '../http/vendor-codecs.js';

// ShareFile v3 (OData JSON Light) payloads, as far as the gateway reads them. Fields that are optional
// or unverified are lenient: one odd field must not fail a whole answer.

const str = lenient(t.string);
const num = lenient(t.number);
const bool = lenient(t.boolean);

export const SfInfo = t.partial({
  IsAHomeFolder: t.boolean,
  IsMyHomeFolder: t.boolean,
  IsSharedFolder: t.boolean,
  CanUpload: t.boolean,
  CanDownload: t.boolean,
  CanView: t.boolean,
  CanDeleteCurrentItem: t.boolean,
  CanManagePermissions: t.boolean,
});

export interface SfItem {
  readonly 'odata.type'?: string;
  readonly Id: string;
  readonly Name?: string;
  readonly FileName?: string;
  readonly url?: string;
  readonly CreationDate?: string;
  readonly ProgenyEditDate?: string;
  readonly Description?: string;
  readonly ExpirationDate?: string;
  readonly Path?: string;
  readonly FileSizeBytes?: number;
  readonly FileCount?: number;
  readonly State?: number;
  readonly StreamID?: string;
  readonly Hash?: string;
  readonly HasMultipleVersions?: boolean;
  readonly Parent?: { readonly Id?: string; readonly url?: string };
  readonly Creator?: { readonly Id?: string; readonly FirstName?: string; readonly LastName?: string };
  readonly Info?: t.TypeOf<typeof SfInfo>;
  readonly Children?: readonly SfItem[];
}

export const SfItem: t.Type<SfItem, unknown, unknown> = t.recursion(
  'SfItem',
  () =>
    t.intersection([
      t.type({ Id: t.string }),
      t.partial({
        'odata.type': str,
        Name: str,
        FileName: str,
        url: str,
        CreationDate: str,
        ProgenyEditDate: str,
        Description: str,
        ExpirationDate: str,
        Path: str,
        FileSizeBytes: num,
        FileCount: num,
        State: num,
        StreamID: str,
        Hash: str,
        HasMultipleVersions: bool,
        Parent: lenient(t.partial({ Id: t.string, url: t.string })),
        Creator: lenient(t.partial({ Id: t.string, FirstName: t.string, LastName: t.string })),
        Info: lenient(SfInfo),
        Children: lenient(t.array(SfItem)),
      }),
    ]) as unknown as t.Type<SfItem, unknown, unknown>,
);

export const SfFeed = <C extends t.Mixed>(codec: C) =>
  t.intersection([t.type({ value: t.array(codec) }), t.partial({ 'odata.count': num, 'odata.nextLink': str })]);

export const SfAsyncOperation = t.intersection([
  t.type({ 'odata.type': t.string }),
  t.partial({
    Id: str,
    State: str,
    Operation: str,
    Source: lenient(t.partial({ Id: t.string })),
    Target: lenient(t.partial({ Id: t.string })),
  }),
]);

export const SfSearchResult = t.intersection([
  t.type({ ItemID: t.string }),
  t.partial({
    Rank: num,
    Score: num,
    ParentID: str,
    ParentName: str,
    ParentSemanticPath: str,
    ItemType: str,
    FileName: str,
    DisplayName: str,
    Size: num,
    CreatorID: str,
    CreatorName: str,
    CreationDate: str,
    MD5: str,
    VirusStatus: num,
    CanDownload: bool,
    CanView: bool,
    CanDelete: bool,
    Path: str,
  }),
]);

export type SfSearchResult = t.TypeOf<typeof SfSearchResult>;

export const SfSearchResults = t.intersection([
  t.type({ Results: t.array(SfSearchResult) }),
  t.partial({ PartialResults: bool, TimedOut: bool, 'odata.count': num, TotalCount: num }),
]);
export type SfSearchResults = t.TypeOf<typeof SfSearchResults>;

export const SfDownloadSpecification = t.intersection([
  t.type({ DownloadUrl: t.string }),
  t.partial({ DownloadToken: str }),
]);
export type SfDownloadSpecification = t.TypeOf<typeof SfDownloadSpecification>;

export const SfUploadSpecification = t.intersection([
  t.type({ Method: t.string, ChunkUri: t.string }),
  t.partial({
    FinishUri: str,
    PrepareUri: str,
    IsResume: bool,
    ResumeIndex: num,
    ResumeOffset: num,
    ResumeFileHash: str,
    MaxNumberOfThreads: num,
  }),
]);
export type SfUploadSpecification = t.TypeOf<typeof SfUploadSpecification>;

export const SfShare = t.intersection([
  t.type({ Id: t.string }),
  t.partial({
    url: str,
    AliasID: str,
    ShareType: str,
    Title: str,
    HasSentMessage: bool,
    RequireLogin: bool,
    RequireUserInfo: bool,
    IsViewOnly: bool,
    IsArchived: bool,
    UsesStreamIDs: bool,
    ShareAccessLevel: str,
    ShareSubType: str,
    CreationDate: str,
    ExpirationDate: str,
    MaxDownloads: num,
    TotalDownloads: num,
    Uri: str,
    Parent: lenient(t.partial({ Id: t.string })),
    /** ShareFile-NET Models/Share.cs `Settings` (ShareSettings: `NotifyOnUse`). */
    Settings: lenient(t.partial({ NotifyOnUse: bool })),
    Items: lenient(t.array(SfItem)),
    Recipients: lenient(t.array(t.partial({ User: t.partial({ Id: t.string, Email: t.string, FullName: t.string }) }))),
  }),
]);
export type SfShare = t.TypeOf<typeof SfShare>;

export const SfToken = t.intersection([
  t.type({ access_token: t.string }),
  t.partial({
    refresh_token: str,
    expires_in: lenient(t.union([t.number, t.string])),
    subdomain: str,
    apicp: str,
    appcp: str,
  }),
]);

/** ShareFile error bodies: top-level `code` + `message.value`, the OData `odata.error` wrapper, or OAuth's `error_description`. */
export const errorMessageOf = (body: unknown): string | undefined => {
  if (typeof body === 'string') return body.trim() ? body.trim().slice(0, 300) : undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const valueOf = (m: unknown): string | undefined => {
    if (typeof m === 'string') return m;
    if (m && typeof m === 'object' && typeof (m as Record<string, unknown>)['value'] === 'string')
      return (m as Record<string, string>)['value'];
    return undefined;
  };
  const wrapped = b['odata.error'];
  if (wrapped && typeof wrapped === 'object') return valueOf((wrapped as Record<string, unknown>)['message']);
  return (
    valueOf(b['message']) ??
    (typeof b['error_description'] === 'string' ? b['error_description'] : undefined) ??
    (typeof b['error'] === 'string' ? b['error'] : undefined)
  );
};

export const decodeShareFile = <A>(
  codec: t.Type<A, unknown, unknown>,
  data: unknown,
  what: string,
): Either<UpstreamFailure, A> => {
  const r = codec.decode(data);
  if (E.isRight(r)) return E.right(r.right);
  const why = PathReporter.report(r).slice(0, 2).join('; ');
  return E.left(
    upstreamFailure(
      'ShareFile',
      `ShareFile answered ${what} in an unexpected shape (${why.slice(0, 300)}). This is not retryable; the operator should check the ShareFile API version.`,
      { retryable: false },
    ),
  );
};
