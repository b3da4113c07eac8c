import type { Principal } from '../../ports/authenticator.js';
import type { TraceCarrier } from '../../ports/call-observer.js';
import { FINISHED, type ItemOutcome, type JobRow, type JobStore } from '../../ports/job-queue.js';
import type { CallMeta, Settled } from '../runtime/executor-types.js';
import type { RegisteredTool } from '../runtime/registry.js';
import { toolError, type ToolError } from '../runtime/tool-error.js';
import type { JobEngine } from './job-engine.js';
import type { JobOutcome } from './job-outcome.js';

/** Items of a job's results on one page, and failures listed in a job's status. */
export const JOB_PAGE_MAX = 500;
export const JOB_PAGE_DEFAULT = 100;
const FAILURES_SHOWN = 20;

/** A job as its caller sees it (REST `GET /v1/jobs/{id}`, the MCP task's result). */
export interface JobView {
  readonly job_id: string;
  readonly tool: string;
  readonly status: JobRow['status'];
  readonly progress: {
    readonly done: number;
    readonly total: number | null;
    readonly failed: number;
    /** "1,250 of 5,000 (3 failed)". */
    readonly text: string;
  };
  /** The first failures so far (all of them: `failed_only` on the results). */
  readonly failures: readonly ItemOutcome[];
  /** An instance running it stopped and another went on with it. */
  readonly resumed: boolean;
  readonly created_at: string;
  readonly updated_at: string;
  readonly finished_at: string | null;
  /** When the job and its results are deleted. */
  readonly expires_at: string;
  readonly error?: ToolError;
  /** The result (a batch's counts and batch_id; its items are the page below). */
  readonly result?: unknown;
  /** One page of the per-item results, from `offset`; `next_offset` when there are more. */
  readonly items?: readonly ItemOutcome[];
  readonly offset?: number;
  readonly next_offset?: number;
}

export const progressText = (row: JobRow): string => {
  const n = (x: number) => x.toLocaleString('en-US');
  if (row.total === null) return row.status === 'queued' ? 'queued' : 'starting';
  return `${n(row.done)} of ${n(row.total)}${row.failed ? ` (${n(row.failed)} failed)` : ''}`;
};

/** The caller's view of a job, with a page of its item results when asked for. */
export const jobView = async (
  store: JobStore,
  row: JobRow,
  page?: { readonly offset: number; readonly limit: number; readonly failedOnly: boolean },
): Promise<JobView> => {
  const outcome = row.outcome ? (JSON.parse(row.outcome) as JobOutcome) : undefined;
  const failures = row.failed > 0 ? await store.outcomes(row.id, 0, FAILURES_SHOWN, true) : [];
  const items = page ? await store.outcomes(row.id, page.offset, page.limit + 1, page.failedOnly) : undefined;
  return {
    job_id: row.id,
    tool: row.tool,
    status: row.status,
    progress: { done: row.done, total: row.total, failed: row.failed, text: progressText(row) },
    failures,
    resumed: row.attempts > 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    finished_at: row.finished_at,
    expires_at: row.expires_at,
    ...(outcome?.error ? { error: outcome.error } : {}),
    ...(outcome?.result !== undefined ? { result: outcome.result } : {}),
    ...(page && items
      ? {
          items: items.slice(0, page.limit),
          offset: page.offset,
          ...(items.length > page.limit ? { next_offset: page.offset + page.limit } : {}),
        }
      : {}),
  };
};

export const isFinished = (row: JobRow): boolean => FINISHED.has(row.status);

/** A short account of a job for a person: what, where it stands, what failed. */
export const jobText = (v: JobView): string => {
  const lines = [`## Job ${v.job_id}: ${v.tool}, ${v.status}`, '', `Progress: ${v.progress.text}.`];
  if (v.resumed) lines.push('An instance running it stopped; another went on from the items already written.');
  if (v.error) lines.push(`Error: ${v.error.message}`);
  for (const f of v.failures.slice(0, 5))
    lines.push(`- item ${f.index} failed: ${String((f as { error?: unknown }).error ?? 'unknown error')}`);
  return lines.join('\n');
};

/**
 * The executor's `defer` for a call that runs as a job: queues it, and answers with the job's view. `onQueued`
 * learns the job's id (REST answers 202 with its Location).
 */
export const deferToJob =
  (
    engine: JobEngine,
    call: {
      readonly tool: RegisteredTool;
      readonly principal: Principal;
      readonly requestId: string;
      readonly trace?: TraceCarrier;
    },
    onQueued?: (row: JobRow) => void,
    onStoreError?: (error: unknown) => void,
  ) =>
  async (params: unknown, meta: CallMeta | undefined): Promise<Settled> => {
    let view: JobView;
    try {
      const row = await engine.submit({ ...call, params });
      if ('code' in row) return { ok: false, error: row, meta };
      view = await jobView(engine.store, row);
      onQueued?.(row);
    } catch (error) {
      onStoreError?.(error);
      return {
        ok: false,
        error: toolError(
          503,
          'UNAVAILABLE',
          'The job store is not answering, so the job was not started. Retry shortly.',
          {
            retry_after_seconds: 5,
          },
        ),
        meta,
      };
    }
    return { ok: true, tool: call.tool, payload: view, text: () => jobText(view), meta: { ...meta, deferred: true } };
  };
