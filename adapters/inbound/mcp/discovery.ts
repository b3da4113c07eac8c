import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { TenantSettingsSource } from '../../../ports/tenant-settings.js';
import {
  CALL_TOOL,
  checkCallArgs,
  DESCRIBE_TOOL,
  FIND_TOOLS,
  metaToolListings,
  notAvailable,
  searchesTools,
  type DiscoveryMode,
} from '../../../application/runtime/discovery.js';
import { TenantNamesCache } from '../../../application/runtime/tenant-names.js';
import { loadLexicon } from '../../../application/runtime/lexicon.js';
import { createToolFinder, type DiscoveryAnswer } from '../../../application/runtime/discovery-answers.js';
import type { ToolExecutor } from '../../../application/runtime/executor.js';
import type { RegisteredTool } from '../../../application/runtime/registry.js';
import type { ToolError } from '../../../application/runtime/tool-error.js';
import { visibleTools } from '../../../application/runtime/toolsets.js';
import { mcpTool, type OutputSchemaForm } from '../dialects/tool-dialects.js';
import { ERROR_META_KEY, errorText, type CallRequest, type McpCaller } from './mcp-tools.js';

// Discovery mode over MCP (issue 30): tools/list's meta tools and pins, and the meta tools' calls. Finding
// and describing (discovery-answers.ts, shared with REST) see only the caller's visible set (permissions and
// toolsets); calling hands the named tool and its arguments to the very function tools/call uses, so every
// check and approval applies unchanged.

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

export const createDiscovery = (executor: ToolExecutor, forms: McpForms, tenantSettings?: TenantSettingsSource) => {
  const finder = createToolFinder();
  // the tenant's own names for search, read through the tools' use cases on the caller's first search
  const names = new TenantNamesCache((tool, principal) => executor.resolve(tool, principal));
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

  /** A finder's answer as a tool result: its text, and its payload as structuredContent. */
  const answered = (a: DiscoveryAnswer | ToolError): CallToolResult =>
    'status' in a ? failure(a) : { content: [{ type: 'text', text: a.text }], structuredContent: { ...a.payload } };

  const find = async (caller: DiscoveryCaller, args: Record<string, unknown>): Promise<CallToolResult> => {
    const visible = visibleOf(caller);
    // the general lexicon (issue 41) is read on the first find, never at start
    const [tenantNames, lexicon] = await Promise.all([names.of(caller.principal, visible), loadLexicon()]);
    return answered(finder.find(visible, args, tenantNames, lexicon));
  };

  /** A name the caller cannot call here (none such, or outside its toolsets): an isError naming likely tools. */
  const unavailable = async (caller: DiscoveryCaller, name: string, args: Record<string, unknown>) => {
    const visible = visibleOf(caller);
    // by meaning through the general lexicon too (issue 41), read on first use as for find
    return failure(notAvailable(name, await finder.suggestLoading(visible, name, args, registry)));
  };
  const unknownHere = (caller: DiscoveryCaller, name: string): boolean => {
    const tool = registry.get(name);
    return !tool || (caller.groups !== undefined && !caller.groups.includes(tool.declaration.group));
  };

  const describe = async (caller: DiscoveryCaller, args: Record<string, unknown>): Promise<CallToolResult> => {
    const form = caller.outputSchemas ?? 'outline';
    return answered(
      await finder.describeLoading(
        visibleOf(caller),
        args,
        (t) => ('declaration' in t ? forms.get(form)!.get(t.name) : (mcpTool(t, form) as unknown as Tool)),
        registry,
      ),
    );
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
        if (unknownHere(caller, checked.name)) return unavailable(caller, checked.name, checked.arguments);
        return next({ ...params, name: checked.name, arguments: checked.arguments });
      }
      default:
        // In search mode tools are called by the names find gives, none of them listed: a wrong one is the
        // model's to correct, so it reads as a tool error. With the catalogue listed, an unlisted name stays
        // the protocol error (-32602) the MCP specification gives for an unknown tool.
        if (
          unknownHere(caller, params.name) &&
          searchesTools(caller.discovery, visibleOf(caller).length, thresholdOf(caller))
        )
          return unavailable(caller, params.name, args);
        return next(params);
    }
  };

  return { listKey, list, call, indexes: finder.indexes, names };
};

export type Discovery = ReturnType<typeof createDiscovery>;
