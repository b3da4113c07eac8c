import type { RegisteredTool } from '../runtime/registry.js';
import type { ToolError } from '../runtime/tool-error.js';
import { JOB_TOOLS } from './job-tools.js';

/** How a job ended, as kept with it: the error, or the use case's result (a batch's without its items). */
export interface JobOutcome {
  readonly error?: ToolError;
  readonly result?: unknown;
}

/** Longest result kept whole for a job without items (a long read): larger is kept as an error saying so. */
export const JOB_RESULT_MAX_CHARS = 2_000_000;

/** The outcome to keep: an itemised job's items are rows of their own, the rest is kept as it is. */
export const outcomeOf = (tool: RegisteredTool, _params: unknown, result: unknown): JobOutcome => {
  if (JOB_TOOLS.get(tool.name)?.items && typeof result === 'object' && result !== null) {
    const { items: _items, ...rest } = result as Record<string, unknown>;
    return { result: rest };
  }
  const size = JSON.stringify(result ?? null).length;
  if (size > JOB_RESULT_MAX_CHARS)
    return {
      error: {
        status: 422,
        code: 'DOCUMENT_TOO_COMPLEX',
        message: `The job's result has ${size} characters, more than the ${JOB_RESULT_MAX_CHARS} a job keeps: ask for less (a page range, a part).`,
        details: { limit: JOB_RESULT_MAX_CHARS },
      },
    };
  return { result };
};
