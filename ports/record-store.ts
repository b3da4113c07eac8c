import type { ServiceIdentifier } from 'inversify';
import type { App, FieldDefinition } from '../domain/records/app.js';
import type { ValidatedFields } from '../domain/records/field-input.js';
import type { ResolvedFilter } from '../domain/records/filters.js';
import type { RecordData } from '../domain/records/record.js';
import type { FieldDelta, Revision, WriteFlags } from '../domain/records/revision.js';
import type { FileValue } from '../domain/records/values.js';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';

export interface RecordQuery {
  readonly filters: readonly ResolvedFilter[];
  readonly sort?: FieldDefinition;
  readonly sortDesc: boolean;
  readonly offset: number;
  readonly limit: number;
  /** Only `total` is needed. */
  readonly countOnly: boolean;
}

export interface RecordPage {
  readonly total: number;
  readonly records: readonly RecordData[];
}

/** A written record's id and link. */
export interface RecordRef {
  readonly record_id: number;
  readonly record_url: string;
}

export interface NewFile {
  readonly name: string;
  readonly mimetype: string;
  readonly content: Uint8Array;
}

/**
 * Records of apps: reads, writes with revisions, soft delete, relations, files. Values arrive validated
 * (domain/records/field-input.ts) with attachments as file ids; the store checks what only it can know
 * (referenced records and people exist, checklist item ids belong to the record).
 * Contract: test/ports/record-store.contract.ts.
 */
export interface RecordStore {
  /** An active record; one in the trash is NotFound saying so and naming records_restoreRecord. */
  get(recordId: number): TaskEither<GatewayError, RecordData>;
  query(app: App, query: RecordQuery): TaskEither<GatewayError, RecordPage>;
  /**
   * A saved view's records with the view's own filters and sort, applied by the backend (Podio's
   * `POST /item/app/{app_id}/filter/{view_id}/`). A store without it has the view's filters resolved by the
   * gateway and passed to `query`.
   */
  queryView?(
    app: App,
    viewId: number,
    page: { readonly offset: number; readonly limit: number; readonly countOnly: boolean },
  ): TaskEither<GatewayError, RecordPage>;
  /** Every active record the filters match (aggregations). */
  matchAll(app: App, filters: readonly ResolvedFilter[]): TaskEither<GatewayError, readonly RecordData[]>;
  create(app: App, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, RecordData>;
  /** Changes only the given fields; writes a revision when anything changed. */
  update(app: App, recordId: number, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, RecordData>;
  /**
   * `create` without reading the record back, for batches: its id and link only. Optional: a store whose
   * create answer carries them (Podio's `item_id` and `link`) saves one call per record (issue 31).
   */
  createRef?(app: App, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, RecordRef>;
  /**
   * `createRef` with an idempotency mark kept with the record (Podio's item `external_id`), and the
   * record a mark names: a resumed job (issue 40) looks an item up before writing it again. Optional.
   */
  createKeyed?(app: App, fields: ValidatedFields, flags: WriteFlags, key: string): TaskEither<GatewayError, RecordRef>;
  findKeyed?(app: App, key: string): TaskEither<GatewayError, RecordRef | undefined>;
  /** `update` without reading the record back, for batches (optional, as `createRef`). */
  updateOnly?(app: App, recordId: number, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, void>;
  delete(recordId: number, flags: WriteFlags): TaskEither<GatewayError, void>;
  restore(recordId: number): TaskEither<GatewayError, RecordData>;
  revisions(recordId: number): TaskEither<GatewayError, readonly Revision[]>;
  revisionDelta(recordId: number, from: number, to: number): TaskEither<GatewayError, readonly FieldDelta[]>;
  /** Active records of `appId` whose relation fields reference the record. */
  referencing(recordId: number, appId: number): TaskEither<GatewayError, readonly RecordData[]>;
  /** Records a relation field may reference whose title contains the text (InvalidInput when the field is no relation field). */
  findRelatable(fieldId: number, text: string, limit: number): TaskEither<GatewayError, readonly RecordData[]>;
  uploadFile(file: NewFile): TaskEither<GatewayError, FileValue>;
  /** Removes an uploaded file that no record or comment uses yet (undoing an upload of a call that failed). */
  deleteFile(fileId: number): TaskEither<GatewayError, void>;
}

export const RecordStore = Symbol.for('RecordStore') as ServiceIdentifier<RecordStore>;
