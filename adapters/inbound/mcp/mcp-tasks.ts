import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  Server,
  specTypeSchemas,
  type CallToolResult,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import type { JobEngine } from '../../../application/jobs/job-engine.js';
import { jobToolResult } from '../../../application/jobs/job-result.js';
import { progressText } from '../../../application/jobs/job-view.js';
import type { ToolRegistry } from '../../../application/runtime/registry.js';
import type { Principal } from '../../../ports/authenticator.js';
import { FINISHED, type JobRow } from '../../../ports/job-queue.js';
import { calledTool, modernTaskChoice } from './mcp-task-policy.js';
import { takenOver, waitForEnd, type ResultWaits } from './mcp-task-waits.js';
import { toCallToolResult } from './mcp-tools.js';

// MCP Tasks over the job engine (issue 40), on the official SDK's Server with the SDK's own task schemas
// (the SDK v2 carries them but no task runtime; the handlers here are ours):
// - 2025-11-25: a tools/call with `params.task` is answered `{task}` (CreateTaskResult); tasks/get,
//   tasks/result (blocks until the task ends, with status notifications on its stream; the bound is on how
//   many wait at once: mcp-task-waits.ts), tasks/list (the caller's own) and tasks/cancel.
// - 2026-07-28, the Tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`): the server decides per call
//   whether a client that declares the extension in its request's capabilities gets `resultType: "task"`
//   (mcp-task-policy.ts); tasks/get carries the result once done; tasks/cancel is an acknowledgement; both
//   refuse a request that does not declare the extension (-32021); no tasks/list, no tasks/result.
// A task is a job: its id is the job's id, any instance answers for it, and only its caller sees it.

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** How often a client is asked to poll. */
export const POLL_INTERVAL_MS = 2_000;
/** Tasks per tasks/list page. */
const LIST_PAGE = 50;

/** The server capabilities that announce tasks: the 2025-11-25 `tasks` member and the 2026-07-28 extension. */
export const TASK_CAPABILITIES = {
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  extensions: { [TASKS_EXTENSION]: {} },
};

/** The results the tools/call handler gives as they are: a task instead of a CallToolResult. */
const taskAnswers = new WeakSet<object>();

class TaskAnswer extends Error {
  constructor(readonly result: Result) {
    super('task answer');
  }
}

/**
 * The SDK's Server, whose tools/call handler may answer with a task: the SDK checks a tools/call result as a
 * CallToolResult, so a task answer is carried past that check (through the Server's own `_wrapHandler`
 * seam) and everything else goes through it unchanged.
 */
export class TaskServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    if (method !== 'tools/call') return super._wrapHandler(method, handler);
    const checked = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      if (taskAnswers.has(result)) throw new TaskAnswer(result);
      return result;
    });
    return async (request, ctx) => {
      try {
        return await checked(request, ctx);
      } catch (error) {
        if (error instanceof TaskAnswer) return error.result;
        throw error;
      }
    };
  }
}

/** Whether a 2026-07-28 request declares the Tasks extension in its per-request capabilities. */
export const declaresTasks = (ctx: ServerContext | undefined): boolean => {
  const envelope = ctx?.mcpReq.envelope;
  if (!envelope || !(CLIENT_CAPABILITIES_META_KEY in envelope)) return false;
  const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
};

/**
 * Whether this tools/call is answered with a task, and in which form: on 2025-11-25 when the client asked
 * (`params.task`); on 2026-07-28 when the server chooses to (mcp-task-policy.ts, which throws -32021 for a
 * call that needs the extension the request did not declare).
 */
export const taskAsked = (
  params: { readonly name: string; readonly arguments?: Record<string, unknown>; readonly task?: unknown },
  ctx: ServerContext | undefined,
  modern: boolean,
): 'legacy' | 'modern' | undefined => {
  if (!modern) return typeof params.task === 'object' && params.task !== null ? 'legacy' : undefined;
  return modernTaskChoice(params, declaresTasks(ctx)) === 'task' ? 'modern' : undefined;
};

/** The -32021 error of a tasks/* request that does not declare the extension (SEP-2663: MUST). */
const extensionMissing = (method: string) =>
  new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `${method} is part of the Tasks extension: declare io.modelcontextprotocol/tasks in the request's capabilities.`,
  );

const statusOf = (row: JobRow, modern: boolean): 'working' | 'completed' | 'failed' | 'cancelled' => {
  switch (row.status) {
    case 'completed':
      return 'completed';
    case 'cancelled':
      return 'cancelled';
    case 'failed':
      // 2025-11-25: a tool call that ended in isError is `failed`; 2026-07-28 keeps `failed` for
      // JSON-RPC errors, so there it is `completed` with the isError result.
      return modern ? 'completed' : 'failed';
    default:
      return 'working';
  }
};

const ttlSecondsOf = (row: JobRow): number =>
  Math.max(0, Math.round((Date.parse(row.expires_at) - Date.parse(row.created_at)) / 1000));

const statusMessage = (row: JobRow): string =>
  `${row.tool} ${row.status}: ${progressText(row)}${row.attempts > 1 ? ' (resumed on another instance)' : ''}`;

/** The 2025-11-25 Task of a job. */
export const legacyTask = (row: JobRow) => ({
  taskId: row.id,
  status: statusOf(row, false),
  ttl: ttlSecondsOf(row) * 1000,
  createdAt: row.created_at,
  lastUpdatedAt: row.updated_at,
  pollInterval: POLL_INTERVAL_MS,
  statusMessage: statusMessage(row),
});

/** The 2026-07-28 (SEP-2663) Task of a job, without its result. */
export const modernTask = (row: JobRow) => ({
  taskId: row.id,
  status: statusOf(row, true),
  statusMessage: statusMessage(row),
  createdAt: row.created_at,
  lastUpdatedAt: row.updated_at,
  ttlMs: ttlSecondsOf(row) * 1000,
  pollIntervalMs: POLL_INTERVAL_MS,
});

/** The tools/call answer for a queued job, in the form the client asked for. */
export const createTaskAnswer = (row: JobRow, form: 'legacy' | 'modern'): Result => {
  const answer: Result = form === 'legacy' ? { task: legacyTask(row) } : { resultType: 'task', ...modernTask(row) };
  taskAnswers.add(answer);
  return answer;
};

export interface TaskHandlerDeps {
  readonly jobs: JobEngine;
  readonly registry: ToolRegistry;
  readonly principal: Principal;
  readonly outputBudget?: number;
  readonly jsonBudget?: number;
  /** Whether the request is served on 2026-07-28 (known once the SDK has bound the server to its era). */
  readonly modern: () => boolean;
  /** The tasks/result requests waiting on this instance, and their bounds (mcp-task-waits.ts). */
  readonly waits: ResultWaits;
  /** How often a waiting tasks/result looks at its task (tests shorten it). */
  readonly lookMs?: number;
}

const paramsOf = (schema: unknown): StandardSchemaV1 =>
  (schema as { shape: { params: StandardSchemaV1 } }).shape.params;

const unknownTask = (taskId: string) =>
  new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `No task ${taskId} for this caller: a task is seen only by the caller that started it, and kept for a while after it ends.`,
  );

/** The finished job's CallToolResult, tagged with its task (2025-11-25 `related-task`). */
const resultOf = async (deps: TaskHandlerDeps, row: JobRow): Promise<CallToolResult | undefined> => {
  const result = await jobToolResult(deps.jobs.store, deps.registry, row);
  if (!result) return undefined;
  const answer = toCallToolResult(result, deps.outputBudget, deps.jsonBudget);
  return { ...answer, _meta: { ...answer._meta, [RELATED_TASK_META_KEY]: { taskId: row.id } } };
};

/** Registers tasks/get and tasks/cancel, and tasks/result and tasks/list (2025-11-25 only), for this caller. */
export const registerTaskHandlers = (server: Server, deps: TaskHandlerDeps): void => {
  const { jobs, principal } = deps;
  const notOnModern = (method: string) =>
    new ProtocolError(ProtocolErrorCode.MethodNotFound, `${method} is not part of the 2026-07-28 Tasks extension.`);
  const find = async (taskId: string): Promise<JobRow> => {
    const row = await jobs.find(taskId, principal);
    if (!row) throw unknownTask(taskId);
    return row;
  };
  server.setRequestHandler('tasks/get', { params: paramsOf(specTypeSchemas.GetTaskRequest) }, async (params, ctx) => {
    const { taskId } = params as { taskId: string };
    if (!deps.modern()) return legacyTask(await find(taskId));
    if (!declaresTasks(ctx)) throw extensionMissing('tasks/get');
    const row = await find(taskId);
    // the result goes with a completed task only (a cancelled one has none on 2026-07-28)
    const result = row.status === 'completed' || row.status === 'failed' ? await resultOf(deps, row) : undefined;
    return { ...modernTask(row), ...(result ? { result } : {}) };
  });
  server.setRequestHandler(
    'tasks/cancel',
    { params: paramsOf(specTypeSchemas.CancelTaskRequest) },
    async (params, ctx) => {
      const { taskId } = params as { taskId: string };
      const row = await find(taskId);
      if (deps.modern()) {
        if (!declaresTasks(ctx)) throw extensionMissing('tasks/cancel');
        // An acknowledgement; an ended task stays as it ended (cancellation is eventually consistent).
        if (!FINISHED.has(row.status)) await jobs.cancel(taskId, principal);
        return {};
      }
      if (FINISHED.has(row.status))
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${taskId} has already ended (${row.status}).`);
      return legacyTask((await jobs.cancel(taskId, principal)) ?? row);
    },
  );
  server.setRequestHandler(
    'tasks/result',
    { params: paramsOf(specTypeSchemas.GetTaskPayloadRequest) },
    async (params, ctx) => {
      if (deps.modern()) throw notOnModern('tasks/result');
      const { taskId } = params as { taskId: string };
      const first = await find(taskId);
      let ended = first;
      if (!FINISHED.has(first.status)) {
        // Blocks until the task ends (2025-11-25: MUST), one of a bounded number of waits per caller.
        const evicted = new AbortController();
        const release = deps.waits.take(principal.tenant, principal.id, () =>
          evicted.abort(takenOver(deps.waits.limits.perCaller)),
        );
        try {
          // ends early when the request is cancelled, its HTTP request aborted (the client left) or it is evicted
          const httpSignal = ctx.http?.req?.signal;
          ended = await waitForEnd(
            () => find(taskId),
            AbortSignal.any([ctx.mcpReq.signal, evicted.signal, ...(httpSignal ? [httpSignal] : [])]),
            (row) => ctx.mcpReq.notify({ method: 'notifications/tasks/status', params: legacyTask(row) }),
            deps.lookMs,
          );
        } finally {
          release();
        }
      }
      const result = await resultOf(deps, ended);
      if (!result) throw new ProtocolError(ProtocolErrorCode.InternalError, `Task ${taskId} has no result.`);
      return result;
    },
  );
  server.setRequestHandler('tasks/list', { params: paramsOf(specTypeSchemas.ListTasksRequest) }, async (params) => {
    if (deps.modern()) throw notOnModern('tasks/list');
    const cursor = (params as { cursor?: string } | undefined)?.cursor;
    const offset = cursor && /^\d{1,4}$/.test(cursor) ? Number(cursor) : 0;
    const rows = await jobs.list(principal, offset + LIST_PAGE + 1);
    const page = rows.slice(offset, offset + LIST_PAGE);
    return {
      tasks: page.map(legacyTask),
      ...(rows.length > offset + LIST_PAGE ? { nextCursor: String(offset + LIST_PAGE) } : {}),
    };
  });
};

type JobOption = { readonly engine: JobEngine; readonly onQueued: (row: JobRow) => void };

/**
 * One tools/call with tasks: when the call is to be a task (taskAsked), `call` is given the job option (a job
 * tool's call is then queued once its gates pass) and a queued job is answered with its task; otherwise
 * `call` runs as before.
 */
export const withTasks = async <A extends object>(
  jobs: JobEngine | undefined,
  params: { readonly name: string; readonly arguments?: Record<string, unknown>; readonly task?: unknown },
  ctx: ServerContext,
  modern: boolean,
  call: (job?: JobOption) => Promise<A>,
  /** Whether the caller may call this tool: a caller who may not gets that answer, not -32021. */
  mayCall: (name: string) => boolean = () => true,
): Promise<A> => {
  let form: ReturnType<typeof taskAsked>;
  try {
    form = jobs ? taskAsked(params, ctx, modern) : undefined;
  } catch (error) {
    if (error instanceof MissingRequiredClientCapabilityError && !mayCall(calledTool(params).name)) return call();
    throw error;
  }
  if (!jobs || !form) return call();
  let queued: JobRow | undefined;
  const answer = await call({ engine: jobs, onQueued: (row) => (queued = row) });
  // A task answer stands where the handler's result type says CallToolResult: TaskServer carries it past the check.
  return queued && !('isError' in answer && answer.isError === true)
    ? (createTaskAnswer(queued, form) as unknown as A)
    : answer;
};
