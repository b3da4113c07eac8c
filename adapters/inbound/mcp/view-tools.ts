import { ProtocolError, ProtocolErrorCode, type CallToolResult, type Tool } from '@modelcontextprotocol/server';
import { gatedBy } from '../../../application/runtime/approval.js';
import type { ToolExecutor } from '../../../application/runtime/executor.js';
import { ToolRegistry, type RegisteredTool } from '../../../application/runtime/registry.js';
import { viewOnlyTools } from '../../../application/tools.js';
import { toCallToolResult, type McpCaller } from './mcp-tools.js';
import { givesTableRows } from './table-rows.js';

// The app-only tools a view calls through its host (MCP Apps `visibility: ["app"]`: listed for a client
// with views, hidden by the host from the model). Each runs a registered tool through the same executor,
// so the caller's permission for that tool, its rate limit and its argument checks all apply; nothing here
// grants anything. The approval answer redeems the same single-use token the elicitation flow uses.

const APP_ONLY = { ui: { visibility: ['app'] } };

/** Most rows a page of the record table asks for. */
const MAX_PAGE_ROWS = 100;

const obj = (properties: Tool['inputSchema']['properties'] & object, required: string[]) => ({
  type: 'object' as const,
  properties,
  required,
  additionalProperties: false,
});

export interface AppTool {
  readonly tool: Tool;
  /** The registered tools it runs; it is listed when the caller sees one of them. */
  readonly over: readonly string[];
}

export const ANSWER_APPROVAL = 'views_answerApproval';
export const RECORDS_PAGE = 'views_recordsPage';
export const OPEN_RECORD = 'views_openRecord';
export const FILE_IMAGE = 'views_fileImage';

/** The tools only views run (application/tools.ts viewOnlyTools), registered apart: never listed. */
const VIEW_ONLY = new ToolRegistry(viewOnlyTools);

export const APP_TOOLS: readonly AppTool[] = [
  {
    over: [],
    tool: {
      name: ANSWER_APPROVAL,
      title: 'Answer an approval (approval card)',
      description:
        "A person's answer on an approval card: runs the gated call once if approved, or declines it. For the card only.",
      inputSchema: obj(
        {
          tool: { type: 'string', maxLength: 64, description: 'The gated tool.' },
          arguments: { type: 'object', description: 'Its arguments, as called.' },
          approval_token: { type: 'string', maxLength: 512, description: 'The token of the approval ask.' },
          approved: { type: 'boolean', description: 'Whether the person approved.' },
        },
        ['tool', 'arguments', 'approval_token', 'approved'],
      ),
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      _meta: APP_ONLY,
    },
  },
  {
    over: ['records_filterRecords'],
    tool: {
      name: RECORDS_PAGE,
      title: 'A page of records (record table)',
      description: 'One page of an app’s records, sorted by a field, for the record table. For the table only.',
      inputSchema: obj(
        {
          app_id: { type: 'integer', minimum: 1, description: 'The app.' },
          filters: {
            type: 'array',
            items: { type: 'object' },
            description: 'The listing’s filters (records_filterRecords’s).',
          },
          sort_by: { type: 'string', maxLength: 200, description: 'external_id of the field to sort by.' },
          sort_desc: { type: 'boolean', description: 'Sort descending.' },
          cursor: { type: 'string', maxLength: 2000, description: 'The previous page’s cursor.' },
          limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_ROWS, description: 'Rows per page.' },
        },
        ['app_id'],
      ),
      annotations: { readOnlyHint: true, openWorldHint: true },
      _meta: APP_ONLY,
    },
  },
  {
    over: ['records_getRecord'],
    tool: {
      name: OPEN_RECORD,
      title: 'Open a record (record table)',
      description: 'Every field of one record, for the record table. For the table only.',
      inputSchema: obj({ record_id: { type: 'integer', minimum: 1, description: 'The record.' } }, ['record_id']),
      annotations: { readOnlyHint: true, openWorldHint: true },
      _meta: APP_ONLY,
    },
  },
  {
    over: ['files_readFile'],
    tool: {
      name: FILE_IMAGE,
      title: 'An image file (file preview)',
      description: "An image file's bytes, base64 (at most 2 MiB), for the file preview. For the preview only.",
      inputSchema: obj({ item_id: { type: 'string', maxLength: 200, description: 'The image file.' } }, ['item_id']),
      annotations: { readOnlyHint: true, openWorldHint: true },
      _meta: APP_ONLY,
    },
  },
];

// The approval card is listed beside any gated tool the caller sees.
export const appToolsFor = (visible: readonly RegisteredTool[]): Tool[] => {
  const names = new Set(visible.map((t) => t.name));
  return APP_TOOLS.filter((a) =>
    a.tool.name === ANSWER_APPROVAL ? visible.some((t) => gatedBy(t)) : a.over.some((n) => names.has(n)),
  ).map((a) => a.tool);
};

export const isAppTool = (name: string): boolean => APP_TOOLS.some((a) => a.tool.name === name);

const invalid = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

const pick = (args: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(keys.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));

/** What an app-only call runs: the registered tool, its arguments, and for an approval the person's answer. */
const planOf = (executor: ToolExecutor, name: string, args: Record<string, unknown>) => {
  const registered = (n: string) => {
    const tool = executor.registry.get(n);
    if (!tool) throw invalid(`Unknown tool ${JSON.stringify(n.slice(0, 64))}.`);
    return tool;
  };
  if (name === RECORDS_PAGE) {
    const limit = typeof args['limit'] === 'number' ? Math.min(args['limit'], MAX_PAGE_ROWS) : undefined;
    const rest = pick(args, ['app_id', 'sort_by', 'sort_desc', 'cursor']);
    // The listing's own filters kept (records_filterRecords checks and bounds them); none: every record.
    const filters = Array.isArray(args['filters']) ? args['filters'] : [];
    return {
      tool: registered('records_filterRecords'),
      args: { ...rest, filters, ...(limit ? { limit } : {}) },
    };
  }
  if (name === OPEN_RECORD) return { tool: registered('records_getRecord'), args: pick(args, ['record_id']) };
  if (name === FILE_IMAGE) return { tool: VIEW_ONLY.get('files_readImage')!, args: pick(args, ['item_id']) };
  const { tool, arguments: toolArgs, approval_token: token, approved } = args;
  if (typeof tool !== 'string' || typeof token !== 'string' || typeof approved !== 'boolean')
    throw invalid(`${ANSWER_APPROVAL} needs tool (a string), approval_token (a string) and approved (a boolean).`);
  if (typeof toolArgs !== 'object' || toolArgs === null || Array.isArray(toolArgs))
    throw invalid(`${ANSWER_APPROVAL} needs arguments (an object: the gated call's arguments).`);
  const gated = registered(tool);
  if (!gatedBy(gated)) throw invalid(`${tool} needs no approval: call it directly.`);
  return {
    tool: gated,
    args: toolArgs as Record<string, unknown>,
    person: { answer: { token: token.slice(0, 512), approved } },
  };
};

/** Runs an app-only tool's call (an unknown name or bad arguments: a protocol error, as for any tool). */
export const callAppTool = async (
  executor: ToolExecutor,
  name: string,
  args: Record<string, unknown>,
  caller: McpCaller,
  budgets: { readonly outputBudget?: number; readonly jsonBudget?: number },
): Promise<CallToolResult> => {
  const plan = planOf(executor, name, args);
  const result = await executor.run({
    tool: plan.tool,
    args: plan.args,
    principal: caller.principal,
    requestId: caller.requestId,
    budget: budgets.outputBudget,
    surface: 'mcp',
    ...(caller.trace ? { trace: caller.trace } : {}),
    ...('person' in plan ? { person: plan.person } : {}),
  });
  // An image's bytes whole (the bound is the tool's, 2 MiB): the output budgets are for the model's text.
  if (name === FILE_IMAGE && result.ok && typeof result.payload === 'object' && result.payload !== null)
    return {
      content: [{ type: 'text', text: result.text() }],
      structuredContent: result.payload as Record<string, unknown>,
    };
  // A page's rows as the table shows them (as for the model's own call), a record whole.
  const tableRows = givesTableRows(result, plan.args, false);
  return toCallToolResult(result, budgets.outputBudget, budgets.jsonBudget, tableRows);
};
