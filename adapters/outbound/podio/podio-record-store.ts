import * as t from 'io-ts';
import type { App } from '../../../domain/records/app.js';
import type { ValidatedFields } from '../../../domain/records/field-input.js';
import { compileFilters, sortRecords, type ResolvedFilter } from '../../../domain/records/filters.js';
import type { RecordData } from '../../../domain/records/record.js';
import type { FieldDelta, Revision, WriteFlags } from '../../../domain/records/revision.js';
import type { FileValue } from '../../../domain/records/values.js';
import { invalidInput, type GatewayError } from '../../../domain/shared/errors.js';
import { E, pipe, TE, type TaskEither } from '../../../domain/shared/fp.js';
import type { RecordApps } from '../../../ports/record-apps.js';
import type { NewFile, RecordPage, RecordQuery, RecordRef, RecordStore } from '../../../ports/record-store.js';
import type { PodioClient } from './podio-client.js';
import {
  PodioCreatedItem,
  PodioEmbed,
  PodioFieldDelta,
  PodioFilterAnswer,
  PodioItem,
  PodioReferenceGroup,
  PodioRelatable,
  PodioRevision,
  PodioUploadedFile,
} from './podio-record-codecs.js';
import { splitFilters, statusRefusal } from './podio-filter-pushdown.js';
import type { Json } from './podio-record-json.js';
import { flagQuery, toFieldDelta, toRecord, toRelatable, toRevision } from './podio-record-mapping.js';
import { linkUrls, podioFields, type EmbedIds } from './podio-record-values.js';
import { multipartBody } from './podio-records-multipart.js';

// Records on Podio's items (developers.podio.com/doc/items). Filters Podio cannot evaluate are applied by the gateway
// over the items Podio returns, reading at most MAX_SCAN items, PAGE at a time.

const MAX_SCAN = 5000;
const PAGE = 500;

/** The RecordStore on Podio's items; each item is read with its app's fields, from `apps`. */
export class PodioRecordStore implements RecordStore {
  constructor(
    private readonly podio: PodioClient,
    private readonly apps: Pick<RecordApps, 'getApp'> & {
      forget?(appId: number): void;
      forgetCount?(appId?: number): void;
    },
  ) {}

  /**
   * Podio refusing a write or a filter (400, or 404/410 on a field) may mean the cached app definition is
   * out of date (a field added, removed or changed): the definition is dropped so the next call reads it anew.
   */
  private refreshAppOn<A>(appId: number): (e: GatewayError) => TaskEither<GatewayError, A> {
    return (e) => {
      if (e._tag === 'InvalidInput' || (e._tag === 'NotFound' && e.resource === 'field')) this.apps.forget?.(appId);
      return TE.left(e);
    };
  }

  get(recordId: number): TaskEither<GatewayError, RecordData> {
    return pipe(
      this.podio.task('GET', `/item/${recordId}`, { codec: PodioItem, resource: { kind: 'record', id: recordId } }),
      TE.chain((item) =>
        pipe(
          this.apps.getApp(item.app.app_id),
          TE.map((app) => toRecord(item, app)),
        ),
      ),
    );
  }

  private filterPage(
    app: App,
    podioFilters: Json,
    offset: number,
    limit: number,
    sort?: { by: string; desc: boolean },
    viewId?: number,
  ): TaskEither<GatewayError, { total: number; items: RecordData[] }> {
    return pipe(
      this.podio.task('POST', `/item/app/${app.app_id}/filter/${viewId === undefined ? '' : `${viewId}/`}`, {
        codec: PodioFilterAnswer,
        body: {
          ...(viewId === undefined ? { filters: podioFilters } : {}),
          offset,
          limit,
          ...(sort ? { sort_by: sort.by, sort_desc: sort.desc } : {}),
        },
        resource: { kind: 'app', id: app.app_id },
        idempotent: true,
      }),
      TE.orElse(this.refreshAppOn<t.TypeOf<typeof PodioFilterAnswer>>(app.app_id)),
      TE.map((r) => ({
        total: r.filtered ?? r.total ?? r.items.length,
        items: r.items.map((i) => toRecord(i, app)),
      })),
    );
  }

  private scan(app: App, podioFilters: Json): TaskEither<GatewayError, RecordData[]> {
    return async () => {
      const out: RecordData[] = [];
      for (let offset = 0; offset < MAX_SCAN; offset += PAGE) {
        const page = await this.filterPage(app, podioFilters, offset, PAGE)();
        if (page._tag === 'Left') return page;
        out.push(...page.right.items);
        if (offset + PAGE >= page.right.total) return E.right(out);
      }
      return E.left(
        invalidInput(
          `These filters need the gateway to read more than ${MAX_SCAN} records of app ${app.app_id}. Add a category, relation, user, number or date filter that Podio can apply first.`,
          'filters',
          'narrower filters',
        ),
      );
    };
  }

  query(app: App, q: RecordQuery): TaskEither<GatewayError, RecordPage> {
    const refused = statusRefusal(q.filters);
    if (refused) return TE.left(refused);
    const { podio, local } = splitFilters(q.filters);
    const sort = q.sort ? { by: String(q.sort.field_id), desc: q.sortDesc } : undefined;
    if (local.length === 0)
      return pipe(
        this.filterPage(app, podio, q.offset, q.countOnly ? 1 : q.limit, sort),
        TE.map((p) => ({ total: p.total, records: q.countOnly ? [] : p.items })),
      );
    const predicate = compileFilters(local);
    return pipe(
      this.scan(app, podio),
      TE.map((all) => {
        const matched = sortRecords(all.filter(predicate), q.sort, q.sortDesc);
        return { total: matched.length, records: q.countOnly ? [] : matched.slice(q.offset, q.offset + q.limit) };
      }),
    );
  }

  /** Podio applies the view's filters and sort itself (podio-php PodioItem::filter_by_view). */
  queryView(
    app: App,
    viewId: number,
    page: { offset: number; limit: number; countOnly: boolean },
  ): TaskEither<GatewayError, RecordPage> {
    return pipe(
      this.filterPage(app, {}, page.offset, page.countOnly ? 1 : page.limit, undefined, viewId),
      TE.map((p) => ({ total: p.total, records: page.countOnly ? [] : p.items })),
    );
  }

  matchAll(app: App, filters: readonly ResolvedFilter[]): TaskEither<GatewayError, readonly RecordData[]> {
    const refused = statusRefusal(filters);
    if (refused) return TE.left(refused);
    const { podio, local } = splitFilters(filters);
    const predicate = compileFilters(local);
    return pipe(
      this.scan(app, podio),
      TE.map((all) => all.filter(predicate)),
    );
  }

  /** An embed per link URL (`POST /embed/`), which the item then references by id. */
  private embeds(fields: ValidatedFields): TaskEither<GatewayError, EmbedIds> {
    return pipe(
      TE.sequenceSeqArray(
        linkUrls(fields).map((url) =>
          pipe(
            this.podio.task('POST', '/embed/', { codec: PodioEmbed, body: { url } }),
            TE.map((e) => [url, e.embed_id] as const),
          ),
        ),
      ),
      TE.map((pairs) => new Map(pairs)),
    );
  }

  create(app: App, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, RecordData> {
    return pipe(
      this.#created(app, fields, flags),
      TE.chain((r) => this.get(r.item_id)),
    );
  }

  /**
   * One call: Podio's create answer carries `item_id` and, as Podio answers it, the item's `link` (read back
   * only when it lacks one). developers.podio.com/doc/items/add-new-item-22362; podio-php
   * `PodioItem::create` reads the new item's members from that answer.
   */
  createRef(
    app: App,
    fields: ValidatedFields,
    flags: WriteFlags,
    externalId?: string,
  ): TaskEither<GatewayError, RecordRef> {
    return pipe(
      this.#created(app, fields, flags, externalId),
      TE.chain((r) =>
        typeof r.link === 'string' && r.link
          ? TE.right({ record_id: r.item_id, record_url: r.link })
          : pipe(
              this.get(r.item_id),
              TE.map((d) => ({ record_id: d.record_id, record_url: d.record_url })),
            ),
      ),
    );
  }

  /** A job's item (issue 40): its idempotency mark is the item's `external_id`, which findKeyed looks up. */
  createKeyed(app: App, fields: ValidatedFields, flags: WriteFlags, key: string): TaskEither<GatewayError, RecordRef> {
    return this.createRef(app, fields, flags, key);
  }

  /** `GET /item/app/{app_id}/external_id/{external_id}` (get-item-by-external-id-19556702); none: undefined. */
  findKeyed(app: App, key: string): TaskEither<GatewayError, RecordRef | undefined> {
    return pipe(
      this.podio.task('GET', `/item/app/${app.app_id}/external_id/${encodeURIComponent(key)}`, {
        codec: PodioCreatedItem,
        resource: { kind: 'app', id: app.app_id },
      }),
      TE.map((r): RecordRef | undefined => ({
        record_id: r.item_id,
        record_url: typeof r.link === 'string' ? r.link : '',
      })),
      TE.orElse((e) => (e._tag === 'NotFound' ? TE.right(undefined) : TE.left(e))),
    );
  }

  #created(app: App, fields: ValidatedFields, flags: WriteFlags, externalId?: string) {
    return pipe(
      this.embeds(fields),
      TE.chain((embeds) =>
        this.podio.task('POST', `/item/app/${app.app_id}/`, {
          codec: PodioCreatedItem,
          query: flagQuery(flags),
          body: {
            fields: podioFields(fields, embeds),
            ...(externalId === undefined ? {} : { external_id: externalId }),
          },
          resource: { kind: 'app', id: app.app_id },
        }),
      ),
      TE.orElse(this.refreshAppOn<t.TypeOf<typeof PodioCreatedItem>>(app.app_id)),
      // the app's kept record count is out of date (the batch tools create through here too); dropped after
      // a failure as well, since a write that failed in transit may have been made
      TE.bimap(
        (e) => (this.apps.forgetCount?.(app.app_id), e),
        (r) => (this.apps.forgetCount?.(app.app_id), r),
      ),
    );
  }

  update(app: App, recordId: number, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, RecordData> {
    return pipe(
      this.updateOnly(app, recordId, fields, flags),
      TE.chain(() => this.get(recordId)),
    );
  }

  /** One call: `PUT /item/{id}` answers `{revision, title}` (update-item-22363); a batch needs no more. */
  updateOnly(app: App, recordId: number, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, void> {
    return pipe(
      this.embeds(fields),
      TE.chain((embeds) =>
        this.podio.task('PUT', `/item/${recordId}`, {
          codec: t.unknown,
          query: flagQuery(flags),
          body: { fields: podioFields(fields, embeds) },
          resource: { kind: 'record', id: recordId },
        }),
      ),
      TE.orElse(this.refreshAppOn<unknown>(app.app_id)),
      TE.map(() => undefined),
    );
  }

  delete(recordId: number, flags: WriteFlags): TaskEither<GatewayError, void> {
    return pipe(
      this.podio.task('DELETE', `/item/${recordId}`, {
        codec: t.unknown,
        query: flagQuery(flags),
        resource: { kind: 'record', id: recordId },
      }),
      // a delete names only the item: every kept record count is dropped (the batch delete comes through here)
      TE.bimap(
        (e) => (this.apps.forgetCount?.(), e),
        () => this.apps.forgetCount?.(),
      ),
    );
  }

  restore(recordId: number): TaskEither<GatewayError, RecordData> {
    return TE.left(
      invalidInput(
        `Record ${recordId} cannot be restored: Podio deletes items permanently and offers no undelete (records_restoreRecord works only in memory mode). Re-create it with records_createRecord; its revisions before deletion are no longer readable.`,
        'record_id',
        'not available with the Podio backend',
        { supported: false },
      ),
    );
  }

  revisions(recordId: number): TaskEither<GatewayError, readonly Revision[]> {
    return pipe(
      this.podio.task('GET', `/item/${recordId}/revision/`, {
        codec: t.array(PodioRevision),
        resource: { kind: 'record', id: recordId },
      }),
      TE.map((list) => list.map((r) => toRevision(r, recordId))),
    );
  }

  revisionDelta(recordId: number, from: number, to: number): TaskEither<GatewayError, readonly FieldDelta[]> {
    return pipe(
      this.podio.task('GET', `/item/${recordId}/revision/${from}/${to}`, {
        codec: t.array(PodioFieldDelta),
        resource: { kind: 'record', id: recordId },
      }),
      TE.map((diffs) => diffs.map(toFieldDelta)),
    );
  }

  referencing(recordId: number, appId: number): TaskEither<GatewayError, readonly RecordData[]> {
    return pipe(
      this.podio.task('GET', `/item/${recordId}/reference/`, {
        codec: t.array(PodioReferenceGroup),
        resource: { kind: 'record', id: recordId },
      }),
      TE.map((groups) => groups.filter((g) => g.app.app_id === appId).flatMap((g) => g.items.map((i) => i.item_id))),
      TE.chain((ids) => TE.sequenceSeqArray(ids.map((id) => this.get(id)))),
    );
  }

  findRelatable(fieldId: number, text: string, limit: number): TaskEither<GatewayError, readonly RecordData[]> {
    return pipe(
      this.podio.task('GET', `/item/field/${fieldId}/find`, {
        codec: t.array(PodioRelatable),
        query: { text, limit },
        resource: { kind: 'field', id: fieldId },
      }),
      TE.map((items) => items.map(toRelatable)),
    );
  }

  uploadFile(file: NewFile): TaskEither<GatewayError, FileValue> {
    return pipe(
      this.podio.task('POST', '/file/v2/', {
        codec: PodioUploadedFile,
        raw: multipartBody(
          { filename: file.name },
          { field: 'source', name: file.name, mimetype: file.mimetype, content: file.content },
        ),
      }),
      TE.map((r) => ({
        file_id: r.file_id,
        name: file.name,
        mimetype: file.mimetype,
        size: file.content.byteLength,
      })),
    );
  }

  deleteFile(fileId: number): TaskEither<GatewayError, void> {
    return pipe(
      this.podio.task('DELETE', `/file/${fileId}`, { codec: t.unknown, resource: { kind: 'file', id: fileId } }),
      TE.map(() => undefined),
    );
  }
}
