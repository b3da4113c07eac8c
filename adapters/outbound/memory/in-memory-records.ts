import {
  isSystemField,
  titleField,
  type App,
  type AppSummary,
  type AppView,
  type FieldDefinition,
} from '../../../domain/records/app.js';
import { validateFields, type FieldInput, type ValidatedFields } from '../../../domain/records/field-input.js';
import { RecordColumns } from './records/columns.js';
import type { ResolvedFilter } from '../../../domain/records/filters.js';
import type { RecordData, UserRef } from '../../../domain/records/record.js';
import type {
  Comment,
  FieldDelta,
  PersonRef,
  Revision,
  RevisionType,
  WriteFlags,
} from '../../../domain/records/revision.js';
import {
  formatInZone,
  type ChecklistItem,
  type FieldValue,
  type FieldValues,
  type FileValue,
  type RelationValue,
} from '../../../domain/records/values.js';
import { valueTypeOf } from '../../../domain/records/app.js';
import { invalidInput, notFound, type GatewayError } from '../../../domain/shared/errors.js';
import { E, TE, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { RecordApps } from '../../../ports/record-apps.js';
import type { CommentPage, RecordComments } from '../../../ports/record-comments.js';
import type { NewFile, RecordPage, RecordQuery, RecordStore } from '../../../ports/record-store.js';
import { BoundedLog } from './bounded-log.js';
import { DEFAULT_DEMO_LIMITS, roomFor, type DemoLimits } from './demo-limits.js';
import type { DemoUser, InMemoryPodioAccount } from './in-memory-podio-account.js';

/** What would have fired in Podio: notifications (unless silent), webhooks (hook) and workflows (workflow). */
export interface RecordedEvent {
  readonly kind: 'notification' | 'webhook' | 'workflow';
  readonly action: string;
  readonly id: number;
}

interface Snapshot {
  readonly revision: number;
  readonly type: RevisionType;
  readonly by: DemoUser;
  readonly at: Date;
  readonly values: FieldValues;
  readonly changes: readonly number[];
}

interface Stored {
  data: RecordData;
  history: Snapshot[];
  /** The record's row in its app's columns. */
  row: number;
}

export interface InMemoryRecordsOptions {
  readonly clock: Clock;
  readonly account: InMemoryPodioAccount;
  /** Time zone of record timestamps (created_on); `*_utc` members are UTC. */
  readonly timeZone?: string;
  /** How many records, comments and files it holds at most. */
  readonly limits?: Pick<DemoLimits, 'records' | 'comments' | 'recordFiles'>;
}

const same = (a: FieldValue | undefined, b: FieldValue | undefined): boolean =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Apps, records and comments of the in-memory Podio account: behaves like Podio (revisions on every change,
 * app_record_id per app, soft delete to the trash, relations by record id, contacts by profile id) and
 * records the notifications, webhooks and workflow triggers a write would fire.
 */
export class InMemoryRecords implements RecordApps, RecordStore {
  private readonly apps = new Map<number, App>();
  private readonly views = new Map<number, { app_id: number; view: AppView }>();
  private readonly records = new Map<number, Stored>();
  private readonly byApp = new Map<number, Stored[]>();
  /** Per app: the records as columns, for filters, sorting and aggregations. */
  private readonly tables = new Map<number, RecordColumns>();
  private readonly files = new Map<number, FileValue>();
  private readonly comments = new Map<number, Comment>();
  private readonly appSequence = new Map<number, number>();
  /** The notifications, webhooks and workflow triggers writes fired: the last 10,000, for a day. */
  private readonly eventLog: BoundedLog<RecordedEvent>;
  private nextRecordId = 70001;
  private nextFileId = 81001;
  private nextCommentId = 91001;
  private nextChecklistId = 1;
  private readonly clock: Clock;
  private readonly account: InMemoryPodioAccount;
  private readonly timeZone: string;

  private readonly limits: Pick<DemoLimits, 'records' | 'comments' | 'recordFiles'>;

  constructor(o: InMemoryRecordsOptions) {
    this.clock = o.clock;
    this.limits = o.limits ?? DEFAULT_DEMO_LIMITS;
    this.eventLog = new BoundedLog(10_000, 86_400_000, () => o.clock.now().getTime());
    this.account = o.account;
    this.timeZone = o.timeZone ?? 'UTC';
    o.account.onSpaceDeleted((spaceId) => this.dropSpace(spaceId));
  }

  get events(): readonly RecordedEvent[] {
    return this.eventLog.items;
  }

  // --- setup (demo data, tests) ---

  addApp(app: App, views: readonly AppView[] = []): void {
    this.apps.set(app.app_id, app);
    this.byApp.set(app.app_id, this.byApp.get(app.app_id) ?? []);
    if (!this.tables.has(app.app_id)) this.tables.set(app.app_id, new RecordColumns());
    for (const v of views) this.views.set(v.view_id, { app_id: app.app_id, view: v });
  }

  addFile(file: Omit<FileValue, 'file_id'>): FileValue {
    const f = { file_id: this.nextFileId++, ...file };
    this.files.set(f.file_id, f);
    return f;
  }

  /** Creates a record from createRecord-style input, as a given user at a given time (demo data). */
  seed(
    appId: number,
    fields: Record<string, unknown>,
    at: Date,
    userId?: number,
    calculated: Readonly<Record<number, number>> = {},
  ): RecordData {
    const app = this.apps.get(appId)!;
    const checked = validateFields(app, fields, 'create');
    if (checked._tag === 'Left') throw new Error(`demo record for app ${appId}: ${checked.left.message}`);
    const made = this.createNow(
      app,
      checked.right,
      at,
      userId ? this.account.user(userId)! : this.account.actingUser(),
      calculated,
    );
    if (made._tag === 'Left') throw new Error(`demo record for app ${appId}: ${made.left.message}`);
    return made.right;
  }

  // --- RecordApps ---

  listApps(workspaceId?: number): TaskEither<GatewayError, readonly AppSummary[]> {
    if (workspaceId !== undefined && !this.account.space(workspaceId))
      return TE.left(
        notFound(
          'workspace',
          String(workspaceId),
          `Workspace ${workspaceId} does not exist. workspaces_getSpace shows a space; leave workspace_id out to list the apps of every workspace.`,
        ),
      );
    const apps = [...this.apps.values()].filter((a) => workspaceId === undefined || a.space_id === workspaceId);
    return TE.right(
      apps.map((a) => ({
        id: a.app_id,
        name: a.name,
        description: a.description,
        workspace_id: a.space_id,
        item_name: a.item_name,
      })),
    );
  }

  getApp(appId: number): TaskEither<GatewayError, App> {
    return TE.fromEither(this.app(appId));
  }

  getViews(appId: number): TaskEither<GatewayError, readonly AppView[]> {
    const app = this.app(appId);
    if (app._tag === 'Left') return TE.left(app.left);
    return TE.right([...this.views.values()].filter((v) => v.app_id === appId).map((v) => v.view));
  }

  getView(viewId: number): TaskEither<GatewayError, { app_id: number; view: AppView }> {
    const v = this.views.get(viewId);
    return v
      ? TE.right(v)
      : TE.left(
          notFound(
            'view',
            String(viewId),
            `View ${viewId} does not exist. records_getAppViews lists the views of an app.`,
          ),
        );
  }

  private app(appId: number): Either<GatewayError, App> {
    const app = this.apps.get(appId);
    return app
      ? E.right(app)
      : E.left(
          notFound(
            'app',
            String(appId),
            `App ${appId} does not exist. records_listApps lists the apps of a workspace.`,
          ),
        );
  }

  // --- RecordStore ---

  get(recordId: number): TaskEither<GatewayError, RecordData> {
    return TE.fromEither(E.map((s: Stored) => this.fresh(s.data))(this.active(recordId)));
  }

  query(app: App, q: RecordQuery): TaskEither<GatewayError, RecordPage> {
    const table = this.tables.get(app.app_id);
    if (!table) return TE.right({ total: 0, records: [] });
    if (q.countOnly) return TE.right({ total: table.count(q.filters), records: [] });
    const rows = table.match(q.filters);
    const page =
      q.sort || q.sortDesc
        ? table.page(rows, q.sort, q.sortDesc, q.offset, q.limit)
        : rows.slice(q.offset, q.offset + q.limit);
    return TE.right({ total: rows.length, records: page.map((row) => this.fresh(table.records[row]!)) });
  }

  matchAll(app: App, filters: readonly ResolvedFilter[]): TaskEither<GatewayError, readonly RecordData[]> {
    const table = this.tables.get(app.app_id);
    if (!table) return TE.right([]);
    const rows = table.match(filters);
    const out = new Array<RecordData>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = table.records[rows[i]!]!;
    return TE.right(out);
  }

  create(app: App, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, RecordData> {
    return () => {
      const made = this.createNow(
        this.apps.get(app.app_id) ?? app,
        fields,
        this.clock.now(),
        this.account.actingUser(),
      );
      if (made._tag === 'Right') this.fire('record.create', made.right.record_id, flags);
      return Promise.resolve(made);
    };
  }

  private createNow(
    app: App,
    fields: ValidatedFields,
    at: Date,
    by: DemoUser,
    calculated: Readonly<Record<number, number>> = {},
  ): Either<GatewayError, RecordData> {
    if (!this.apps.has(app.app_id))
      return E.left(
        notFound('app', String(app.app_id), `App ${app.app_id} does not exist. records_listApps lists the apps.`),
      );
    const room = roomFor('records', this.records.size, this.limits.records);
    if (E.isLeft(room)) return room;
    const values: Record<number, FieldValue> = { ...calculated };
    for (const { field, input } of fields) {
      const v = this.toValue(field, input, undefined);
      if (v._tag === 'Left') return v;
      if (v.right !== undefined) values[field.field_id] = v.right;
    }
    const seq = (this.appSequence.get(app.app_id) ?? 0) + 1;
    this.appSequence.set(app.app_id, seq);
    const id = this.nextRecordId++;
    const user = this.userRef(by);
    const utc = formatInZone(at);
    const local = this.timeZone === 'UTC' ? utc : formatInZone(at, this.timeZone);
    const data: RecordData = {
      record_id: id,
      app_id: app.app_id,
      app_record_id: seq,
      title: this.titleOf(app, values, seq),
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
      row: this.tables.get(app.app_id)!.add(data),
    };
    this.records.set(id, stored);
    this.byApp.get(app.app_id)!.push(stored);
    return E.right(data);
  }

  update(app: App, recordId: number, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, RecordData> {
    return () => {
      const found = this.active(recordId);
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
      const current = this.apps.get(app.app_id)!;
      const values: Record<number, FieldValue> = { ...s.data.values };
      const changed: number[] = [];
      for (const { field, input } of fields) {
        const v = this.toValue(field, input, s.data.values[field.field_id]);
        if (v._tag === 'Left') return Promise.resolve(v);
        if (same(values[field.field_id], v.right)) continue;
        changed.push(field.field_id);
        if (v.right === undefined) delete values[field.field_id];
        else values[field.field_id] = v.right;
      }
      if (changed.length === 0) return Promise.resolve(E.right(this.fresh(s.data)));
      this.write(s, 'update', { values, title: this.titleOf(current, values, s.data.app_record_id) }, changed);
      this.fire('record.update', recordId, flags);
      return Promise.resolve(E.right(this.fresh(s.data)));
    };
  }

  delete(recordId: number, flags: WriteFlags): TaskEither<GatewayError, void> {
    return () => {
      const found = this.active(recordId);
      if (found._tag === 'Left') return Promise.resolve(found);
      const now = this.clock.now();
      this.write(
        found.right,
        'delete',
        { deleted_on: formatInZone(now, this.timeZone), deleted_on_utc: formatInZone(now) },
        [],
      );
      this.fire('record.delete', recordId, flags);
      return Promise.resolve(E.right(undefined));
    };
  }

  restore(recordId: number): TaskEither<GatewayError, RecordData> {
    return () => {
      const s = this.records.get(recordId);
      if (!s) return Promise.resolve(E.left(this.missing(recordId)));
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
      this.write(s, 'restore', { deleted_on: null, deleted_on_utc: null }, []);
      return Promise.resolve(E.right(this.fresh(s.data)));
    };
  }

  revisions(recordId: number): TaskEither<GatewayError, readonly Revision[]> {
    const s = this.records.get(recordId);
    if (!s) return TE.left(this.missing(recordId));
    const app = this.apps.get(s.data.app_id)!;
    return TE.right(
      s.history.map((h) => ({
        revision: h.revision,
        type: h.type,
        created_by: this.person(h.by, app),
        created_on: formatInZone(h.at, this.timeZone),
        record_id: recordId,
        changes: h.changes.map((id) => ({
          field_id: id,
          label: app.fields.find((f) => f.field_id === id)?.label ?? String(id),
        })),
      })),
    );
  }

  revisionDelta(recordId: number, from: number, to: number): TaskEither<GatewayError, readonly FieldDelta[]> {
    const s = this.records.get(recordId);
    if (!s) return TE.left(this.missing(recordId));
    const app = this.apps.get(s.data.app_id)!;
    const last = s.history.length - 1;
    for (const [n, p] of [
      [from, 'revision_from'],
      [to, 'revision_to'],
    ] as const)
      if (n > last)
        return TE.left(
          invalidInput(
            `Record ${recordId} has revisions 0 to ${last}; ${n} does not exist. records_getRecordRevisions lists them.`,
            p,
            `integer from 0 to ${last}`,
          ),
        );
    const a = s.history[from]!.values;
    const b = s.history[to]!.values;
    const out: FieldDelta[] = [];
    for (const f of app.fields) {
      if (same(a[f.field_id], b[f.field_id])) continue;
      out.push({
        field_id: f.field_id,
        external_id: f.external_id,
        label: f.label,
        type: valueTypeOf(f.field_type),
        from: a[f.field_id] ?? null,
        to: b[f.field_id] ?? null,
      });
    }
    return TE.right(out);
  }

  referencing(recordId: number, appId: number): TaskEither<GatewayError, readonly RecordData[]> {
    const app = this.apps.get(appId);
    if (!app)
      return TE.left(notFound('app', String(appId), `App ${appId} does not exist. records_listApps lists the apps.`));
    const relationFields = app.fields.filter((f) => valueTypeOf(f.field_type) === 'app');
    const out: RecordData[] = [];
    for (const s of this.byApp.get(appId) ?? []) {
      if (s.data.deleted_on !== null) continue;
      if (
        relationFields.some((f) =>
          ((s.data.values[f.field_id] as readonly RelationValue[] | undefined) ?? []).some(
            (r) => r.record_id === recordId,
          ),
        )
      )
        out.push(this.fresh(s.data));
    }
    return TE.right(out);
  }

  findRelatable(fieldId: number, text: string, limit: number): TaskEither<GatewayError, readonly RecordData[]> {
    const field = [...this.apps.values()].flatMap((a) => a.fields).find((f) => f.field_id === fieldId);
    if (!field || valueTypeOf(field.field_type) !== 'app')
      return TE.left(
        invalidInput(
          `Field ${fieldId} is ${field ? `${field.field_type}, not a relation field` : 'not a field of any app'}. records_getApp shows an app's relation fields (single_relation, multi_relation).`,
          'field_id',
          'field_id of a relation field',
        ),
      );
    const needle = text.trim().toLowerCase();
    const out: RecordData[] = [];
    for (const appId of field.referenced_app_ids ?? [])
      for (const s of this.byApp.get(appId) ?? [])
        if (s.data.deleted_on === null && s.data.title.toLowerCase().includes(needle)) out.push(this.fresh(s.data));
    out.sort((a, b) => a.title.localeCompare(b.title) || a.record_id - b.record_id);
    return TE.right(out.slice(0, limit));
  }

  uploadFile(file: NewFile): TaskEither<GatewayError, FileValue> {
    const room = roomFor('record files', this.files.size, this.limits.recordFiles);
    if (E.isLeft(room)) return TE.left(room.left);
    return TE.right(this.addFile({ name: file.name, mimetype: file.mimetype, size: file.content.byteLength }));
  }

  deleteFile(fileId: number): TaskEither<GatewayError, void> {
    if (!this.files.delete(fileId)) return TE.left(notFound('file', String(fileId), `File ${fileId} does not exist.`));
    return TE.right(undefined);
  }

  // --- RecordComments ---

  createComment(
    recordId: number,
    value: string,
    fileIds: readonly number[],
    flags: WriteFlags,
  ): TaskEither<GatewayError, Comment> {
    return this.createCommentNow(recordId, value, fileIds, flags);
  }

  private createCommentNow(
    recordId: number,
    value: string,
    fileIds: readonly number[],
    flags: WriteFlags,
  ): TaskEither<GatewayError, Comment> {
    const found = this.active(recordId);
    if (found._tag === 'Left') return TE.left(found.left);
    const room = roomFor('comments', this.comments.size, this.limits.comments);
    if (E.isLeft(room)) return TE.left(room.left);
    const files: FileValue[] = [];
    for (const id of fileIds) {
      const f = this.files.get(id);
      if (!f)
        return TE.left(
          invalidInput(
            `File ${id} does not exist. Upload it first with records_uploadFiles.`,
            'file_ids',
            'ids of uploaded files',
          ),
        );
      files.push(f);
    }
    const app = this.apps.get(found.right.data.app_id)!;
    const { id: _id, ...person } = this.person(this.account.actingUser(), app);
    const comment: Comment = {
      comment_id: this.nextCommentId++,
      created_on: formatInZone(this.clock.now(), this.timeZone),
      files,
      ref: { type: 'record', id: recordId },
      value,
      user: person,
      created_by: person,
    };
    this.comments.set(comment.comment_id, comment);
    this.fire('comment.create', comment.comment_id, flags);
    return TE.right(comment);
  }

  getComment(commentId: number): TaskEither<GatewayError, Comment> {
    const c = this.comments.get(commentId);
    return c
      ? TE.right(c)
      : TE.left(
          notFound(
            'comment',
            String(commentId),
            `Comment ${commentId} does not exist (deleted comments are gone for good). records_listRecordComments lists a record's comments.`,
          ),
        );
  }

  listComments(recordId: number, offset: number, limit: number): TaskEither<GatewayError, CommentPage> {
    if (!this.records.has(recordId)) return TE.left(this.missing(recordId));
    const all = [...this.comments.values()].filter((c) => c.ref.id === recordId);
    return TE.right({ total: all.length, comments: all.slice(offset, offset + limit) });
  }

  deleteComment(commentId: number, flags: Pick<WriteFlags, 'silent' | 'hook'>): TaskEither<GatewayError, void> {
    if (!this.comments.has(commentId))
      return TE.left(
        notFound(
          'comment',
          String(commentId),
          `Comment ${commentId} does not exist (deleted comments are gone for good). records_listRecordComments lists a record's comments.`,
        ),
      );
    this.comments.delete(commentId);
    this.fire('comment.delete', commentId, { ...flags, workflow: false });
    return TE.right(undefined);
  }

  /** The comments port, for binding (its method names are the port's). */
  commentsPort(): RecordComments {
    return {
      create: (r, v, f, fl) => this.createComment(r, v, f, fl),
      get: (id) => this.getComment(id),
      list: (r, o, l) => this.listComments(r, o, l),
      delete: (id, fl) => this.deleteComment(id, fl),
    };
  }

  // --- internals ---

  private active(recordId: number): Either<GatewayError, Stored> {
    const s = this.records.get(recordId);
    if (!s) return E.left(this.missing(recordId));
    if (s.data.deleted_on !== null)
      return E.left(
        notFound(
          'record',
          String(recordId),
          `Record ${recordId} is in the trash (deleted ${s.data.deleted_on}). Restore it with records_restoreRecord {"record_id":${recordId}}.`,
        ),
      );
    return E.right(s);
  }

  private missing(recordId: number): GatewayError {
    return notFound(
      'record',
      String(recordId),
      `Record ${recordId} does not exist. records_listRecords or records_filterRecords find record ids.`,
    );
  }

  private write(s: Stored, type: RevisionType, patch: Partial<RecordData>, changes: number[]): void {
    const now = this.clock.now();
    const by = this.account.actingUser();
    const revision = s.data.revision + 1;
    s.data = {
      ...s.data,
      ...patch,
      revision,
      last_modified_by: this.userRef(by),
      last_modified_on: formatInZone(now, this.timeZone),
      last_modified_on_utc: formatInZone(now),
    };
    s.history.push({ revision, type, by, at: now, values: s.data.values, changes });
    this.tables.get(s.data.app_id)?.set(s.row, s.data);
  }

  private fire(action: string, id: number, flags: WriteFlags): void {
    if (!flags.silent) this.eventLog.push({ kind: 'notification', action, id });
    if (flags.hook) this.eventLog.push({ kind: 'webhook', action, id });
    if (flags.workflow) this.eventLog.push({ kind: 'workflow', action, id });
  }

  private userRef(u: DemoUser): UserRef {
    return { user_id: u.user_id, name: u.name, mail: u.mail, profile_id: u.profile_id };
  }

  private person(u: DemoUser, app: App): PersonRef {
    return {
      id: u.user_id,
      mail: [u.mail],
      user_id: u.user_id,
      name: u.name,
      org_id: this.account.space(app.space_id)?.org_id ?? null,
      type: 'user',
    };
  }

  private titleOf(app: App, values: FieldValues, seq: number): string {
    const tf = titleField(app);
    const v = tf ? values[tf.field_id] : undefined;
    return typeof v === 'string' && v.trim() ? v : `${app.item_name} ${seq}`;
  }

  /** Relation titles as they are now. */
  private fresh(r: RecordData): RecordData {
    const app = this.apps.get(r.app_id);
    if (!app) return r;
    let values: Record<number, FieldValue> | undefined;
    for (const f of app.fields) {
      if (valueTypeOf(f.field_type) !== 'app') continue;
      const v = r.values[f.field_id] as readonly RelationValue[] | undefined;
      if (!v) continue;
      const updated = v.map((x) => ({ ...x, title: this.records.get(x.record_id)?.data.title ?? x.title }));
      if (updated.some((x, i) => x.title !== v[i]!.title)) (values ??= { ...r.values })[f.field_id] = updated;
    }
    return values ? { ...r, values } : r;
  }

  private toValue(
    field: FieldDefinition,
    input: FieldInput,
    existing: FieldValue | undefined,
  ): Either<GatewayError, FieldValue | undefined> {
    const param = `fields.${field.external_id}`;
    if (isSystemField(field.field_type))
      return E.left(invalidInput(`Field "${field.external_id}" is set by the system.`, param, 'nothing'));
    switch (input.kind) {
      case 'clear':
        return E.right(undefined);
      case 'text':
      case 'location':
        return E.right(input.value);
      case 'number':
        return E.right(input.value);
      case 'category':
        return E.right(input.option_ids.map((id) => ({ id, text: field.options!.find((o) => o.id === id)!.text })));
      case 'date':
        return E.right({ start: input.start, end: input.end });
      case 'money':
        return E.right({ value: input.value, currency: input.currency });
      case 'email':
      case 'phone':
        return E.right(input.items.map((i) => ({ type: i.type, value: i.value })));
      case 'link':
        return E.right(input.items.map((i) => ({ url: i.url, title: i.title })));
      case 'relation': {
        const out: RelationValue[] = [];
        for (const id of input.record_ids) {
          const s = this.records.get(id);
          const allowed = field.referenced_app_ids ?? [];
          if (!s || s.data.deleted_on !== null)
            return E.left(
              invalidInput(
                `Record ${id} does not exist or is in the trash, so "${field.external_id}" cannot reference it. records_findRelatableRecords {"field_id":${field.field_id},"text":"..."} finds records it can reference.`,
                param,
                'ids of existing records',
              ),
            );
          if (allowed.length && !allowed.includes(s.data.app_id))
            return E.left(
              invalidInput(
                `Record ${id} is in app ${s.data.app_id}; "${field.external_id}" references records of app ${allowed.join(' or ')}.`,
                param,
                `ids of records of app ${allowed.join(' or ')}`,
              ),
            );
          out.push({ record_id: id, app_id: s.data.app_id, title: s.data.title });
        }
        return E.right(out);
      }
      case 'user': {
        const out = [];
        for (const pid of input.profile_ids) {
          const u = this.account.userByProfileId(pid);
          if (!u) {
            const byUserId = this.account.user(pid);
            const hint = byUserId
              ? ` ${pid} is the user_id of ${byUserId.name}; their profile_id is ${byUserId.profile_id}.`
              : '';
            return E.left(
              invalidInput(
                `No person has profile_id ${pid}.${hint} Contact fields take profile ids: ${[...this.account.users.values()].map((x) => `${x.profile_id} ${x.name}`).join(', ')}.`,
                param,
                'array of profile ids',
              ),
            );
          }
          out.push({ profile_id: u.profile_id, user_id: u.user_id, name: u.name });
        }
        return E.right(out);
      }
      case 'attachment': {
        const out: FileValue[] = [];
        for (const f of input.files) {
          if (!('file_id' in f))
            return E.left(invalidInput('URLs must be uploaded before they reach the store.', param, 'file ids'));
          const file = this.files.get(f.file_id);
          if (!file)
            return E.left(
              invalidInput(
                `File ${f.file_id} does not exist. Upload it with records_uploadFiles, or give its URL.`,
                param,
                'ids of uploaded files or URLs',
              ),
            );
          out.push(file);
        }
        return E.right(out);
      }
      case 'checklist': {
        const before = (existing as readonly ChecklistItem[] | undefined) ?? [];
        const out: ChecklistItem[] = [];
        for (const item of input.items) {
          if (item.id !== undefined && !before.some((b) => b.id === item.id))
            return E.left(
              invalidInput(
                `Checklist item ${item.id} is not on this record (its items: ${before.map((b) => b.id).join(', ') || 'none'}). Leave id out for a new item.`,
                param,
                'ids of existing items',
              ),
            );
          let assignee: ChecklistItem['assignee'] = null;
          if (item.assignee_user_id !== null) {
            const u = this.account.user(item.assignee_user_id);
            if (!u)
              return E.left(
                invalidInput(
                  `No user has user_id ${item.assignee_user_id}. Users: ${[...this.account.users.values()].map((x) => `${x.user_id} ${x.name}`).join(', ')}.`,
                  param,
                  'a user id',
                ),
              );
            assignee = { user_id: u.user_id, name: u.name };
          }
          out.push({
            id: item.id ?? this.nextChecklistId++,
            title: item.title,
            completed: item.completed,
            assignee,
            description: item.description,
            due: item.due,
          });
        }
        return E.right(out.length ? out : undefined);
      }
    }
  }

  private dropSpace(spaceId: number): void {
    for (const app of [...this.apps.values()]) {
      if (app.space_id !== spaceId) continue;
      for (const s of this.byApp.get(app.app_id) ?? []) {
        this.records.delete(s.data.record_id);
        for (const [id, c] of this.comments) if (c.ref.id === s.data.record_id) this.comments.delete(id);
      }
      this.byApp.delete(app.app_id);
      this.tables.delete(app.app_id);
      this.apps.delete(app.app_id);
      for (const [id, v] of this.views) if (v.app_id === app.app_id) this.views.delete(id);
    }
  }

  /** Active records of an app (tests, benchmark). */
  countActive(appId: number): number {
    return this.tables.get(appId)?.active ?? 0;
  }
}
