// What the in-memory records adapter holds (records with their history, per-app columns, files, the log of
// what writes fired) and the steps every part of it shares.
import { titleField, valueTypeOf, type App } from '../../../../domain/records/app.js';
import type { RecordData, UserRef } from '../../../../domain/records/record.js';
import type { PersonRef, RevisionType, WriteFlags } from '../../../../domain/records/revision.js';
import {
  formatInZone,
  type FieldValue,
  type FieldValues,
  type FileValue,
  type RelationValue,
} from '../../../../domain/records/values.js';
import { notFound, type GatewayError } from '../../../../domain/shared/errors.js';
import { E, type Either } from '../../../../domain/shared/fp.js';
import type { Clock } from '../../../../ports/clock.js';
import { BoundedLog } from '../bounded-log.js';
import type { DemoLimits } from '../demo-limits.js';
import type { DemoUser, InMemoryPodioAccount } from '../in-memory-podio-account.js';
import type { AppCatalog } from './app-catalog.js';
import { RecordColumns } from './columns.js';

/** What would have fired in Podio: notifications (unless silent), webhooks (hook) and workflows (workflow). */
export interface RecordedEvent {
  readonly kind: 'notification' | 'webhook' | 'workflow';
  readonly action: string;
  readonly id: number;
}

export interface Snapshot {
  readonly revision: number;
  readonly type: RevisionType;
  readonly by: DemoUser;
  readonly at: Date;
  readonly values: FieldValues;
  readonly changes: readonly number[];
}

export interface Stored {
  data: RecordData;
  history: Snapshot[];
  /** The record's row in its app's columns. */
  row: number;
}

export type RecordLimits = Pick<DemoLimits, 'records' | 'comments' | 'recordFiles'>;

export const sameValue = (a: FieldValue | undefined, b: FieldValue | undefined): boolean =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export class RecordsState {
  readonly records = new Map<number, Stored>();
  readonly byApp = new Map<number, Stored[]>();
  /** Per app: the records as columns, for filters, sorting and aggregations. */
  readonly tables = new Map<number, RecordColumns>();
  readonly files = new Map<number, FileValue>();
  readonly appSequence = new Map<number, number>();
  /** The notifications, webhooks and workflow triggers writes fired: the last 10,000, for a day. */
  readonly eventLog: BoundedLog<RecordedEvent>;
  nextRecordId = 70001;
  nextFileId = 81001;
  nextChecklistId = 1;

  constructor(
    readonly catalog: AppCatalog,
    readonly clock: Clock,
    readonly account: InMemoryPodioAccount,
    readonly timeZone: string,
    readonly limits: RecordLimits,
  ) {
    this.eventLog = new BoundedLog(10_000, 86_400_000, () => clock.now().getTime());
  }

  /** Makes room for an app's records. */
  addApp(appId: number): void {
    this.byApp.set(appId, this.byApp.get(appId) ?? []);
    if (!this.tables.has(appId)) this.tables.set(appId, new RecordColumns());
  }

  addFile(file: Omit<FileValue, 'file_id'>): FileValue {
    const f = { file_id: this.nextFileId++, ...file };
    this.files.set(f.file_id, f);
    return f;
  }

  active(recordId: number): Either<GatewayError, Stored> {
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

  missing(recordId: number): GatewayError {
    return notFound(
      'record',
      String(recordId),
      `Record ${recordId} does not exist. records_listRecords or records_filterRecords find record ids.`,
    );
  }

  /** A new revision of a record, by the acting user, now. */
  write(s: Stored, type: RevisionType, patch: Partial<RecordData>, changes: number[]): void {
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

  fire(action: string, id: number, flags: WriteFlags): void {
    if (!flags.silent) this.eventLog.push({ kind: 'notification', action, id });
    if (flags.hook) this.eventLog.push({ kind: 'webhook', action, id });
    if (flags.workflow) this.eventLog.push({ kind: 'workflow', action, id });
  }

  userRef(u: DemoUser): UserRef {
    return { user_id: u.user_id, name: u.name, mail: u.mail, profile_id: u.profile_id };
  }

  person(u: DemoUser, app: App): PersonRef {
    return {
      id: u.user_id,
      mail: [u.mail],
      user_id: u.user_id,
      name: u.name,
      org_id: this.account.space(app.space_id)?.org_id ?? null,
      type: 'user',
    };
  }

  titleOf(app: App, values: FieldValues, seq: number): string {
    const tf = titleField(app);
    const v = tf ? values[tf.field_id] : undefined;
    return typeof v === 'string' && v.trim() ? v : `${app.item_name} ${seq}`;
  }

  /** Relation titles as they are now. */
  fresh(r: RecordData): RecordData {
    const app = this.catalog.apps.get(r.app_id);
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
}
