import type { Principal } from '../../../ports/authenticator.js';
import { fitText, REST_ADVICE } from '../../../application/runtime/budget.js';
import { createToolFinder, type DiscoveryAnswer } from '../../../application/runtime/discovery-answers.js';
import { loadLexicon } from '../../../application/runtime/lexicon.js';
import {
  CALL_TOOL,
  checkCallArgs,
  DESCRIBE_TOOL,
  FIND_TOOLS,
  META_GROUP,
  notAvailable,
  type MetaToolListing,
} from '../../../application/runtime/discovery.js';
import { isPlainObject, type Budgets, type Presented } from '../../../application/runtime/envelope.js';
import type { ResponseFormat } from '../../../application/runtime/envelope.js';
import type { RegisteredTool, ToolRegistry } from '../../../application/runtime/registry.js';
import { toolError, type ToolError } from '../../../application/runtime/tool-error.js';
import { outsideToolsets, parseToolsets, visibleTools } from '../../../application/runtime/toolsets.js';
import { mcpTool, type McpToolShape } from '../dialects/tool-dialects.js';

// The tool-search meta tools over REST (issue 30): `POST /v1/tools/gateway/{findTools,describeTool,callTool}`
// and the tool-call form with their names, as `GET /v1/tools?discovery=search` lists them. Find and describe
// are answered by the finder MCP uses too (discovery-answers.ts), over the tools this token may call (and,
// with `?groups=`, within those toolsets); the call tool resolves to the named tool and its arguments, which
// then take the same path as a direct call (permissions, idempotency, confirmation, approval, budgets).

/** A meta tool answered here, without running a tool. */
export interface Answered {
  readonly answer: DiscoveryAnswer;
}

/** What a meta tool resolves to: a tool to run (the call tool), an answer, or the 4xx. */
export interface MetaTarget {
  readonly tool: RegisteredTool;
  readonly args: unknown;
  readonly idempotencyKey?: string;
}

/** A meta tool's call: its arguments (the body, or the call form's `arguments`) and who calls. */
export type MetaResolve = (
  args: unknown,
  principal: Principal,
  query: (name: string) => string | undefined,
  idempotencyKey?: string,
) => MetaTarget | Answered | ToolError | Promise<MetaTarget | Answered | ToolError>;

/** A meta tool's arguments: a JSON object (none at all is no arguments), or undefined. */
const argumentsOf = (args: unknown): Record<string, unknown> | undefined =>
  args === undefined || args === null ? {} : isPlainObject(args) ? args : undefined;

const notAnObject = (tool: string): ToolError =>
  toolError(400, 'INVALID_PARAMETER', `${tool} takes a JSON object of parameters.`, {
    parameter: 'body',
    expected: 'JSON object',
  });

/** The meta tools by name, for one registry. */
export const createMetaTools = (registry: ToolRegistry): ReadonlyMap<string, MetaResolve> => {
  const finder = createToolFinder();
  // describe's form of a tool: its MCP tools/list form with the output outline, made on first use
  const shapes = new Map<string, McpToolShape>();
  const shape = (t: RegisteredTool | MetaToolListing): McpToolShape => {
    if (!('declaration' in t)) return mcpTool(t);
    let found = shapes.get(t.name);
    if (!found) {
      if (!shapes.size) for (const l of registry.listing()) shapes.set(l.name, mcpTool(l));
      found = shapes.get(t.name)!;
    }
    return found;
  };

  /** The caller's visible set: the tools it may call, within `?groups=` when given. */
  const visibleOf = (principal: Principal, query: (name: string) => string | undefined) => {
    const groups = parseToolsets(query('groups'));
    return groups !== undefined && 'status' in groups ? groups : visibleTools(registry, principal, groups);
  };

  const answering =
    (
      tool: string,
      answer: (
        visible: readonly RegisteredTool[],
        args: Record<string, unknown>,
      ) => Promise<DiscoveryAnswer | ToolError>,
    ): MetaResolve =>
    async (given, principal, query) => {
      const args = argumentsOf(given);
      if (!args) return notAnObject(tool);
      const visible = visibleOf(principal, query);
      if ('status' in visible) return visible;
      const answered = await answer(visible, args);
      return 'status' in answered ? answered : { answer: answered };
    };

  // find reads the general lexicon (issue 41) on its first use, as MCP's does, never at start
  const find = async (visible: readonly RegisteredTool[], args: Record<string, unknown>) =>
    finder.find(visible, args, undefined, await loadLexicon());

  const call: MetaResolve = async (given, principal, query, idempotencyKey) => {
    const args = argumentsOf(given);
    if (!args) return notAnObject(CALL_TOOL);
    const checked = checkCallArgs(args);
    if ('status' in checked) return checked;
    const groups = parseToolsets(query('groups'));
    if (groups !== undefined && 'status' in groups) return groups;
    const tool = registry.get(checked.name);
    if (!tool) {
      // the same answer as MCP's: the 404, naming visible tools by spelling and by meaning (issue 41)
      const visible = visibleTools(registry, principal, groups);
      return notAvailable(
        checked.name,
        await finder.suggestLoading(visible, checked.name, checked.arguments, registry),
      );
    }
    if (groups && !groups.includes(tool.declaration.group)) return outsideToolsets(tool, groups);
    return { tool, args: checked.arguments, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) };
  };

  return new Map<string, MetaResolve>([
    [FIND_TOOLS, answering(FIND_TOOLS, find)],
    [
      DESCRIBE_TOOL,
      answering(DESCRIBE_TOOL, (visible, args) => finder.describeLoading(visible, args, shape, registry)),
    ],
    [CALL_TOOL, call],
  ]);
};

/** A meta tool's path: `/v1/tools/gateway/findTools`, the scheme of every tool. */
export const metaToolPath = (name: string): string => `/v1/tools/${META_GROUP}/${name.slice(META_GROUP.length + 1)}`;

/**
 * A meta tool's answer as REST gives any tool's: the text within the text budget (cut with a visible
 * marker), or with `format=json` the structured payload whole (a single object, like a tool's, is never cut);
 * either base64-encoded on request.
 */
export const presentAnswer = (
  answer: DiscoveryAnswer,
  format: ResponseFormat,
  base64: boolean,
  budgets: Budgets,
): Presented => {
  const data = format === 'json' ? answer.payload : fitText(answer.text, budgets.text, REST_ADVICE);
  if (!base64) return { status: 200, body: { success: true, data } };
  const encoded = Buffer.from(typeof data === 'string' ? data : JSON.stringify(data), 'utf8').toString('base64');
  return { status: 200, body: { success: true, data: encoded, encoding: 'base64' } };
};
