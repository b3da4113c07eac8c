import { inject, injectable } from 'inversify';
import { valueTypeOf, type App, type FieldDefinition } from '../../domain/records/app.js';
import type { RecordData } from '../../domain/records/record.js';
import type { RelationValue } from '../../domain/records/values.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { A, E, pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordStore } from '../../ports/record-store.js';
import { described, intRange, MAX_OFFSET, NonEmptyString, NumericId, oneOf, params, t } from '../runtime/codecs.js';
import { defineTool, nextOffset, type UseCase } from '../runtime/define-tool.js';
import type { Presentation } from '../runtime/markdown.js';
import { checkSelection, FieldKey } from './common.js';
import { relatedRecord, relatedRecordJson, type RelatedRecord } from './record-shapes.js';
import { RelatableRecordsResult, RelatedRecordsResult } from './record-results.js';

export const GetRelatedRecordsParams = params(
  {
    app_id: described(NumericId, 'The app of the given records.'),
    related_app_id: described(NumericId, 'The app whose related records you want.'),
    record_ids: described(t.array(NumericId), 'Records of app_id to start from.'),
  },
  {
    direction: described(
      oneOf(['forward', 'reverse', 'both'] as const, 'Direction'),
      'forward: records these reference; reverse: records referencing these.',
      'both',
    ),
    field_ids: described(t.array(FieldKey), 'Fields to show.'),
    verbose: described(t.boolean, 'Every field.', false),
    offset: described(intRange(0, MAX_OFFSET), 'Records to skip.', 0),
  },
);
export type GetRelatedRecordsParams = t.TypeOf<typeof GetRelatedRecordsParams>;

export interface RelatedResult {
  readonly app: App;
  /** How many related records there are, and where this answer starts among them. */
  readonly total: number;
  readonly offset: number;
  readonly records: readonly RelatedRecord[];
  /** The reverse read stopped before Podio's total: `total` is then at least that many, not a count. */
  readonly lowerBound?: boolean;
}

/** Records one reverse filter call reads (Podio's largest filter page). */
const REVERSE_PAGE = 500;
/** The most referencing records read per relation field (20 pages); Podio's total is said beyond it. */
const REVERSE_MAX = 10_000;
/** Referenced records read at once in the forward direction (issue 31: not one after another). */
const FORWARD_PARALLEL = 8;

/** Runs the tasks `size` at a time, keeping their order. */
const inBatches =
  (size: number) =>
  <A>(tasks: readonly TaskEither<GatewayError, A>[]): TaskEither<GatewayError, readonly A[]> =>
  async () => {
    const out: A[] = [];
    for (let i = 0; i < tasks.length; i += size) {
      const r = await TE.sequenceArray(tasks.slice(i, i + size))();
      if (E.isLeft(r)) return r;
      out.push(...r.right);
    }
    return E.right(out);
  };

const unique = (records: readonly RecordData[]): RecordData[] => {
  const seen = new Set<number>();
  return records.filter((r) => (seen.has(r.record_id) ? false : (seen.add(r.record_id), true)));
};

@injectable()
export class GetRelatedRecords implements UseCase<GetRelatedRecordsParams, RelatedResult> {
  constructor(
    @inject(RecordStore) private readonly store: RecordStore,
    @inject(RecordApps) private readonly apps: RecordApps,
  ) {}

  execute(p: GetRelatedRecordsParams): TaskEither<GatewayError, RelatedResult> {
    const { direction } = p;
    const forward = (source: App) =>
      pipe(
        p.record_ids,
        A.map((id) => this.store.get(id)),
        TE.sequenceSeqArray,
        TE.chain((records) => {
          const bad = records.find((r) => r.app_id !== source.app_id);
          if (bad)
            return TE.left(
              invalidInput(
                `Record ${bad.record_id} belongs to app ${bad.app_id}, not app ${source.app_id}.`,
                'record_ids',
                `records of app ${source.app_id}`,
              ),
            );
          const fields = source.fields.filter((f) => valueTypeOf(f.field_type) === 'app');
          const ids = [
            ...new Set(
              records.flatMap((r) =>
                fields.flatMap((f) =>
                  ((r.values[f.field_id] as readonly RelationValue[] | undefined) ?? [])
                    .filter((v) => v.app_id === p.related_app_id)
                    .map((v) => v.record_id),
                ),
              ),
            ),
          ];
          return pipe(
            ids,
            A.map((id) =>
              pipe(
                this.store.get(id),
                TE.map((r): RecordData[] => [r]),
                TE.orElse(() => TE.right<GatewayError, RecordData[]>([])),
              ),
            ),
            inBatches(FORWARD_PARALLEL),
            TE.map((xs) => xs.flat()),
          );
        }),
      );
    // Reverse: one filter of the related app by its relation fields that may point at the source app (Podio
    // filters a relation field by a list of item ids: developers.podio.com/doc/filters, key `{field_id}` of an
    // `app` field, and the Filter items operation, filter-items-4496747), instead of Podio's item references
    // (`GET /item/{id}/reference/`), whose items carry no field values and needed one GET per item (issue 31).
    const reverse = (source: App, related: App) => {
      const links = related.fields.filter(
        (f) =>
          valueTypeOf(f.field_type) === 'app' &&
          (f.referenced_app_ids === undefined || f.referenced_app_ids.includes(source.app_id)),
      );
      // each field's referencing records page by page until Podio's total (`filtered`) is read (issue 42: it
      // stopped at the first 500 and counted what it read)
      const everyPage =
        (field: FieldDefinition): TaskEither<GatewayError, { records: RecordData[]; total: number }> =>
        async () => {
          const records: RecordData[] = [];
          for (let offset = 0; ; offset += REVERSE_PAGE) {
            const page = await this.store.query(related, {
              filters: [
                { kind: 'field', field, type: 'app', match: 'any', strings: [], numbers: [], ids: p.record_ids },
              ],
              sortDesc: false,
              offset,
              limit: REVERSE_PAGE,
              countOnly: false,
            })();
            if (E.isLeft(page)) return page;
            records.push(...page.right.records);
            const done = page.right.records.length < REVERSE_PAGE || records.length >= page.right.total;
            if (done || records.length >= REVERSE_MAX)
              return E.right({ records, total: Math.max(page.right.total, records.length) });
          }
        };
      return pipe(links, A.map(everyPage), TE.sequenceSeqArray);
    };
    return pipe(
      TE.Do,
      TE.bind('source', () => this.apps.getApp(p.app_id)),
      TE.bind('related', () => this.apps.getApp(p.related_app_id)),
      TE.bind('fields', ({ related }) =>
        p.verbose
          ? TE.right(related.fields as readonly FieldDefinition[])
          : checkSelection(related, { field_ids: p.field_ids }),
      ),
      TE.bind('forward', ({ source }) => (direction === 'reverse' ? TE.right([] as RecordData[]) : forward(source))),
      TE.bind('reverse', ({ source, related }) => (direction === 'forward' ? TE.right([]) : reverse(source, related))),
      TE.map(({ related, fields, forward: f, reverse: r }) => {
        const all = unique([...f, ...r.flatMap((x) => x.records)]);
        // a field whose referencing records were not all read: Podio's total for it is the least there are
        const unread = r.filter((x) => x.total > x.records.length);
        return {
          app: related,
          total: Math.max(all.length, ...unread.map((x) => x.total)),
          offset: p.offset,
          records: all.slice(p.offset).map((x) => relatedRecord(related, x, fields)),
          ...(unread.length ? { lowerBound: true } : {}),
        };
      }),
    );
  }
}

/** Fields shown per row; the rest are named below the table, never dropped silently. */
const ROW_FIELDS = 8;

const relatedText = (
  r: { records: readonly RelatedRecord[]; total?: number; offset?: number; lowerBound?: boolean },
  heading: string,
  asked = false,
  after?: string,
): Presentation => {
  // fields the caller named are all shown; otherwise the first ROW_FIELDS filled ones, and the others named
  const width = asked ? Number.MAX_SAFE_INTEGER : ROW_FIELDS;
  const hidden = [...new Set(r.records.flatMap((x) => Object.keys(x.shown).slice(width)))];
  return r.records.length === 0
    ? `${heading}: none.`
    : {
        before: `${heading}: ${r.lowerBound ? 'at least ' : ''}${r.total ?? r.records.length}${r.offset ? ` (from number ${r.offset + 1})` : ''}`,
        columns: ['record_id', 'title', 'created', 'fields'],
        rows: r.records.map((x) => [
          x.record.record_id,
          x.record.title,
          x.record.created_on.slice(0, 10),
          Object.entries(x.shown)
            .slice(0, width)
            .map(([k, v]) => `${k}: ${v}`)
            .join('; '),
        ]),
        notes: hidden.length
          ? `Not shown, to keep rows readable: ${hidden.join(', ')}. Name the fields you need in field_ids (up to ${width} per row here), or read one record in full with records_getRecord.`
          : undefined,
        after,
      };
};

export const getRelatedRecordsTool = defineTool({
  group: 'records',
  name: 'getRelatedRecords',
  title: 'Get related records',
  description:
    'Records of related_app_id linked to the given records of app_id through relation fields, in either direction.',
  annotations: { kind: 'Read', idempotent: true },
  params: GetRelatedRecordsParams,
  useCase: GetRelatedRecords,
  result: RelatedRecordsResult,
  rows: { key: 'records' },
  continuation: (p, r, shown) => nextOffset(p, r.offset, shown, r.total),
  json: (r) => ({
    total: r.total,
    ...(r.lowerBound ? { total_is_lower_bound: true } : {}),
    records: r.records.map((x) => relatedRecordJson(x, true)),
  }),
  text: (r, p) => relatedText(r, `## Related ${r.app.name} (app ${r.app.app_id})`, p.field_ids !== undefined),
});

/** How many matches findRelatableRecords asks for: the best ones, by title. */
const RELATABLE_MATCHES = 50;

export const FindRelatableRecordsParams = params(
  {
    field_id: described(
      NumericId,
      'A relation field (records_getApp shows field_type single_relation or multi_relation).',
    ),
    text: described(NonEmptyString, 'Text the record titles contain.'),
  },
  {
    field_ids: described(t.array(FieldKey), 'Fields to show.'),
    verbose: described(t.boolean, 'Every field.', false),
    offset: described(intRange(0, RELATABLE_MATCHES - 1), `Matches to skip (of the ${RELATABLE_MATCHES} best).`, 0),
  },
);
export type FindRelatableRecordsParams = t.TypeOf<typeof FindRelatableRecordsParams>;

/** The answer of findRelatableRecords: the best matches from `offset` on, of `total` found. */
export interface RelatableResult {
  readonly total: number;
  readonly offset: number;
  readonly records: readonly RelatedRecord[];
}

@injectable()
export class FindRelatableRecords implements UseCase<FindRelatableRecordsParams, RelatableResult> {
  constructor(
    @inject(RecordStore) private readonly store: RecordStore,
    @inject(RecordApps) private readonly apps: RecordApps,
  ) {}

  execute(p: FindRelatableRecordsParams): TaskEither<GatewayError, RelatableResult> {
    return pipe(
      this.store.findRelatable(p.field_id, p.text, RELATABLE_MATCHES),
      TE.chain((records) =>
        pipe(
          [...new Set(records.map((r) => r.app_id))],
          A.map((id) => this.apps.getApp(id)),
          TE.sequenceSeqArray,
          TE.map((apps) =>
            records.map((r) => {
              const app = apps.find((a) => a.app_id === r.app_id)!;
              const fields =
                p.verbose || !p.field_ids
                  ? app.fields
                  : app.fields.filter((f) =>
                      p.field_ids!.some((k) => String(k) === String(f.field_id) || k === f.external_id),
                    );
              return relatedRecord(app, r, fields);
            }),
          ),
        ),
      ),
      TE.map((records) => ({ total: records.length, offset: p.offset, records: records.slice(p.offset) })),
    );
  }
}

export const findRelatableRecordsTool = defineTool({
  group: 'records',
  name: 'findRelatableRecords',
  title: 'Find records a relation field can reference',
  description: 'Finds records a relation field may reference, by title text: their record_id is the relation value.',
  annotations: { kind: 'Read', idempotent: true },
  params: FindRelatableRecordsParams,
  useCase: FindRelatableRecords,
  result: RelatableRecordsResult,
  // the same best matches each time (one search), paged within by offset
  rows: { key: 'records' },
  continuation: (p, r, shown) => nextOffset(p, r.offset, shown, r.total),
  json: (r) => ({ total: r.total, records: r.records.map((x) => relatedRecordJson(x, false)) }),
  text: (r, p) =>
    relatedText(
      r,
      `## Records field ${p.field_id} can reference, title containing "${p.text}"`,
      p.field_ids !== undefined,
      r.records[0]
        ? `Use one as the value of field ${p.field_id}: [${r.records[0].record.record_id}] in records_createRecord or records_updateRecord.`
        : undefined,
    ),
});
