import { MissingRequiredClientCapabilityError } from '@modelcontextprotocol/server';
import { INLINE_BATCH_MAX, JOB_TOOLS } from '../../../application/jobs/job-tools.js';
import { CALL_TOOL } from '../../../application/runtime/discovery.js';
import { CHUNK_SIZE } from '../../../application/records/batch-records.js';

// When a 2026-07-28 tools/call becomes a task (issue 40). The Tasks extension (SEP-2663) makes task creation
// server-directed: a client that declares `io.modelcontextprotocol/tasks` in its request's capabilities says
// it can take a task, not that it wants one; the server "MAY return CreateTaskResult ... at its own
// discretion and on a per-request basis", "MUST NOT" to a client that did not declare it, and when it cannot
// serve such a client without a task "MUST return an error with the code -32021 (Missing Required Client
// Capability)". The gateway's rule, per call:
//
// - a batch (records_batchCreateRecords, records_batchUpdateRecords) is a task when it has more than one
//   chunk of inputs (CHUNK_SIZE, 50): one chunk is written in parallel in about a vendor round trip (under
//   2 s on Podio at p99), more run chunk after chunk, where progress and cancel start to matter. A batch of
//   one chunk or less is answered inline. Above the inline bound (INLINE_BATCH_MAX, 500) a client without the
//   extension gets -32021 naming it (a client with it gets a task);
// - the other job tools (records_uploadFiles, files_copyItem, files_moveItem, files_readFile) are a task for a
//   client that declared the extension: how long they take (a folder's size, a document's length) is not
//   known before they run, and finding out would cost the vendor calls the job makes anyway;
// - any other tool: never a task.
// 2025-11-25 is requestor-driven instead: a call with `params.task` is a task (mcp-tasks.ts).

export type ModernTaskChoice = 'task' | 'inline';

/** The tool a call runs and its arguments, through the discovery mode's meta tool (gateway_callTool). */
export const calledTool = (params: {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}): { readonly name: string; readonly args: Record<string, unknown> } => {
  const args = params.arguments ?? {};
  if (params.name !== CALL_TOOL) return { name: params.name, args };
  const inner = args['arguments'];
  return {
    name: typeof args['name'] === 'string' ? args['name'] : params.name,
    args: typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : {},
  };
};

/** A batch's input count (its one array argument: `inputs` or `updates`); undefined for a tool that is not a batch. */
const batchSize = (tool: string, args: Record<string, unknown>): number | undefined =>
  JOB_TOOLS.get(tool)?.items ? (Object.values(args).find(Array.isArray)?.length ?? 0) : undefined;

/**
 * Whether this 2026-07-28 call is answered with a task (`declared`: the request declares the extension).
 * Throws the -32021 error when the call cannot be served without a task and the client did not declare it.
 */
export const modernTaskChoice = (
  params: { readonly name: string; readonly arguments?: Record<string, unknown> },
  declared: boolean,
): ModernTaskChoice => {
  const { name, args } = calledTool(params);
  if (!JOB_TOOLS.has(name)) return 'inline';
  const size = batchSize(name, args);
  if (size === undefined) return declared ? 'task' : 'inline';
  if (size > INLINE_BATCH_MAX && !declared)
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
      `${size} inputs are more than one ${name} call writes within its time limit (${INLINE_BATCH_MAX} at most): declare the Tasks extension (io.modelcontextprotocol/tasks) in the request's capabilities to get a task, or send fewer inputs per call (over REST, "Prefer: respond-async" runs it as a job).`,
    );
  return declared && size > CHUNK_SIZE ? 'task' : 'inline';
};
