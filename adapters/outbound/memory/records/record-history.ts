// Reading the in-memory records' history (revisions and deltas) and their relations (who references a
// record, which records a relation field can reference).
import { valueTypeOf } from '../../../../domain/records/app.js';
import type { RecordData } from '../../../../domain/records/record.js';
import type { FieldDelta, Revision } from '../../../../domain/records/revision.js';
import { formatInZone, type RelationValue } from '../../../../domain/records/values.js';
import { invalidInput, notFound, type GatewayError } from '../../../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../../../domain/shared/fp.js';
import { sameValue, type RecordsState } from './records-state.js';

export const revisionsOf = (state: RecordsState, recordId: number): TaskEither<GatewayError, readonly Revision[]> => {
  const s = state.records.get(recordId);
  if (!s) return TE.left(state.missing(recordId));
  const app = state.catalog.apps.get(s.data.app_id)!;
  return TE.right(
    s.history.map((h) => ({
      revision: h.revision,
      type: h.type,
      created_by: state.person(h.by, app),
      created_on: formatInZone(h.at, state.timeZone),
      record_id: recordId,
      changes: h.changes.map((id) => ({
        field_id: id,
        label: app.fields.find((f) => f.field_id === id)?.label ?? String(id),
      })),
    })),
  );
};

export const deltaOf = (
  state: RecordsState,
  recordId: number,
  from: number,
  to: number,
): TaskEither<GatewayError, readonly FieldDelta[]> => {
  const s = state.records.get(recordId);
  if (!s) return TE.left(state.missing(recordId));
  const app = state.catalog.apps.get(s.data.app_id)!;
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
    if (sameValue(a[f.field_id], b[f.field_id])) continue;
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
};

export const referencingOf = (
  state: RecordsState,
  recordId: number,
  appId: number,
): TaskEither<GatewayError, readonly RecordData[]> => {
  const app = state.catalog.apps.get(appId);
  if (!app)
    return TE.left(notFound('app', String(appId), `App ${appId} does not exist. records_listApps lists the apps.`));
  const relationFields = app.fields.filter((f) => valueTypeOf(f.field_type) === 'app');
  const out: RecordData[] = [];
  for (const s of state.byApp.get(appId) ?? []) {
    if (s.data.deleted_on !== null) continue;
    if (
      relationFields.some((f) =>
        ((s.data.values[f.field_id] as readonly RelationValue[] | undefined) ?? []).some(
          (r) => r.record_id === recordId,
        ),
      )
    )
      out.push(state.fresh(s.data));
  }
  return TE.right(out);
};

export const relatableOf = (
  state: RecordsState,
  fieldId: number,
  text: string,
  limit: number,
): TaskEither<GatewayError, readonly RecordData[]> => {
  const field = [...state.catalog.apps.values()].flatMap((a) => a.fields).find((f) => f.field_id === fieldId);
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
    for (const s of state.byApp.get(appId) ?? [])
      if (s.data.deleted_on === null && s.data.title.toLowerCase().includes(needle)) out.push(state.fresh(s.data));
  out.sort((a, b) => a.title.localeCompare(b.title) || a.record_id - b.record_id);
  return TE.right(out.slice(0, limit));
};
