import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import type { TraceCarrier } from '../../../ports/call-observer.js';
import type { Principal } from '../../../ports/authenticator.js';
import { budgetedPair, budgetsFor, isPlainObject } from '../../../application/runtime/envelope.js';
import type { ToolExecutor, ToolResult } from '../../../application/runtime/executor.js';
import type { ToolError } from '../../../application/runtime/tool-error.js';
import type { Group } from '../../../application/runtime/define-tool.js';
import { outsideToolsets } from '../../../application/runtime/toolsets.js';
import { mcpTool, type OutputSchemaForm } from '../dialects/tool-dialects.js';
import { approvalCardAnswer, DEFAULT_APPROVAL_WAIT_MS, personReach, runWithPerson } from './mcp-approval.js';
import type { AnswersWatch } from './awaited-answers.js';
import { connectReach, DEFAULT_CONNECT_WAIT_MS, runWithConnect } from './mcp-connect.js';
import type { ConnectionWatch } from '../../../application/connections/connection-watch.js';
import type { PersonChannel } from '../../../application/runtime/executor-types.js';
import { givesTableRows, TABLE_ROWS_PHRASE, withTableRows } from './table-rows.js';
import type { JobEngine } from '../../../application/jobs/job-engine.js';
import { JOB_TOOLS } from '../../../application/jobs/job-tools.js';
import { deferToJob } from '../../../application/jobs/job-view.js';
import type { JobRow } from '../../../ports/job-queue.js';

/** Every tool as tools/list gives it, in the registry's order (the same shape as `GET /v1/tools?dialect=mcp`). */
export const mcpToolList = (executor: ToolExecutor, outputs: OutputSchemaForm = 'outline'): Tool[] =>
  executor.registry.listing().map((t) => mcpTool(t, outputs) as unknown as Tool);

/** A failure as a model reads it in a tool result: the status, the code, and the message that says what to change. */
export const errorText = (e: ToolError): string => `Error ${e.status} ${e.code}: ${e.message}`;

/**
 * The `_meta` key under which an `isError` result carries the error's envelope (`{code, message, details}`,
 * as REST's `error`): a vendor prefix, as MCP's `_meta` key format asks of third parties.
 */
export const ERROR_META_KEY = 'tool-gateway/error';

/**
 * The executor's answer as an MCP tool result: the text a model reads, the JSON payload as
 * structuredContent (when it is an object, as MCP requires), and failures as `isError` results so that the
 * model can act on the message.
 *
 * An `isError` result has no structuredContent (issue 27). Both revisions served here say a tool's
 * structuredContent conforms to its outputSchema: 2025-06-18/2025-11-25 server/tools "Output Schema"
 * ("Servers MUST provide structured results that conform to this schema"), and 2026-07-28 server/tools
 * "Structured Content" and schema.ts CallToolResult ("any JSON value ... that conforms to the tool's
 * outputSchema if one is defined"), with no exception for errors; their tool-execution-error examples carry
 * only `content` and `isError: true`. An error envelope cannot match a result's schema, and the official v1
 * client (1.32) validates structuredContent even on `isError` results, so it threw -32602 "Structured content
 * does not match the tool's output schema" and the model never saw the message. The text keeps the code and
 * the message (which names what to change); the envelope, with its details (a confirm_token, a connect_url,
 * retry_after_seconds), goes in the result's `_meta` under ERROR_META_KEY, which MCP leaves to implementations.
 */
export const toCallToolResult = (
  result: ToolResult,
  outputBudget?: number,
  jsonBudget?: number,
  /** structuredContent's rows as the table shows them, plus ids (table-rows.ts, givesTableRows). */
  tableRows = false,
): CallToolResult => {
  if (!result.ok) {
    // A person's approval asked for reaches here only for a client with views: the approval card's answer.
    const error = result.awaiting === 'approval' ? approvalCardAnswer(result.tool.name, result.ask) : result.error;
    const { code, message, details } = error;
    return {
      content: [{ type: 'text', text: errorText(error) }],
      isError: true,
      _meta: { [ERROR_META_KEY]: { code, message, details } },
    };
  }
  const reshaped = tableRows
    ? { shape: (payload: unknown) => withTableRows(result, payload), phrase: TABLE_ROWS_PHRASE }
    : undefined;
  const { text, payload } = budgetedPair(result, budgetsFor({ text: outputBudget, json: jsonBudget }), 'mcp', reshaped);
  return {
    content: [{ type: 'text', text }],
    ...(isPlainObject(payload) ? { structuredContent: payload } : {}),
  };
};

export interface CallRequest {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  readonly _meta?: Record<string, unknown>;
}

const invalidParams = (e: ToolError) => new ProtocolError(ProtocolErrorCode.InvalidParams, e.message, e.details);

/** What tools/call needs to know about the caller (see CallerContext in mcp-server.ts). */
export interface McpCaller {
  readonly principal: Principal;
  readonly requestId: string;
  readonly idempotencyKey?: string;
  readonly groups?: readonly Group[];
  /** The HTTP request's trace context (headers), used when the call's `_meta` carries none. */
  readonly trace?: TraceCarrier;
}

/** The W3C trace context in a request's `_meta` (SEP-414: `traceparent`, `tracestate`), else the caller's. */
const traceOf = (meta: Record<string, unknown> | undefined, caller: McpCaller): TraceCarrier | undefined => {
  const traceparent = meta?.['traceparent'];
  if (typeof traceparent !== 'string') return caller.trace;
  const tracestate = meta?.['tracestate'];
  return {
    traceparent,
    ...(typeof tracestate === 'string' ? { tracestate } : {}),
    ...(caller.trace?.mcp ? { mcp: caller.trace.mcp } : {}),
  };
};

/** How one tools/call is served, beyond its params and caller. */
export interface CallOptions {
  readonly outputBudget?: number;
  /** Most characters in the JSON of a list's structuredContent. */
  readonly jsonBudget?: number;
  /**
   * The SDK's context of the request being served (the handler's second argument). With it, a gated call
   * (Destructive, skip trace) asks a person where the client can: 2026-07-28 `input_required` (read back
   * from `ctx.mcpReq.inputResponses` and `requestState`), or 2025-era `elicitation/create`. Without it
   * nobody is asked.
   */
  readonly ctx?: ServerContext;
  /**
   * The caller's output schema form (`output_schemas=`): with `full`, whose schemas describe whole rows, a
   * list's structuredContent keeps whole rows; otherwise a list tool with `verbose` gives table rows.
   */
  readonly outputSchemas?: OutputSchemaForm;
  /** A 2025-era client that declared elicitation at initialize (its session says so). */
  readonly legacyElicits?: boolean;
  /** How long a 2025-era exchange waits for the person's answer. */
  readonly approvalWaitMs?: number;
  /** Whether answers from other instances could have been lost during that wait (Redis away). */
  readonly answersWatch?: AnswersWatch;
  /** A 2025-era client whose session declared URL elicitation (mcp-connect.ts). */
  readonly legacyUrl?: boolean;
  /** Where a call that asked its person to connect waits; without it nobody is asked to connect. */
  readonly connectionWatch?: ConnectionWatch;
  /** How long such a call waits for the person to connect (default 2 minutes). */
  readonly connectWaitMs?: number;
  /** The client asked for a task (mcp-tasks.ts): a job tool's call is queued as a job once its gates pass. */
  readonly job?: { readonly engine: JobEngine; readonly onQueued: (row: JobRow) => void };
}

/**
 * tools/call: the same executor, permissions and idempotency as the REST surface, and a person's approval
 * of a gated call where the client can ask one (mcp-approval.ts). On 2026-07-28 the answer may be an
 * `input_required` result; the client retries the same call with the person's answer, which comes back
 * through `options.ctx`.
 */
export const callTool = async (
  executor: ToolExecutor,
  params: CallRequest,
  caller: McpCaller,
  options: CallOptions = {},
): Promise<CallToolResult | InputRequiredResult> => {
  const tool = executor.registry.get(params.name);
  // MCP reports an unknown tool as a protocol error (-32602, Invalid params), with the gateway's actionable
  // message; so is a tool outside the connection's toolsets, which the caller was never shown.
  if (!tool) throw invalidParams(executor.registry.unknownName(params.name));
  if (caller.groups && !caller.groups.includes(tool.declaration.group)) {
    throw invalidParams(outsideToolsets(tool, caller.groups));
  }
  const metaKey = params._meta?.['idempotency_key'];
  const idempotencyKey = typeof metaKey === 'string' ? metaKey : caller.idempotencyKey;
  const { ctx, outputBudget, jsonBudget } = options;
  const trace = traceOf(params._meta, caller);
  const job = options.job && JOB_TOOLS.has(tool.name) ? options.job : undefined;
  const defer = job
    ? deferToJob(job.engine, { tool, principal: caller.principal, requestId: caller.requestId, trace }, job.onQueued)
    : undefined;
  const run = (person?: PersonChannel) =>
    executor.run({
      tool,
      args: params.arguments ?? {},
      principal: caller.principal,
      requestId: caller.requestId,
      idempotencyKey,
      budget: outputBudget,
      surface: 'mcp',
      trace,
      ...(person ? { person } : {}),
      ...(defer ? { defer } : {}),
    });
  const withPerson = () =>
    runWithPerson(
      tool.name,
      run,
      ctx,
      personReach(ctx, options.legacyElicits),
      options.approvalWaitMs,
      options.answersWatch,
    );
  // A missing vendor connection, where the client can open a URL for its person (mcp-connect.ts).
  const connect = options.connectionWatch ? connectReach(ctx, options.legacyUrl) : undefined;
  const result =
    connect && ctx && options.connectionWatch
      ? await runWithConnect(tool.name, withPerson, run, ctx, connect, {
          watch: options.connectionWatch,
          tenant: caller.principal.tenant,
          principalId: caller.principal.id,
          waitMs: options.connectWaitMs ?? DEFAULT_CONNECT_WAIT_MS,
          askWaitMs: options.approvalWaitMs ?? DEFAULT_APPROVAL_WAIT_MS,
        })
      : await withPerson();
  if ('resultType' in result) return result;
  const tableRows = givesTableRows(result, params.arguments ?? {}, options.outputSchemas === 'full');
  return toCallToolResult(result, outputBudget, jsonBudget, tableRows);
};
