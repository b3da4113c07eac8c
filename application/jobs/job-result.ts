import { FINISHED, type JobRow, type JobStore } from '../../ports/job-queue.js';
import { markdownOf } from '../runtime/define-tool.js';
import type { ToolResult } from '../runtime/executor-types.js';
import type { ToolRegistry } from '../runtime/registry.js';
import { toolError } from '../runtime/tool-error.js';
import type { JobOutcome } from './job-outcome.js';
import { JOB_TOOLS } from './job-tools.js';

/** Most item outcomes a finished job's tool result is drawn from (the rest: GET /v1/jobs/{id} pages). */
export const JOB_RESULT_ITEMS = 10_000;

/**
 * A finished job as the tool's own answer (the MCP task's result): the same presenter, payload and
 * continuation as the call would have given; a cancelled job's answer lists what was done before it stopped.
 * Undefined while the job runs.
 */
export const jobToolResult = async (
  store: JobStore,
  registry: ToolRegistry,
  row: JobRow,
): Promise<ToolResult | undefined> => {
  if (!FINISHED.has(row.status)) return undefined;
  const tool = registry.get(row.tool);
  if (!tool) return { ok: false, error: toolError(500, 'INTERNAL_ERROR', `No tool ${row.tool} on this instance.`) };
  const outcome = row.outcome ? (JSON.parse(row.outcome) as JobOutcome) : {};
  if (outcome.error) return { ok: false, error: outcome.error };
  const params = JSON.parse(row.params) as unknown;
  const { declaration } = tool;
  let result = outcome.result;
  if (JOB_TOOLS.get(tool.name)?.items) {
    const items = await store.outcomes(row.id, 0, JOB_RESULT_ITEMS, false);
    const successful = items.filter((i) => i.success).length;
    result = {
      total: row.total ?? items.length,
      successful,
      failed: items.length - successful,
      ...(typeof result === 'object' && result !== null ? result : {}),
      items,
    };
  }
  if (result === undefined)
    return {
      ok: false,
      error: toolError(409, 'CONFLICT', `The job was cancelled before it started: nothing was done.`, {
        job_id: row.id,
      }),
    };
  const cancelled =
    row.status === 'cancelled'
      ? `\n\nThe job was cancelled after ${row.done} of ${row.total ?? '?'} items: the rest were not written.`
      : '';
  const kept = result;
  return {
    ok: true,
    tool,
    payload: declaration.json ? declaration.json(kept, params) : kept,
    text: () => `${markdownOf(declaration.present(kept, params))}${cancelled}`,
    next: declaration.continuation
      ? (shown: number) => {
          const args = declaration.continuation!(params, kept, shown);
          return args ? { tool: declaration.continuesWith ?? tool.name, arguments: args } : undefined;
        }
      : undefined,
  };
};
