import { LRUCache } from 'lru-cache';
import { isCopyName, type Item } from '../../../domain/files/item.js';
import { invalidInput, upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, pipe, TE, type TaskEither } from '../../../domain/shared/fp.js';
import type { FileBytes, FileContents } from '../../../ports/file-contents.js';
import type { GuardedFetcher } from '../../../ports/url-fetcher.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import { storageAnswer, withJsonFormat } from './sharefile-storage-answer.js';
import { SHAREFILE } from './sharefile-client.js';
import type { ShareFileItemStore } from './sharefile-item-store.js';
import type { Resilience } from '../http/resilience.js';

export interface ShareFileFileContentsOptions {
  /** The account's API base (https://{subdomain}.{apicp}/sf/v3): upload addresses on its host are accepted as they are. */
  readonly apiBaseUrl: string;
  readonly timeoutMs: number;
  /** Retries and breaker settings (the gateway's); without them, the fallback's (resilience.ts). */
  readonly resilience?: Resilience;
  /** Plain-http upload addresses on other hosts too (a local stand-in only; with FILES_FETCH_ALLOW_PRIVATE). */
  readonly allowHttpUploads?: boolean;
}

/**
 * The bytes of file versions read lately, so that reading a long file a page at a time downloads it once
 * (issue 31). Keyed by the account's API base and the item's version (id, MD5 hash, size, creation date):
 * a new version has a new hash, so a stale copy is never served. An entry is only used after ShareFile
 * itself answered `GET Items(id)` for the caller's own token, so it adds no access. Bounded by bytes and time.
 */
const versionCache = () =>
  new LRUCache<string, FileBytes>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (f) => Math.max(1, f.bytes.byteLength),
    ttl: 10 * 60_000,
  });

/**
 * File contents on ShareFile: reading asks for a download address (`Items(id)/Download`) and fetches it
 * through the gateway's guarded fetcher; writing asks for a Standard upload (`Items(id)/Upload2`) and posts
 * the bytes to its ChunkUri (https, or the API's own host), then reads the new file back from the folder.
 */
export class ShareFileFileContents implements FileContents {
  readonly #storage;
  /** The bytes of versions this connection read lately (one per connection: each has its own guard and token). */
  readonly #versions = versionCache();

  #keep(key: string | undefined, f: FileBytes): FileBytes {
    if (key !== undefined) this.#versions.set(key, f);
    return f;
  }

  constructor(
    private readonly items: ShareFileItemStore,
    private readonly fetcher: GuardedFetcher,
    private readonly o: ShareFileFileContentsOptions,
  ) {
    this.#storage = createVendorHttp({
      vendor: SHAREFILE,
      baseURL: '',
      timeoutMs: o.timeoutMs,
      resilience: o.resilience,
    });
  }

  read(itemId: string, maxBytes: number): TaskEither<GatewayError, FileBytes> {
    return pipe(
      this.items.get(itemId, { includeDeleted: false, includeChildren: false }),
      TE.chain((item) => {
        if (item.type !== 'File')
          return TE.left(
            invalidInput(
              `"${item.Name}" is a folder; files_readFile reads files. files_listChildren lists what it holds.`,
              'item_id',
              'id of a file',
            ),
          );
        if (item.FileSizeBytes > maxBytes)
          return TE.left(
            invalidInput(
              `"${item.Name}" is ${item.FileSizeBytes} bytes; files_readFile reads files up to ${maxBytes} bytes. Get its address with files_getDownloadUrl instead.`,
              'item_id',
              `a file of at most ${maxBytes} bytes`,
              { size_bytes: item.FileSizeBytes, limit_bytes: maxBytes },
            ),
          );
        const key = versionKey(this.o.apiBaseUrl, item);
        const kept = key === undefined ? undefined : this.#versions.get(key);
        if (kept) return TE.right({ ...kept, item });
        return pipe(
          this.items.downloadLink(item.Id, { includeAllVersions: false }),
          TE.chain((d) => this.fetcher.get(d.DownloadUrl, { maxBytes })),
          TE.chain((r) =>
            r.status >= 200 && r.status < 300
              ? TE.right<GatewayError, FileBytes>(
                  this.#keep(key, {
                    item,
                    bytes: r.body,
                    ...(r.headers['content-type'] ? { contentType: r.headers['content-type'] } : {}),
                  }),
                )
              : TE.left(
                  upstreamFailure(
                    SHAREFILE,
                    `ShareFile's download address for "${item.Name}" answered HTTP ${r.status}.`,
                    {
                      retryable: r.status >= 500,
                      status: r.status,
                    },
                  ),
                ),
          ),
        );
      }),
    );
  }

  write(folderId: string, fileName: string, bytes: Uint8Array, overwrite: boolean): TaskEither<GatewayError, Item> {
    return pipe(
      // no listing before the upload (issue 42: one call too many): the storage host's fmt=json answer names
      // the stored file; only an answer that names none is looked for in the folder, newest first, by its
      // name or the name ShareFile gives it beside a same-named file (`<base> (n).<ext>`)
      this.#send(folderId, fileName, bytes, overwrite),
      TE.chain((storedId) =>
        // the storage host named the stored file: read that one (never an older file of the same name)
        storedId !== undefined
          ? this.items.get(storedId, { includeDeleted: false, includeChildren: false })
          : pipe(
              this.#namedLike(folderId, fileName, overwrite),
              TE.chain((after) => {
                const found = after.find((i) => isCopyName(fileName, i.Name));
                return found
                  ? TE.right(found)
                  : TE.left(
                      upstreamFailure(
                        SHAREFILE,
                        `ShareFile took the upload of "${fileName}" but the folder does not list it yet.`,
                        { retryable: true },
                      ),
                    );
              }),
            ),
      ),
    );
  }

  /** Posts the bytes to the ChunkUri; the stored file's id when the storage host names it. */
  #send(
    folderId: string,
    fileName: string,
    bytes: Uint8Array,
    overwrite: boolean,
  ): TaskEither<GatewayError, string | undefined> {
    return pipe(
      this.items.uploadLink(folderId, {
        fileName,
        fileSize: bytes.byteLength,
        canResume: false,
        startOver: true,
        overwrite,
        notify: false,
      }),
      TE.chain((spec) => {
        if (spec.Method !== 'Standard' || !this.#acceptable(spec.ChunkUri))
          return TE.left(
            upstreamFailure(SHAREFILE, `ShareFile offered an upload the gateway does not send to (${spec.Method}).`, {
              retryable: false,
            }),
          );
        return async () => {
          try {
            const res = await this.#storage.post(withJsonFormat(spec.ChunkUri), bytes, {
              headers: { 'Content-Type': 'application/octet-stream' },
              maxBodyLength: bytes.byteLength + 1024,
              responseType: 'text',
              transformResponse: (d: unknown) => d,
            });
            return res.status >= 200 && res.status < 300
              ? storageAnswer(fileName, res.data)
              : E.left(
                  upstreamFailure(SHAREFILE, `ShareFile refused the upload of "${fileName}" (HTTP ${res.status}).`, {
                    retryable: res.status >= 500,
                    status: res.status,
                  }),
                );
          } catch (error) {
            return E.left(transportFailure(SHAREFILE, error));
          }
        };
      }),
    );
  }

  #acceptable(uri: string): boolean {
    try {
      const u = new URL(uri);
      return (
        u.protocol === 'https:' ||
        u.origin === new URL(this.o.apiBaseUrl).origin ||
        (this.o.allowHttpUploads === true && u.protocol === 'http:')
      );
    } catch {
      return false;
    }
  }

  /** Files of the folder named `fileName` (or, `exact` false, starting with its base name), newest first. */
  #namedLike(folderId: string, fileName: string, exact: boolean): TaskEither<GatewayError, readonly Item[]> {
    const dot = fileName.lastIndexOf('.');
    const base = dot > 0 ? fileName.slice(0, dot) : fileName;
    return pipe(
      this.items.children(folderId, {
        top: 100,
        skip: 0,
        includeDeleted: false,
        filter: exact
          ? { op: 'eq', field: 'Name', value: { kind: 'string', value: fileName } }
          : { op: 'startswith', field: 'Name', value: base },
        orderBy: [{ field: 'CreationDate', descending: true }],
      }),
      TE.map((page) => page.items.filter((i) => i.type === 'File')),
    );
  }
}

/** A file version's cache key; none without a hash (the version cannot then be told apart). */
const versionKey = (apiBaseUrl: string, item: Item): string | undefined =>
  item.MD5 ? `${apiBaseUrl}|${item.Id}|${item.MD5}|${item.FileSizeBytes}|${item.CreationDate}` : undefined;
