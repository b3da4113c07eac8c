import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { TenantSettingsSource } from '../../../ports/tenant-settings.js';
import {
  CALL_TOOL,
  checkCallArgs,
  checkDescribeArgs,
  checkFindArgs,
  DESCRIBE_TOOL,
  FIND_TOOLS,
  metaToolListings,
  notAvailable,
  searchesTools,
  type DiscoveryMode,
} from '../../../application/runtime/discovery.js';
import type { ToolExecutor } from '../../../application/runtime/executor.js';
import type { JsonSchema } from '../../../application/runtime/json-schema.js';
import type { RegisteredTool } from '../../../application/runtime/registry.js';
import type { ToolError } from '../../../application/runtime/tool-error.js';
import { queryTerms, ToolIndexes } from '../../../application/runtime/tool-search.js';
import { visibleTools } from '../../../application/runtime/toolsets.js';
import { mcpTool, type OutputSchemaForm } from '../dialects/tool-dialects.js';
import { ERROR_META_KEY, errorText, type CallRequest, type McpCaller } from './mcp-tools.js';

// Discovery mode over MCP (issue 30): tools/list's meta tools and pins, and the meta tools' calls. Finding
// and describing see only the caller's visible set (permissions and toolsets); calling hands the named tool
// and its arguments to the very function tools/call uses, so every check and approval applies unchanged.

/** What discovery needs to know of a caller (CallerContext in mcp-server.ts has these members). */
export interface DiscoveryCaller extends McpCaller {
  readonly outputSchemas?: OutputSchemaForm;
  /** `/mcp?discovery=search|list`; undefined: automatic, by the tenant's TOOL_SEARCH_ABOVE. */
  readonly discovery?: DiscoveryMode;
  /** `/mcp?pin=...`: tools listed beside the meta tools (checked at the endpoint). */
  readonly pins?: readonly string[];
}

/** Each form's MCP tools by name, made once in mcp-server.ts. */
export type McpForms = ReadonlyMap<OutputSchemaForm, ReadonlyMap<string, Tool>>;

const failure = (e: ToolError): CallToolResult => {
  const { code, message, details } = e;
  return {
    content: [{ type: 'text', text: errorText(e) }],
    isError: true,
    _meta: { [ERROR_META_KEY]: { code, message, details } },
  };
};

/** A parameter's type as a model reads it in one line: `string`, `integer`, `one of a|b`, `string|null`. */
const typeOf = (s: JsonSchema): string => {
  if (s.enum) return s.enum.length <= 6 ? `one of ${s.enum.join('|')}` : `${s.type ?? 'string'} (enum)`;
  if (s.anyOf) return [...new Set(s.anyOf.map(typeOf))].join('|');
  if (s.type === 'array') return s.items ? `array of ${typeOf(s.items)}` : 'array';
  return s.type ?? 'any';
};

/** The first sentence of a description, at most 200 characters. */
const purposeOf = (description: string): string => {
  const end = description.search(/[.!?](\s|$)/);
  const first = end > 0 ? description.slice(0, end + 1) : description;
  return first.length > 200 ? `${first.slice(0, 199)}…` : first;
};

const MAX_OPTIONAL_NAMES = 8;

const foundTool = (t: RegisteredTool) => {
  const properties = t.inputSchema.properties ?? {};
  const required = t.requiredParameters.map((name) => ({ name, type: typeOf(properties[name] ?? {}) }));
  const optional = Object.keys(properties).filter(
    (p) => !t.requiredParameters.includes(p) && p !== 'dry_run' && p !== 'confirm_token',
  );
  return {
    name: t.name,
    title: t.declaration.title,
    kind: t.declaration.annotations.kind,
    purpose: purposeOf(t.declaration.description),
    required,
    optional,
  };
};

const foundText = (query: string, found: ReturnType<typeof foundTool>[], searched: number): string => {
  const shown = query.length > 80 ? `${query.slice(0, 79)}…` : query;
  if (!found.length) {
    return (
      `No tool matched "${shown}" among the ${searched} tools of this connection. ` +
      `Try other words for what should happen to which thing ("list the files in a folder", "update a contact").`
    );
  }
  const lines = found.map((t, i) => {
    const needs = t.required.length ? t.required.map((p) => `${p.name} (${p.type})`).join(', ') : 'nothing';
    const more = t.optional.length > MAX_OPTIONAL_NAMES ? ', …' : '';
    const optional = t.optional.length
      ? ` Optional: ${t.optional.slice(0, MAX_OPTIONAL_NAMES).join(', ')}${more}.`
      : '';
    return `${i + 1}. **${t.name}** (${t.kind}): ${t.purpose}\n   Needs: ${needs}.${optional}`;
  });
  const first = found[0]!.name;
  return (
    `## ${found.length} tool${found.length === 1 ? '' : 's'} for "${shown}"\n\n${lines.join('\n')}\n\n` +
    `Call one with ${CALL_TOOL} {"name": "${first}", "arguments": {...}} (or by its name); ` +
    `${DESCRIBE_TOOL} {"name": "${first}"} gives its whole input schema.`
  );
};

export const createDiscovery = (executor: ToolExecutor, forms: McpForms, tenantSettings?: TenantSettingsSource) => {
  const indexes = new ToolIndexes();
  const registry = executor.registry;
  const thresholdOf = (caller: DiscoveryCaller) => tenantSettings?.of(caller.principal.tenant).toolSearchAbove ?? 0;

  /** What, besides permissions, toolsets and output form, decides the list (for the list cache's key). */
  const listKey = (caller: DiscoveryCaller): string =>
    `${caller.discovery ?? `auto>${thresholdOf(caller)}`}|${caller.pins?.join(',') ?? ''}`;

  /**
   * The tools/list of a caller in discovery mode (the meta tools, then the pins) and the names it can find,
   * or undefined when the caller gets the catalogue.
   */
  const list = (
    caller: DiscoveryCaller,
    visible: readonly RegisteredTool[],
  ): { tools: Tool[]; searchable: readonly string[] } | undefined => {
    if (!searchesTools(caller.discovery, visible.length, thresholdOf(caller))) return undefined;
    const form = caller.outputSchemas ?? 'outline';
    const meta = metaToolListings(visible).map((t) => mcpTool(t, form) as unknown as Tool);
    const pinned = (caller.pins ?? []).map((name) => forms.get(form)!.get(name)!);
    return { tools: [...meta, ...pinned], searchable: visible.map((t) => t.name) };
  };

  const visibleOf = (caller: DiscoveryCaller) => visibleTools(registry, caller.principal, caller.groups);

  const find = (caller: DiscoveryCaller, args: Record<string, unknown>): CallToolResult => {
    const checked = checkFindArgs(args);
    if ('status' in checked) return failure(checked);
    const terms = queryTerms(checked.query);
    if ('status' in terms) return failure(terms);
    const visible = visibleOf(caller);
    const found = indexes.of(visible).search(terms, checked.groups, checked.limit).map(foundTool);
    return {
      content: [{ type: 'text', text: foundText(checked.query, found, visible.length) }],
      structuredContent: { query: checked.query, count: found.length, tools: found },
    };
  };

  const describe = (caller: DiscoveryCaller, args: Record<string, unknown>): CallToolResult => {
    const name = checkDescribeArgs(args);
    if (typeof name !== 'string') return failure(name);
    const visible = visibleOf(caller);
    const tool = visible.some((t) => t.name === name)
      ? forms.get(caller.outputSchemas ?? 'outline')!.get(name)
      : metaToolListings(visible)
          .filter((t) => t.name === name)
          .map((t) => mcpTool(t, caller.outputSchemas) as unknown as Tool)[0];
    if (!tool) {
      const near = queryTerms(name);
      const suggestions = !('status' in near)
        ? indexes
            .of(visible)
            .search(near, undefined, 2)
            .map((t) => t.name)
        : [];
      return failure(notAvailable(name, suggestions));
    }
    return {
      content: [{ type: 'text', text: `## ${name}\n\n${JSON.stringify(tool)}` }],
      structuredContent: { tool },
    };
  };

  /**
   * tools/call with the meta tools in front: find and describe are answered here; the call tool, and any
   * other name, go to `next`, the tools/call path itself (with the named tool and its arguments in place of
   * the meta tool's, and every other member of the request, such as `_meta`, as it came).
   */
  const call = async <R>(
    caller: DiscoveryCaller,
    params: CallRequest,
    next: (params: CallRequest) => R | Promise<R>,
  ): Promise<R | CallToolResult> => {
    const args = params.arguments ?? {};
    switch (params.name) {
      case FIND_TOOLS:
        return find(caller, args);
      case DESCRIBE_TOOL:
        return describe(caller, args);
      case CALL_TOOL: {
        const checked = checkCallArgs(args);
        if ('status' in checked) return failure(checked);
        return next({ ...params, name: checked.name, arguments: checked.arguments });
      }
      default:
        return next(params);
    }
  };

  return { listKey, list, call, indexes };
};

export type Discovery = ReturnType<typeof createDiscovery>;
