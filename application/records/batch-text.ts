// A batch answer as a model reads it: counts, the failures (each with what to change), and where to read
// every record's result: the record ids in compact form (runs of consecutive ids) and the call that reads
// the results back. An all-success batch of 245 is a few lines, not a 245-row table of "yes"; the
// structured answer keeps every item.
import type { GatewayError } from '../../domain/shared/errors.js';
import { call, joinBlocks, plural, table } from '../runtime/markdown.js';
import type { BatchItem, BatchResult } from './batch-results.js';

/** Failures listed in a batch answer; the others are one records_getBatchResults call away. */
export const FAILURES_SHOWN = 20;
/** Runs of record ids written out; past them, records_getBatchResults gives each id. */
const RUNS_SHOWN = 12;
/** Characters of one failure's message in the table. */
const ERROR_CHARS = 240;

/** What to change before sending a failed record again, by the kind of error it met. */
export const fixFor = (e: GatewayError): string => {
  switch (e._tag) {
    case 'InvalidInput':
      return e.parameter ? `fix ${e.parameter} and send it again` : 'fix its fields and send it again';
    case 'NotFound':
      return `the ${e.resource} does not exist: check its id (records_listRecords lists records)`;
    case 'Conflict':
      return 'it changed meanwhile: read it (records_getRecord) and send it again';
    case 'Forbidden':
      return 'the connection may not write it: nothing to change in the input';
    case 'RateLimited':
    case 'Unavailable':
      return `send it again after ${e.retryAfterSeconds} seconds`;
    case 'UpstreamFailure':
      return e.retryable ? 'send it again (nothing was written)' : 'not safe to send again as it is: check the record';
    case 'NotConnected':
      return `connect the account (${e.connectUrl}) and send it again`;
    case 'TooComplex':
      return `make it smaller (${e.limit})`;
  }
};

/** `70101-70343, 70400, 70402-70410`: ids in input order as runs of consecutive numbers. */
export const idRuns = (ids: readonly number[]): { readonly runs: readonly string[]; readonly count: number } => {
  const runs: string[] = [];
  let start = ids[0];
  let prev = start;
  for (let i = 1; i <= ids.length; i++) {
    const id = ids[i];
    if (id !== undefined && prev !== undefined && id === prev + 1) {
      prev = id;
      continue;
    }
    if (start !== undefined) runs.push(start === prev ? String(start) : `${start}-${prev}`);
    start = id;
    prev = id;
  }
  return { runs, count: runs.length };
};

/** `0-16, 18-244`: indexes as runs, for the records that succeeded when some failed. */
const indexRuns = (items: readonly BatchItem[]) => idRuns(items.map((i) => i.index)).runs.join(', ');

const clip = (s: string | undefined) =>
  s === undefined ? '' : s.length > ERROR_CHARS ? `${s.slice(0, ERROR_CHARS - 1)}…` : s;

/**
 * The text of a batch answer. `verb` is what happened to each record ("Created", "Updated"); `updates`
 * says the records existed (their ids are the inputs', so the failure table shows them).
 */
export const batchSummary = (r: BatchResult, verb: string, updates: boolean): string => {
  const done = r.items.filter((i) => i.success);
  const failed = r.items.filter((i) => !i.success);
  const heading = `## ${verb} ${r.successful} of ${plural(r.total, 'record')}${r.failed ? ` (${r.failed} failed)` : ''}`;

  const ids = idRuns(done.flatMap((i) => (i.record_id === undefined ? [] : [i.record_id])));
  const which = failed.length ? ` (index${done.length === 1 ? '' : 'es'} ${indexRuns(done)})` : ', in input order';
  const idLine =
    done.length === 0
      ? undefined
      : ids.count <= RUNS_SHOWN
        ? `**record_id${done.length === 1 ? '' : 's'}**${which}: ${ids.runs.join(', ')}`
        : `**record_ids**${which}: ${ids.runs.slice(0, RUNS_SHOWN).join(', ')}, … (${ids.count - RUNS_SHOWN} more runs)`;

  const shown = failed.slice(0, FAILURES_SHOWN);
  const failures = failed.length
    ? joinBlocks(
        `**Failed:** ${plural(failed.length, 'record')}, at index${failed.length === 1 ? '' : 'es'} ${indexRuns(failed)}. Nothing else needs sending again.`,
        table(
          updates ? ['index', 'record_id', 'error', 'what to change'] : ['index', 'error', 'what to change'],
          shown.map((i) => (updates ? [i.index, i.record_id, clip(i.error), i.fix] : [i.index, clip(i.error), i.fix])),
        ),
        failed.length > shown.length && r.batch_id
          ? `${failed.length - shown.length} more failures: ${call('records_getBatchResults', { batch_id: r.batch_id, failed_only: true, offset: shown.length })}`
          : failed.length > shown.length
            ? `${failed.length - shown.length} more failures are in the structured answer.`
            : undefined,
      )
    : undefined;

  const readBack = r.batch_id
    ? `Each record's result (id, link, error), for an hour: ${call('records_getBatchResults', { batch_id: r.batch_id })}`
    : "Each record's result is in the structured answer (the results could not be kept for records_getBatchResults).";

  return joinBlocks(heading, idLine, failures, readBack);
};
