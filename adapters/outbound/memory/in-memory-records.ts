import { LRUCache } from 'lru-cache';
import type { App, AppSummary, AppView } from '../../../domain/records/app.js';
import { validateFields, type ValidatedFields } from '../../../domain/records/field-input.js';
import type { ResolvedFilter } from '../../../domain/records/filters.js';
import type { RecordData } from '../../../domain/records/record.js';
import type { Comment, FieldDelta, Revision, WriteFlags } from '../../../domain/records/revision.js';
import { formatInZone, type FieldValue, type FileValue } from '../../../domain/records/values.js';
import { invalidInput, notFound, type GatewayError } from '../../../domain/shared/errors.js';
import { E, pipe, TE, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { RecordApps } from '../../../ports/record-apps.js';
import type { CommentPage, RecordComments } from '../../../ports/record-comments.js';
import type { NewFile, RecordPage, RecordQuery, RecordRef, RecordStore } from '../../../ports/record-store.js';
import { DEFAULT_DEMO_LIMITS, roomFor, type DemoLimits } from './demo-limits.js';
import type { DemoUser, InMemoryPodioAccount } from './in-memory-podio-account.js';
import { AppCatalog } from './records/app-catalog.js';
import { deltaOf, referencingOf, relatableOf, revisionsOf } from './records/record-history.js';
import { CommentBoard } from './records/record-comments.js';
import { RecordsState, sameValue, type RecordedEvent, type Stored } from './records/records-state.js';
import { storedValue } from './records/stored-values.js';

export type { RecordedEvent } from './records/records-state.js';

export interface InMemoryRecordsOptions {
  readonly clock: Clock;
  readonly account: InMemoryPodioAccount;
  /** Time zone of record timestamps (created_on); `*_utc` members are UTC. */
  readonly timeZone?: string;
  /** How many records, comments and files it holds at most. */
  readonly limits?: Pick<DemoLimits, 'records' | 'comments' | 'recordFiles'>;
}

/**
 * Apps, records and comments of the in-memory Podio account: behaves like Podio (revisions on every change,
 * app_record_id per app, soft delete to the trash, relations by record id, contacts by profile id) and
 * records the notifications, webhooks and workflow triggers a write would fire. The apps, the state and
 * steps the parts share, the comments, the history and the stored values are in ./records/.
 */
export class InMemoryRecords implements RecordApps, RecordStore {
  private readonly catalog: AppCatalog;
  private readonly state: RecordsState;
  private readonly comments: CommentBoard;
  /** Idempotency marks of records made by jobs (issue 40), as Podio keeps an item's external_id: bounded. */
  private readonly marks = new LRUCache<string, RecordRef>({ max: 200_000, ttl: 7 * 24 * 3_600_000 });

  constructor(o: InMemoryRecordsOptions) {
    this.catalog = new AppCatalog(o.account);
    this.state = new RecordsState(
      this.catalog,
      o.clock,
      o.account,
      o.timeZone ?? 'UTC',
      o.limits ?? DEFAULT_DEMO_LIMITS,
    );
    this.comments = new CommentBoard(this.state);
    o.account.onSpaceDeleted((spaceId) => this.dropSpace(spaceId));
  }

  get events(): readonly RecordedEvent[] {
    return this.state.eventLog.items;
  }

  // --- setup (demo data, tests) ---

  addApp(app: App, views: readonly AppView[] = []): void {
    this.catalog.add(app, views);
    this.state.addApp(app.app_id);
  }

  addFile(file: Omit<FileValue, 'file_id'>): FileValue {
    return this.state.addFile(file);
  }

  /** Creates a record from createRecord-style input, as a given user at a given time (demo data). */
  seed(
    appId: number,
    fields: Record<string, unknown>,
    at: Date,
    userId?: number,
    calculated: Readonly<Record<number, number>> = {},
  ): RecordData {
    const app = this.catalog.apps.get(appId)!;
    const checked = validateFields(app, fields, 'create');
    if (checked._tag === 'Left') throw new Error(`demo record for app ${appId}: ${checked.left.message}`);
    const made = this.createNow(
      app,
      checked.right,
      at,
      userId ? this.state.account.user(userId)! : this.state.account.actingUser(),
      calculated,
    );
    if (made._tag === 'Left') throw new Error(`demo record for app ${appId}: ${made.left.message}`);
    return made.right;
  }

  // --- RecordApps ---

  listApps(workspaceId?: number): TaskEither<GatewayError, readonly AppSummary[]> {
    return this.catalog.listApps(workspaceId);
  }

  /** Counted directly: every app's active records. */
  recordCounts(appIds: readonly number[]): TaskEither<GatewayError, ReadonlyMap<number, number>> {
    const counts = new Map<number, number>();
    for (const id of appIds) if (this.catalog.apps.has(id)) counts.set(id, this.state.tables.get(id)?.count([]) ?? 0);
    return TE.right(counts);
  }

  getApp(appId: number): TaskEither<GatewayError, App> {
    return this.catalog.getApp(appId);
  }

  getViews(appId: number): TaskEither<GatewayError, readonly AppView[]> {
    return this.catalog.getViews(appId);
  }

  getView(viewId: number): TaskEither<GatewayError, { app_id: number; view: AppView }> {
    return this.catalog.getView(viewId);
  }

  // --- RecordStore ---

  get(recordId: number): TaskEither<GatewayError, RecordData> {
    return TE.fromEither(E.map((s: Stored) => this.state.fresh(s.data))(this.state.active(recordId)));
  }

  query(app: App, q: RecordQuery): TaskEither<GatewayError, RecordPage> {
    const table = this.state.tables.get(app.app_id);
    if (!table) return TE.right({ total: 0, records: [] });
    if (q.countOnly) return TE.right({ total: table.count(q.filters), records: [] });
    const rows = table.match(q.filters);
    const page =
      q.sort || q.sortDesc
        ? table.page(rows, q.sort, q.sortDesc, q.offset, q.limit)
        : rows.slice(q.offset, q.offset + q.limit);
    return TE.right({ total: rows.length, records: page.map((row) => this.state.fresh(table.records[row]!)) });
  }

  matchAll(app: App, filters: readonly ResolvedFilter[]): TaskEither<GatewayError, readonly RecordData[]> {
    const table = this.state.tables.get(app.app_id);
    if (!table) return TE.right([]);
    const rows = table.match(filters);
    const out = new Array<RecordData>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = table.records[rows[i]!]!;
    return TE.right(out);
  }

  create(app: App, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, RecordData> {
    return () => {
      const made = this.createNow(
        this.catalog.apps.get(app.app_id) ?? app,
        fields,
        this.state.clock.now(),
        this.state.account.actingUser(),
      );
      if (made._tag === 'Right') this.state.fire('record.create', made.right.record_id, flags);
      return Promise.resolve(made);
    };
  }

  createKeyed(app: App, fields: ValidatedFields, flags: WriteFlags, key: string): TaskEither<GatewayError, RecordRef> {
    return pipe(
      this.create(app, fields, flags),
      TE.map((d) => {
        const ref = { record_id: d.record_id, record_url: d.record_url };
        this.marks.set(`${app.app_id}:${key}`, ref);
        return ref;
      }),
    );
  }

  findKeyed(app: App, key: string): TaskEither<GatewayError, RecordRef | undefined> {
    return TE.right(this.marks.get(`${app.app_id}:${key}`));
  }

  private createNow(
    app: App,
    fields: ValidatedFields,
    at: Date,
    by: DemoUser,
    calculated: Readonly<Record<number, number>> = {},
  ): Either<GatewayError, RecordData> {
    if (!this.catalog.apps.has(app.app_id))
      return E.left(
        notFound('app', String(app.app_id), `App ${app.app_id} does not exist. records_listApps lists the apps.`),
      );
    const room = roomFor('records', this.state.records.size, this.state.limits.records);
    if (E.isLeft(room)) return room;
    const values: Record<number, FieldValue> = { ...calculated };
    for (const { field, input } of fields) {
      const v = storedValue(this.state, field, input, undefined);
      if (v._tag === 'Left') return v;
      if (v.right !== undefined) values[field.field_id] = v.right;
    }
    const seq = (this.state.appSequence.get(app.app_id) ?? 0) + 1;
    this.state.appSequence.set(app.app_id, seq);
    const id = this.state.nextRecordId++;
    const user = this.state.userRef(by);
    const utc = formatInZone(at);
    const local = this.state.timeZone === 'UTC' ? utc : formatInZone(at, this.state.timeZone);
    const data: RecordData = {
      record_id: id,
      app_id: app.app_id,
      app_record_id: seq,
      title: this.state.titleOf(app, values, seq),
      record_url: `memory://records/items/${id}`,
      created_by: user,
      created_on: local,
      created_on_utc: utc,
      last_modified_by: user,
      last_modified_on: local,
      last_modified_on_utc: utc,
      deleted_on: null,
      deleted_on_utc: null,
      revision: 0,
      values,
    };
    const stored: Stored = {
      data,
      history: [{ revision: 0, type: 'creation', by, at, values, changes: Object.keys(values).map(Number) }],
      row: this.state.tables.get(app.app_id)!.add(data),
    };
    this.state.records.set(id, stored);
    this.state.byApp.get(app.app_id)!.push(stored);
    return E.right(data);
  }

  update(app: App, recordId: number, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, RecordData> {
    return () => {
      const found = this.state.active(recordId);
      if (found._tag === 'Left') return Promise.resolve(found);
      const s = found.right;
      if (s.data.app_id !== app.app_id)
        return Promise.resolve(
          E.left(
            invalidInput(
              `Record ${recordId} belongs to app ${s.data.app_id}, not app ${app.app_id}.`,
              'record_id',
              `a record of app ${app.app_id}`,
            ),
          ),
        );
      const current = this.catalog.apps.get(app.app_id)!;
      const values: Record<number, FieldValue> = { ...s.data.values };
      const changed: number[] = [];
      for (const { field, input } of fields) {
        const v = storedValue(this.state, field, input, s.data.values[field.field_id]);
        if (v._tag === 'Left') return Promise.resolve(v);
        if (sameValue(values[field.field_id], v.right)) continue;
        changed.push(field.field_id);
        if (v.right === undefined) delete values[field.field_id];
        else values[field.field_id] = v.right;
      }
      if (changed.length === 0) return Promise.resolve(E.right(this.state.fresh(s.data)));
      this.state.write(
        s,
        'update',
        { values, title: this.state.titleOf(current, values, s.data.app_record_id) },
        changed,
      );
      this.state.fire('record.update', recordId, flags);
      return Promise.resolve(E.right(this.state.fresh(s.data)));
    };
  }

  delete(recordId: number, flags: WriteFlags): TaskEither<GatewayError, void> {
    return () => {
      const found = this.state.active(recordId);
      if (found._tag === 'Left') return Promise.resolve(found);
      const now = this.state.clock.now();
      this.state.write(
        found.right,
        'delete',
        { deleted_on: formatInZone(now, this.state.timeZone), deleted_on_utc: formatInZone(now) },
        [],
      );
      this.state.fire('record.delete', recordId, flags);
      return Promise.resolve(E.right(undefined));
    };
  }

  restore(recordId: number): TaskEither<GatewayError, RecordData> {
    return () => {
      const s = this.state.records.get(recordId);
      if (!s) return Promise.resolve(E.left(this.state.missing(recordId)));
      if (s.data.deleted_on === null)
        return Promise.resolve(
          E.left(
            invalidInput(
              `Record ${recordId} is not in the trash; there is nothing to restore. records_getRecord shows it.`,
              'record_id',
              'id of a deleted record',
            ),
          ),
        );
      this.state.write(s, 'restore', { deleted_on: null, deleted_on_utc: null }, []);
      return Promise.resolve(E.right(this.state.fresh(s.data)));
    };
  }

  revisions(recordId: number): TaskEither<GatewayError, readonly Revision[]> {
    return revisionsOf(this.state, recordId);
  }

  revisionDelta(recordId: number, from: number, to: number): TaskEither<GatewayError, readonly FieldDelta[]> {
    return deltaOf(this.state, recordId, from, to);
  }

  referencing(recordId: number, appId: number): TaskEither<GatewayError, readonly RecordData[]> {
    return referencingOf(this.state, recordId, appId);
  }

  findRelatable(fieldId: number, text: string, limit: number): TaskEither<GatewayError, readonly RecordData[]> {
    return relatableOf(this.state, fieldId, text, limit);
  }

  uploadFile(file: NewFile): TaskEither<GatewayError, FileValue> {
    const room = roomFor('record files', this.state.files.size, this.state.limits.recordFiles);
    if (E.isLeft(room)) return TE.left(room.left);
    return TE.right(this.state.addFile({ name: file.name, mimetype: file.mimetype, size: file.content.byteLength }));
  }

  deleteFile(fileId: number): TaskEither<GatewayError, void> {
    if (!this.state.files.delete(fileId))
      return TE.left(notFound('file', String(fileId), `File ${fileId} does not exist.`));
    return TE.right(undefined);
  }

  // --- RecordComments ---

  createComment(
    recordId: number,
    value: string,
    fileIds: readonly number[],
    flags: WriteFlags,
  ): TaskEither<GatewayError, Comment> {
    return this.comments.create(recordId, value, fileIds, flags);
  }

  getComment(commentId: number): TaskEither<GatewayError, Comment> {
    return this.comments.get(commentId);
  }

  listComments(recordId: number, offset: number, limit: number): TaskEither<GatewayError, CommentPage> {
    return this.comments.list(recordId, offset, limit);
  }

  deleteComment(commentId: number, flags: Pick<WriteFlags, 'silent' | 'hook'>): TaskEither<GatewayError, void> {
    return this.comments.delete(commentId, flags);
  }

  /** The comments port, for binding. */
  commentsPort(): RecordComments {
    return this.comments;
  }

  private dropSpace(spaceId: number): void {
    for (const app of [...this.catalog.apps.values()]) {
      if (app.space_id !== spaceId) continue;
      for (const s of this.state.byApp.get(app.app_id) ?? []) {
        this.state.records.delete(s.data.record_id);
        this.comments.dropRecord(s.data.record_id);
      }
      this.state.byApp.delete(app.app_id);
      this.state.tables.delete(app.app_id);
      this.catalog.drop(app.app_id);
    }
  }

  /** Active records of an app (tests, benchmark). */
  countActive(appId: number): number {
    return this.state.tables.get(appId)?.active ?? 0;
  }
}
