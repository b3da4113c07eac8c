import { inject, injectable } from 'inversify';
import type { App } from '../../domain/records/app.js';
import { validateFields, type ValidatedFields } from '../../domain/records/field-input.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { E, pipe, TE, type Either, type TaskEither } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordStore } from '../../ports/record-store.js';
import { UrlFetcher } from '../../ports/url-fetcher.js';
import { described, NumericId, object, params, t } from '../runtime/codecs.js';
import { defineTool, type CallContext, type UseCase } from '../runtime/define-tool.js';
import { limitAttachmentUrls, writeWithAttachments } from './attachments.js';
import { FieldsObject, flagParams, flagsOf } from './common.js';
import { BatchOutcomes, batchContinuation, type BatchItem, type BatchResult } from './batch-results.js';
import { batchSummary, fixFor, idRuns } from './batch-text.js';
import { BatchResult as BatchResultCodec } from './record-results.js';
import { runItems } from '../jobs/run-items.js';
import { INLINE_BATCH_MAX, runAsJobHint } from '../jobs/job-tools.js';
import { createOnce } from './keyed-create.js';

/** Records written per chunk: in parallel inside a chunk, chunks one after another (spec Limits). */
export const CHUNK_SIZE = 50;

/** A batch too large for one call (not run as a job): refused before anything is written, saying how to run it. */
const inlineBound = (tool: string, count: number, context: CallContext, parameter: string) =>
  context.items || count <= INLINE_BATCH_MAX
    ? undefined
    : invalidInput(runAsJobHint(tool, count), parameter, `at most ${INLINE_BATCH_MAX} in one call; more as a job`);

interface BadInput {
  readonly index: number;
  readonly parameter?: string;
  readonly message: string;
}

/** How many different problems the message names (details.errors has every bad index). */
const PROBLEMS_NAMED = 20;

/**
 * Each different problem once, with the indexes that have it (`[0-19] Field "name" takes a string.`): twenty
 * inputs with the same mistake are one sentence, not twenty.
 */
const groupedProblems = (bad: readonly BadInput[]): string => {
  const byMessage = new Map<string, number[]>();
  for (const b of bad) {
    const indexes = byMessage.get(b.message);
    if (indexes) indexes.push(b.index);
    else byMessage.set(b.message, [b.index]);
  }
  const groups = [...byMessage];
  const named = groups
    .slice(0, PROBLEMS_NAMED)
    .map(([message, indexes]) => `[${idRuns(indexes).runs.join(', ')}] ${message}`)
    .join(' ');
  return groups.length > PROBLEMS_NAMED
    ? `${named} ...and ${groups.length - PROBLEMS_NAMED} more problems (see details.errors).`
    : named;
};

/** Validates every input first: one bad input means nothing is written, and the 400 names each bad index. */
const validateAll = <I>(
  items: readonly I[],
  validate: (item: I, index: number) => Either<GatewayError, ValidatedFields>,
  what: string,
): Either<GatewayError, ValidatedFields[]> => {
  const bad: BadInput[] = [];
  const good: ValidatedFields[] = [];
  items.forEach((item, index) => {
    const r = validate(item, index);
    if (r._tag === 'Left')
      bad.push({
        index,
        parameter: r.left._tag === 'InvalidInput' ? r.left.parameter : undefined,
        message: r.left.message,
      });
    else good.push(r.right);
  });
  if (bad.length === 0) return E.right(good);
  return E.left(
    invalidInput(
      `${bad.length} of ${items.length} ${what} failed validation, so nothing was written. Fix them and send the batch again. ${groupedProblems(bad)}`,
      what,
      'valid inputs',
      { errors: bad },
    ),
  );
};

const summarise = (items: BatchItem[]): BatchResult => ({
  total: items.length,
  successful: items.filter((i) => i.success).length,
  failed: items.filter((i) => !i.success).length,
  items,
});

export const BatchCreateRecordsParams = params(
  {
    app_id: described(NumericId, 'The app every record goes to.'),
    inputs: described(
      t.array(
        object(
          'BatchInput',
          { fields: described(FieldsObject, 'Values keyed and formatted as in records_createRecord.') },
          {},
        ),
      ),
      'Each {fields}.',
    ),
  },
  flagParams,
);
export type BatchCreateRecordsParams = t.TypeOf<typeof BatchCreateRecordsParams>;

@injectable()
export class BatchCreateRecords implements UseCase<BatchCreateRecordsParams, BatchResult> {
  constructor(
    @inject(RecordStore) private readonly store: RecordStore,
    @inject(RecordApps) private readonly apps: RecordApps,
    @inject(UrlFetcher) private readonly fetcher: UrlFetcher,
    @inject(BatchOutcomes) private readonly outcomes: BatchOutcomes,
  ) {}

  execute(p: BatchCreateRecordsParams, context: CallContext): TaskEither<GatewayError, BatchResult> {
    const flags = flagsOf(p);
    const tooMany = inlineBound('records_batchCreateRecords', p.inputs.length, context, 'inputs');
    if (tooMany) return TE.left(tooMany);
    return pipe(
      this.apps.getApp(p.app_id),
      TE.chain((app) =>
        pipe(
          TE.fromEither(
            validateAll(
              p.inputs,
              (input, i) =>
                pipe(
                  validateFields(app, input.fields, 'create', `inputs[${i}].fields`),
                  E.chain((f) => limitAttachmentUrls(f, `inputs[${i}].fields`)),
                ),
              'inputs',
            ),
          ),
          TE.chain((valid) =>
            TE.fromTask(() =>
              runItems(
                valid,
                CHUNK_SIZE,
                (fields, index, mark) =>
                  // one vendor call per record where the store's create answer names the record (issue 31)
                  pipe(
                    createOnce({ store: this.store, fetcher: this.fetcher }, app, fields, flags, mark),
                    TE.map((r): BatchItem => ({
                      index,
                      success: true,
                      record_id: r.record_id,
                      record_url: r.record_url,
                    })),
                  )(),
                (index, e) => ({ index, success: false, error: e.message, fix: fixFor(e) }),
                context.items,
              ),
            ),
          ),
          TE.map(summarise),
          TE.chain((r) => TE.fromTask(() => this.outcomes.keep(context.principal, r))),
        ),
      ),
    );
  }
}

export const batchCreateRecordsTool = defineTool({
  group: 'records',
  name: 'batchCreateRecords',
  title: 'Create records in bulk',
  description:
    'Creates many records in one app. All are validated first: if any is invalid, nothing is created and the error lists each bad index. Written in chunks of 50; the answer counts them, gives the new record ids and lists the ones that failed.',
  annotations: { kind: 'Write', idempotent: false },
  params: BatchCreateRecordsParams,
  useCase: BatchCreateRecords,
  result: BatchResultCodec,
  ...batchContinuation,
  text: (r) => batchSummary(r, 'Created', false),
});

export const BatchUpdateRecordsParams = params(
  {
    app_id: described(NumericId, 'The app all the records belong to.'),
    updates: described(
      t.array(
        object(
          'BatchUpdate',
          {
            record_id: described(NumericId, 'The record to change.'),
            fields: described(FieldsObject, 'Only the fields to change (formats as records_createRecord).'),
          },
          {},
        ),
      ),
      'Each {record_id, fields}.',
    ),
  },
  flagParams,
);
export type BatchUpdateRecordsParams = t.TypeOf<typeof BatchUpdateRecordsParams>;

@injectable()
export class BatchUpdateRecords implements UseCase<BatchUpdateRecordsParams, BatchResult> {
  constructor(
    @inject(RecordStore) private readonly store: RecordStore,
    @inject(RecordApps) private readonly apps: RecordApps,
    @inject(UrlFetcher) private readonly fetcher: UrlFetcher,
    @inject(BatchOutcomes) private readonly outcomes: BatchOutcomes,
  ) {}

  execute(p: BatchUpdateRecordsParams, context: CallContext): TaskEither<GatewayError, BatchResult> {
    const flags = flagsOf(p);
    const validate = (app: App) => (u: { record_id: number; fields: Record<string, unknown> }, i: number) => {
      const first = p.updates.findIndex((x) => x.record_id === u.record_id);
      if (first !== i)
        return E.left(
          invalidInput(
            `record ${u.record_id} is also updated at index ${first}; merge the two updates.`,
            `updates[${i}].record_id`,
            'each record once',
          ),
        );
      return pipe(
        validateFields(app, u.fields, 'update', `updates[${i}].fields`),
        E.chain((f) => limitAttachmentUrls(f, `updates[${i}].fields`)),
      );
    };
    const tooMany = inlineBound('records_batchUpdateRecords', p.updates.length, context, 'updates');
    if (tooMany) return TE.left(tooMany);
    return pipe(
      this.apps.getApp(p.app_id),
      TE.chain((app) =>
        pipe(
          TE.fromEither(validateAll(p.updates, validate(app), 'updates')),
          TE.chain((valid) =>
            TE.fromTask(() =>
              runItems(
                valid,
                CHUNK_SIZE,
                (fields, index) => {
                  // an update is idempotent: a resumed job writes it again
                  const recordId = p.updates[index]!.record_id;
                  return pipe(
                    writeWithAttachments(fields, this.fetcher, this.store, (f) =>
                      this.store.updateOnly
                        ? this.store.updateOnly(app, recordId, f, flags)
                        : pipe(
                            this.store.update(app, recordId, f, flags),
                            TE.map(() => undefined),
                          ),
                    ),
                    TE.map((): BatchItem => ({ index, success: true, record_id: recordId })),
                  )();
                },
                (index, e) => ({
                  index,
                  success: false,
                  record_id: p.updates[index]!.record_id,
                  error: e.message,
                  fix: fixFor(e),
                }),
                context.items,
              ),
            ),
          ),
          TE.map(summarise),
          TE.chain((r) => TE.fromTask(() => this.outcomes.keep(context.principal, r))),
        ),
      ),
    );
  }
}

export const batchUpdateRecordsTool = defineTool({
  group: 'records',
  name: 'batchUpdateRecords',
  title: 'Update records in bulk',
  description:
    'Changes many records of one app. All are validated first: if any is invalid, none is applied and the error lists each bad index. Written in chunks of 50; the answer counts them and lists the ones that failed.',
  annotations: { kind: 'Write', idempotent: true },
  params: BatchUpdateRecordsParams,
  useCase: BatchUpdateRecords,
  result: BatchResultCodec,
  ...batchContinuation,
  text: (r) => batchSummary(r, 'Updated', true),
});
