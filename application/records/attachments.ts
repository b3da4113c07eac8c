import type { AttachmentInput, ValidatedField, ValidatedFields } from '../../domain/records/field-input.js';
import type { FileValue } from '../../domain/records/values.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { E, type Either, type TaskEither } from '../../domain/shared/fp.js';
import type { NewFile, RecordStore } from '../../ports/record-store.js';
import type { UrlFetcher } from '../../ports/url-fetcher.js';

/*
 * A refused call changes nothing. Writes that name files by URL run in this order:
 *   1. every parameter is validated (by the caller, before anything here runs), so a call refused for
 *      any other reason fetches no URL;
 *   2. files are downloaded and stored one at a time (so memory holds one download, not all of them);
 *      if a download or an upload fails, the files this call already stored are removed;
 *   3. the record is written; if the store refuses it, the files this call stored are removed.
 * Removal is best effort: a failure to remove does not hide the error the caller needs to see.
 */

/** A file to store: given as content, or named by a URL to download (errors name `parameter`). */
export type FileSource =
  | { readonly file: NewFile }
  | { readonly url: string; readonly parameter: string; readonly name?: string; readonly mimetype?: string };

const withParameter =
  (parameter: string) =>
  (e: GatewayError): GatewayError =>
    e._tag === 'InvalidInput' ? { ...e, parameter } : e;

/** Removes files this call stored (best effort). */
export const discardFiles = async (store: RecordStore, fileIds: readonly number[]): Promise<void> => {
  for (const id of fileIds)
    await store
      .deleteFile(id)()
      .catch(() => undefined);
};

const contentOf = async (fetcher: UrlFetcher, source: FileSource): Promise<Either<GatewayError, NewFile>> => {
  if ('file' in source) return E.right(source.file);
  const r = await fetcher.fetch(source.url)();
  if (r._tag === 'Left') return E.left(withParameter(source.parameter)(r.left));
  return E.right({ ...r.right, name: source.name ?? r.right.name, mimetype: source.mimetype ?? r.right.mimetype });
};

/** Downloads (when needed) and stores each file in order; on the first failure the files stored before it are removed. */
export const storeAll = async (
  store: RecordStore,
  fetcher: UrlFetcher,
  sources: readonly FileSource[],
): Promise<Either<GatewayError, FileValue[]>> => {
  const stored: FileValue[] = [];
  for (const source of sources) {
    const file = await contentOf(fetcher, source);
    const r = file._tag === 'Left' ? file : await store.uploadFile(file.right)();
    if (r._tag === 'Left') {
      await discardFiles(
        store,
        stored.map((f) => f.file_id),
      );
      return r;
    }
    stored.push(r.right);
  }
  return E.right(stored);
};

/** Attachment URLs one record write may name: each is a download of up to the fetch size limit. */
export const MAX_URLS_PER_RECORD = 10;

/** Refuses fields that name more attachment URLs than {@link MAX_URLS_PER_RECORD} (checked with the other parameters, before any fetch). */
export const limitAttachmentUrls = (
  fields: ValidatedFields,
  prefix = 'fields',
): Either<GatewayError, ValidatedFields> => {
  const count = fields.reduce(
    (n, vf) => n + (vf.input.kind === 'attachment' ? vf.input.files.filter((f) => 'url' in f).length : 0),
    0,
  );
  if (count <= MAX_URLS_PER_RECORD) return E.right(fields);
  return E.left(
    invalidInput(
      `${count} attachment URLs in one record; at most ${MAX_URLS_PER_RECORD} are downloaded per record. Upload the rest with records_uploadFiles and give their file ids.`,
      prefix,
      `at most ${MAX_URLS_PER_RECORD} attachment URLs`,
    ),
  );
};

const hasUrl = (vf: ValidatedField): boolean =>
  vf.input.kind === 'attachment' && vf.input.files.some((f) => 'url' in f);

/**
 * Writes validated fields whose attachments may name URLs: downloads and stores them one at a time, then runs
 * `write` with file ids in place of the URLs. When any step fails, the files stored for this call are removed.
 */
export const writeWithAttachments =
  <R>(
    fields: ValidatedFields,
    fetcher: UrlFetcher,
    store: RecordStore,
    write: (fields: ValidatedFields) => TaskEither<GatewayError, R>,
  ): TaskEither<GatewayError, R> =>
  async () => {
    if (!fields.some(hasUrl)) return write(fields)();
    const urls = fields.flatMap((vf) =>
      vf.input.kind === 'attachment'
        ? vf.input.files.flatMap((f) =>
            'url' in f ? [{ url: f.url, parameter: `fields.${vf.field.external_id}` }] : [],
          )
        : [],
    );
    const stored = await storeAll(store, fetcher, urls);
    if (stored._tag === 'Left') return stored;
    const ids = stored.right.map((f) => f.file_id);
    let next = 0;
    const resolved: ValidatedFields = fields.map((vf): ValidatedField => {
      if (vf.input.kind !== 'attachment' || !hasUrl(vf)) return vf;
      const files = vf.input.files.map((f): AttachmentInput => ('url' in f ? { file_id: ids[next++] as number } : f));
      return { field: vf.field, input: { kind: 'attachment', files } };
    });
    const written = await write(resolved)().catch((e: unknown) => {
      void discardFiles(store, ids);
      throw e;
    });
    if (written._tag === 'Left') await discardFiles(store, ids);
    return written;
  };
