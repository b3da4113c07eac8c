import { inject, injectable } from 'inversify';
import { isIdField } from '../../domain/records/field.js';
import { formatByType } from '../../domain/records/field-types/table.js';
import { lastChangeRange, type FieldDelta, type Revision } from '../../domain/records/revision.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { RecordStore } from '../../ports/record-store.js';
import { described, intRange, MAX_OFFSET, NumericId, params, t } from '../runtime/codecs.js';
import { defineTool, nextOffset, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps, table } from '../runtime/markdown.js';
import { RevisionDeltaResult, RevisionsResult } from './record-results.js';

export const GetRecordRevisionsParams = params(
  { record_id: described(NumericId, 'The record whose history to show.') },
  { offset: described(intRange(0, MAX_OFFSET), 'Revisions to skip.', 0) },
);
export type GetRecordRevisionsParams = t.TypeOf<typeof GetRecordRevisionsParams>;

/** A record's revisions from `offset` on, and how many it has. */
export interface RecordRevisions {
  readonly record_id: number;
  readonly total: number;
  readonly offset: number;
  readonly revisions: readonly Revision[];
}

@injectable()
export class GetRecordRevisions implements UseCase<GetRecordRevisionsParams, RecordRevisions> {
  constructor(@inject(RecordStore) private readonly store: RecordStore) {}
  execute(p: GetRecordRevisionsParams): TaskEither<GatewayError, RecordRevisions> {
    return pipe(
      this.store.revisions(p.record_id),
      TE.map((revisions) => ({
        record_id: p.record_id,
        total: revisions.length,
        offset: p.offset,
        revisions: revisions.slice(p.offset),
      })),
    );
  }
}

/** The delta call for the last change of field values, when the revisions shown hold one (never an empty delta). */
const changeHint = (r: RecordRevisions): string | undefined => {
  const range = lastChangeRange(r.revisions);
  return range
    ? nextSteps([
        `Values before and after the last change: ${call('records_getRecordRevisionDelta', { record_id: r.record_id, ...range })}`,
      ])
    : undefined;
};

export const getRecordRevisionsTool = defineTool({
  group: 'records',
  name: 'getRecordRevisions',
  title: 'Get the revisions of a record',
  description:
    'Every change of a record, oldest first: revision (0 is the creation), who, when and which fields. records_getRecordRevisionDelta shows the values.',
  annotations: { kind: 'Read', idempotent: true },
  params: GetRecordRevisionsParams,
  useCase: GetRecordRevisions,
  result: RevisionsResult,
  rows: { key: 'revisions' },
  continuation: (p, r, shown) => nextOffset(p, r.offset, shown, r.total),
  json: (r) => ({ revisions: r.revisions }),
  text: (r) => ({
    before: `## Revisions of record ${r.record_id}: ${r.total}${r.offset ? ` (from number ${r.offset + 1})` : ''}`,
    columns: ['revision', 'type', 'by', 'on', 'fields changed'],
    rows: r.revisions.map((x) => [
      x.revision,
      x.type,
      `${x.created_by.name} (user ${x.created_by.user_id})`,
      x.created_on,
      x.changes.map((c) => c.label).join(', '),
    ]),
    after: changeHint(r),
  }),
});

export const GetRecordRevisionDeltaParams = params(
  {
    record_id: described(NumericId, 'The record.'),
    revision_from: described(intRange(0), 'The earlier revision (0 is the creation).'),
    revision_to: described(intRange(0), 'The later revision.'),
  },
  {},
);
export type GetRecordRevisionDeltaParams = t.TypeOf<typeof GetRecordRevisionDeltaParams>;

/** The values of the fields that changed between two revisions. */
export interface RevisionDelta {
  readonly record_id: number;
  readonly revision_from: number;
  readonly revision_to: number;
  readonly changes: readonly FieldDelta[];
}

@injectable()
export class GetRecordRevisionDelta implements UseCase<GetRecordRevisionDeltaParams, RevisionDelta> {
  constructor(@inject(RecordStore) private readonly store: RecordStore) {}
  execute(p: GetRecordRevisionDeltaParams): TaskEither<GatewayError, RevisionDelta> {
    const [from, to] =
      p.revision_from <= p.revision_to ? [p.revision_from, p.revision_to] : [p.revision_to, p.revision_from];
    return pipe(
      this.store.revisionDelta(p.record_id, from, to),
      TE.map((changes) => ({ record_id: p.record_id, revision_from: from, revision_to: to, changes })),
    );
  }
}

const show = (d: FieldDelta, v: FieldDelta['from']): string =>
  v === null ? '(empty)' : formatByType(d.type, v, isIdField(d));

export const getRecordRevisionDeltaTool = defineTool({
  group: 'records',
  name: 'getRecordRevisionDelta',
  title: 'Compare two revisions of a record',
  description: 'The values that differ between two revisions of a record (records_getRecordRevisions).',
  annotations: { kind: 'Read', idempotent: true },
  params: GetRecordRevisionDeltaParams,
  useCase: GetRecordRevisionDelta,
  result: RevisionDeltaResult,
  text: (r) =>
    r.changes.length === 0
      ? `## Record ${r.record_id}: no field differs between revisions ${r.revision_from} and ${r.revision_to}`
      : [
          `## Record ${r.record_id}: ${r.changes.length} field${r.changes.length === 1 ? '' : 's'} changed from revision ${r.revision_from} to ${r.revision_to}`,
          table(
            ['field', 'before', 'after'],
            r.changes.map((c) => [`${c.label} (${c.field_id})`, show(c, c.from), show(c, c.to)]),
          ),
        ].join('\n\n'),
});
