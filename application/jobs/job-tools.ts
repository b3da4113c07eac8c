/**
 * The tools that can run as a long job (MCP `execution.taskSupport: "optional"`, REST `Prefer: respond-async`)
 * and whether the job goes item by item (a batch: progress "n of N", per-item marks, resume from the
 * last settled item) or runs the call whole (a copy, a move, a long read).
 */
export const JOB_TOOLS: ReadonlyMap<string, { readonly items: boolean }> = new Map([
  ['records_batchCreateRecords', { items: true }],
  ['records_batchUpdateRecords', { items: true }],
  ['records_uploadFiles', { items: false }],
  ['files_copyItem', { items: false }],
  ['files_moveItem', { items: false }],
  ['files_readFile', { items: false }],
]);

/**
 * The most inputs a batch takes in one call that is not a job: 10 chunks of 50, one after another. Measured
 * (bench/jobs.ts, BENCH_JOBS_INLINE=1, docs/benchmarks.md): against the Podio stand-in at 1.5 s a write (a
 * slow Podio) 500 take 16 s, about half the 30 s call deadline; at 150 ms a write they take 2.3 s, and a call
 * could write about 6,500. The bound is set for the slow vendor, since a call cannot know the latency ahead.
 * A larger batch must run as a job.
 */
export const INLINE_BATCH_MAX = 500;

/** The sentence a too-large inline batch answers with: how to run it as a job instead. */
export const runAsJobHint = (tool: string, count: number): string =>
  `${count} inputs are more than one call writes within its time limit (${INLINE_BATCH_MAX} at most). Run ${tool} as a job: over MCP as a task (2025-11-25: a tools/call with params.task; 2026-07-28: declare the io.modelcontextprotocol/tasks extension), over REST with the header "Prefer: respond-async" (202, then GET /v1/jobs/{id} for progress and results).`;
