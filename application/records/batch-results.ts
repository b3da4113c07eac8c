import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { notFound, type GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import type { Principal } from '../../ports/authenticator.js';
import { SharedCache } from '../../ports/shared-cache.js';
import { described, intRange, MAX_OFFSET, params, t, withHint } from '../runtime/codecs.js';
import { defineTool, nextOffset, type CallContext, type UseCase } from '../runtime/define-tool.js';
import { SchemaType } from '../runtime/json-schema.js';
import type { Page } from '../runtime/markdown.js';
import { StoredBatchResult } from './record-results.js';

// A batch's per-record results can be longer than the output budget, and the writes cannot be repeated to
// fetch the rest. So every finished batch is kept for an hour (in the shared cache: Redis when
// configured), under its caller and a random id, and records_getBatchResults pages through it: the
// call a cut batch answer names for the rest.

export interface BatchItem {
  readonly index: number;
  readonly success: boolean;
  readonly record_id?: number;
  readonly record_url?: string;
  readonly error?: string;
  /** A failed record: what to change before sending it again. */
  readonly fix?: string;
}

export interface BatchResult {
  readonly total: number;
  readonly successful: number;
  readonly failed: number;
  /** Where the results are kept for records_getBatchResults (absent from a page read back from there). */
  readonly batch_id?: string;
  readonly items: readonly BatchItem[];
}

/** How long a batch's results can be read back. */
export const BATCH_RESULTS_TTL_SECONDS = 3600;

const BATCH_ID = /^b[0-9a-f]{32}$/;

const keyOf = (caller: Principal, batchId: string) => `batch-results:${caller.tenant}:${caller.id}:${batchId}`;

/** Keeps and finds finished batches, per tenant and caller: another caller's batch id finds nothing. */
@injectable()
export class BatchOutcomes {
  constructor(@inject(SharedCache) private readonly cache: SharedCache) {}

  /**
   * Keeps the result and returns it with its batch_id, read back first: the shared cache is best effort
   * (a Redis that is away drops the write), and a batch_id that finds nothing would name a dead call. A
   * result that could not be kept has no batch_id, so a budget that cuts it has no call to name and the
   * JSON answer is given whole (the text says to ask with format=json).
   */
  async keep(caller: Principal, result: BatchResult): Promise<BatchResult> {
    const batchId = `b${randomBytes(16).toString('hex')}`;
    const key = keyOf(caller, batchId);
    await this.cache.set(key, JSON.stringify(result), BATCH_RESULTS_TTL_SECONDS);
    return (await this.cache.get(key)) === undefined ? result : { ...result, batch_id: batchId };
  }

  async find(caller: Principal, batchId: string): Promise<BatchResult | undefined> {
    const raw = await this.cache.get(keyOf(caller, batchId));
    return raw === undefined ? undefined : (JSON.parse(raw) as BatchResult);
  }
}

/** A batch answer's rows continue in records_getBatchResults. */
export const batchContinuation = {
  rows: { key: 'items' },
  continuesWith: 'records_getBatchResults',
  continuation: (_p: unknown, r: BatchResult, shown: number) =>
    r.batch_id && shown < r.items.length ? { batch_id: r.batch_id, offset: shown } : undefined,
} as const;

/** A page of a kept batch's results (records_getBatchResults): one row per record, from `offset` on. */
export const batchText = (r: BatchResult, verb: string, offset = 0): Page => ({
  before: `## ${verb} ${verb.endsWith('failed') ? r.failed : r.successful} of ${r.total} record${r.total === 1 ? '' : 's'}${r.failed && !verb.endsWith('failed') ? ` (${r.failed} failed)` : ''}${offset ? `; results from number ${offset + 1}` : ''}`,
  columns: ['index', 'success', 'record_id', 'error', 'what to change'],
  rows: r.items.map((i) => [i.index, i.success ? 'yes' : 'no', i.record_id, i.error, i.fix]),
});

const BatchId = new SchemaType<string, string, unknown>(
  'BatchId',
  (u): u is string => typeof u === 'string' && BATCH_ID.test(u),
  (u, c) =>
    typeof u === 'string' && BATCH_ID.test(u) ? t.success(u) : t.failure(u, c, 'a batch_id from a batch answer'),
  t.identity,
  // what it must hold, for the schema and the 400 ("a non-empty string", never "a string; got \"\"")
  { type: 'string', minLength: 1 },
);

const BatchIdWithHint = withHint(
  BatchId,
  () =>
    'A batch_id is the batch_id of a records_batchCreateRecords or records_batchUpdateRecords answer: "b" and 32 hex digits.',
);

export const GetBatchResultsParams = params(
  { batch_id: described(BatchIdWithHint, 'The batch_id of a batch answer (kept 1 hour).') },
  {
    failed_only: described(t.boolean, 'Only the records that failed (offset then counts failures).', false),
    offset: described(intRange(0, MAX_OFFSET), 'Results to skip.', 0),
  },
);
export type GetBatchResultsParams = t.TypeOf<typeof GetBatchResultsParams>;

/** One page of a kept batch: its counts, and its results from `offset` on. */
export interface BatchResultsPage extends BatchResult {
  readonly offset: number;
}

@injectable()
export class GetBatchResults implements UseCase<GetBatchResultsParams, BatchResultsPage> {
  constructor(@inject(BatchOutcomes) private readonly outcomes: BatchOutcomes) {}

  execute(p: GetBatchResultsParams, context: CallContext): TaskEither<GatewayError, BatchResultsPage> {
    return pipe(
      TE.fromTask(() => this.outcomes.find(context.principal, p.batch_id)),
      TE.chain((kept) =>
        kept
          ? TE.right({
              ...kept,
              batch_id: p.batch_id,
              offset: p.offset,
              items: (p.failed_only ? kept.items.filter((i) => !i.success) : kept.items).slice(p.offset),
            })
          : TE.left<GatewayError, BatchResultsPage>(
              notFound(
                'batch',
                p.batch_id,
                `No results of batch ${p.batch_id} for this caller: they are kept for an hour after the batch, for the caller that ran it.`,
              ),
            ),
      ),
    );
  }
}

export const getBatchResultsTool = defineTool({
  group: 'records',
  name: 'getBatchResults',
  title: 'Read the results of a batch',
  description: 'Reads back the per-record results of a batch call, a page at a time.',
  annotations: { kind: 'Read', idempotent: true },
  params: GetBatchResultsParams,
  useCase: GetBatchResults,
  result: StoredBatchResult,
  rows: { key: 'items' },
  continuation: (p, r, shown) => nextOffset(p, r.offset, shown, p.failed_only ? r.failed : r.total),
  text: (r, p) => batchText(r, p.failed_only ? 'Batch results: failed' : 'Batch results: written', r.offset),
});
