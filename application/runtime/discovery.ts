import type { Principal } from '../../ports/authenticator.js';
import { GROUPS, isAllowed, type Group } from './define-tool.js';
import type { JsonSchema } from './json-schema.js';
import type { RegisteredTool, ToolListing, ToolRegistry } from './registry.js';
import { toolError, type ToolError } from './tool-error.js';

// Discovery mode (issue 30): instead of the whole catalogue, tools/list gives three meta tools (find tools
// by intent, describe one, call one) and any pinned tools. Their names take the reserved group `gateway`
// (`gateway_findTools`): the gateway's `<group>_<tool>` style, and a group no tool is ever declared in.

export const META_GROUP = 'gateway';
export const FIND_TOOLS = `${META_GROUP}_findTools`;
export const DESCRIBE_TOOL = `${META_GROUP}_describeTool`;
export const CALL_TOOL = `${META_GROUP}_callTool`;
export const META_TOOL_NAMES: readonly string[] = [FIND_TOOLS, DESCRIBE_TOOL, CALL_TOOL];

/** Most characters of a query (a longer one is refused before any work), and the answer's size. */
export const MAX_QUERY_CHARS = 500;
export const MAX_SEARCH_LIMIT = 20;
export const DEFAULT_SEARCH_LIMIT = 5;

export const DISCOVERY_MODES = ['search', 'list'] as const;
/** `search`: the meta tools; `list`: the whole catalogue even above the tenant's TOOL_SEARCH_ABOVE. */
export type DiscoveryMode = (typeof DISCOVERY_MODES)[number];

/** Most pinned tools, and most characters of the `pin` query parameter. */
export const MAX_PINS = 20;
const MAX_PIN_CHARS = 20 * 66;

/** The `discovery` query parameter (on /mcp and GET /v1/tools): a mode, undefined when absent, or the 400. */
export const parseDiscoveryMode = (raw: string | undefined): DiscoveryMode | undefined | ToolError =>
  raw === undefined || raw === '' || (DISCOVERY_MODES as readonly string[]).includes(raw)
    ? ((raw || undefined) as DiscoveryMode | undefined)
    : toolError(
        400,
        'INVALID_PARAMETER',
        `Query parameter "discovery" must be one of ${DISCOVERY_MODES.join(', ')}; got "${raw.slice(0, 40)}".`,
        { parameter: 'discovery', expected: DISCOVERY_MODES.join(' | ') },
      );

/**
 * The `pin` query parameter: comma-separated tool names listed beside the meta tools. Every name must be a
 * tool this caller may call within its toolsets; one that is not is a 400 naming it (an unknown name and a
 * name the caller may not call read alike, so a pin does not reveal which tools exist).
 */
export const parsePins = (
  raw: string | undefined,
  registry: ToolRegistry,
  principal: Principal,
  groups: readonly Group[] | undefined,
): readonly string[] | undefined | ToolError => {
  if (raw === undefined || raw.trim() === '') return undefined;
  const bad = (message: string) =>
    toolError(400, 'INVALID_PARAMETER', message, {
      parameter: 'pin',
      expected: `comma-separated names of at most ${MAX_PINS} tools this token may call`,
    });
  if (raw.length > MAX_PIN_CHARS) return bad(`Query parameter "pin" is longer than ${MAX_PIN_CHARS} characters.`);
  const names = [...new Set(raw.split(',').map((n) => n.trim()))].filter(Boolean);
  if (names.length > MAX_PINS) return bad(`Query parameter "pin" names ${names.length} tools; at most ${MAX_PINS}.`);
  for (const name of names) {
    const tool = registry.get(name);
    if (!tool || !isAllowed(principal, tool.permission) || (groups && !groups.includes(tool.declaration.group))) {
      return bad(
        `Query parameter "pin": "${name.slice(0, 70)}" is not a tool this token may call on this connection. Pin names as tools/list gives them (crm_getContact), or find them with ${FIND_TOOLS}.`,
      );
    }
  }
  return names;
};

/** Whether tools/list gives the meta tools: asked for, or automatic above the tenant's size (when above 0). */
export const searchesTools = (mode: DiscoveryMode | undefined, visible: number, toolSearchAbove: number): boolean =>
  mode === 'search' || (mode === undefined && toolSearchAbove > 0 && visible > toolSearchAbove);

/** What a meta tool needs to be given in each vendor's format (a ToolListing without group and permission). */
export type MetaToolListing = Omit<ToolListing, 'group' | 'permission'>;

const GROUP_BLURBS: Record<Group, string> = {
  files: 'files: folders, files, shares',
  records: 'records: apps (databases), records, comments, revisions',
  workspaces: 'workspaces: spaces, members, organizations',
  crm: 'crm: contacts and their properties',
  skiptrace: 'skiptrace: property owner lookup',
  web: 'web: search and read pages',
};

const NAME_SCHEMA: JsonSchema = {
  type: 'string',
  pattern: '^[a-zA-Z0-9_-]{1,64}$',
  description: `A tool's name, as ${FIND_TOOLS} gives it.`,
};

const metaListing = (
  name: string,
  title: string,
  description: string,
  properties: Record<string, JsonSchema>,
  required: string[],
  hints: Pick<ToolListing, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>,
): MetaToolListing => ({
  name,
  title,
  description,
  annotations: [hints.readOnlyHint ? 'Read' : hints.destructiveHint ? 'Destructive' : 'Write'],
  ...hints,
  inputSchema: { type: 'object', properties, required, additionalProperties: false },
});

/**
 * The meta tools for one visible set: the find tool names the groups and how many tools are there; the
 * call tool's hints are the strongest of the visible tools' (read-only for a read-only token).
 */
export const metaToolListings = (visible: readonly RegisteredTool[]): MetaToolListing[] => {
  const groups = GROUPS.filter((g) => visible.some((t) => t.declaration.group === g));
  const kinds = new Set(visible.map((t) => t.declaration.annotations.kind));
  const groupFilter: Record<string, JsonSchema> = groups.length
    ? {
        groups: {
          type: 'array',
          items: { type: 'string', enum: groups },
          description: 'Only tools of these groups.',
        },
      }
    : {};
  const find = metaListing(
    FIND_TOOLS,
    'Find tools',
    `Finds the tools for a task among the ${visible.length} this connection can use (${groups.map((g) => GROUP_BLURBS[g]).join('; ') || 'none'}). ` +
      `Describe the task in plain words; answers the best matches with their purpose and required parameters. ` +
      `Then call one with ${CALL_TOOL} (or by its name), or read its whole schema with ${DESCRIBE_TOOL}.`,
    {
      query: {
        type: 'string',
        maxLength: MAX_QUERY_CHARS,
        description: 'The task, e.g. "delete the contact with email x" or "total deal value per rep".',
      },
      ...groupFilter,
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_SEARCH_LIMIT,
        default: DEFAULT_SEARCH_LIMIT,
        description: 'Most tools to answer.',
      },
    },
    ['query'],
    { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  );
  const describe = metaListing(
    DESCRIBE_TOOL,
    'Describe a tool',
    `A tool's whole definition, as tools/list would give it: input schema, output outline, annotations.`,
    { name: NAME_SCHEMA },
    ['name'],
    { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  );
  const call = metaListing(
    CALL_TOOL,
    'Call a tool',
    `Calls a tool by name with its arguments and answers with that tool's own result (the same checks and approvals as calling it directly).`,
    {
      name: NAME_SCHEMA,
      // open: any tool's arguments (OpenAI then gets it with strict false, Gemini as parametersJsonSchema)
      arguments: {
        type: 'object',
        additionalProperties: true,
        description: "The tool's arguments, as its input schema describes them.",
      },
    },
    ['name'],
    {
      readOnlyHint: !kinds.has('Write') && !kinds.has('Destructive'),
      destructiveHint: kinds.has('Destructive'),
      idempotentHint: visible.every((t) => t.declaration.annotations.idempotent),
      openWorldHint: visible.some((t) => t.declaration.annotations.openWorld ?? true),
    },
  );
  return [find, describe, call];
};

/** The checked arguments of each meta tool. */
export interface FindArgs {
  readonly query: string;
  readonly groups?: readonly Group[];
  readonly limit: number;
}

const wrongArgument = (tool: string, parameter: string, expected: string, given?: unknown): ToolError =>
  toolError(
    400,
    'INVALID_PARAMETER',
    given === undefined
      ? `${tool} needs "${parameter}" (${expected}).`
      : `${tool}: "${parameter}" must be ${expected}.`,
    { parameter, expected },
  );

const unknownMember = (
  tool: string,
  args: Record<string, unknown>,
  known: readonly string[],
): ToolError | undefined => {
  const extra = Object.keys(args).find((k) => !known.includes(k));
  return extra === undefined
    ? undefined
    : toolError(
        400,
        'INVALID_PARAMETER',
        `${tool} has no parameter "${extra.slice(0, 64)}"; it takes ${known.join(', ')}.`,
        { parameter: extra.slice(0, 64), expected: known.join(' | ') },
      );
};

export const checkFindArgs = (args: Record<string, unknown>): FindArgs | ToolError => {
  const extra = unknownMember(FIND_TOOLS, args, ['query', 'groups', 'limit']);
  if (extra) return extra;
  const { query, groups, limit } = args;
  if (typeof query !== 'string' || query.trim() === '')
    return wrongArgument(FIND_TOOLS, 'query', 'a non-empty string: the task in words', query);
  if (query.length > MAX_QUERY_CHARS)
    return wrongArgument(FIND_TOOLS, 'query', `at most ${MAX_QUERY_CHARS} characters (it has ${query.length})`, query);
  const limitOk =
    limit === undefined || (Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= MAX_SEARCH_LIMIT);
  if (!limitOk) return wrongArgument(FIND_TOOLS, 'limit', `an integer from 1 to ${MAX_SEARCH_LIMIT}`, limit);
  if (groups !== undefined && groups !== null) {
    const ok =
      Array.isArray(groups) &&
      groups.length <= GROUPS.length * 2 &&
      groups.every((g) => (GROUPS as readonly unknown[]).includes(g));
    if (!ok) return wrongArgument(FIND_TOOLS, 'groups', `a list of groups among ${GROUPS.join(', ')}`, groups);
  }
  return {
    query,
    ...(Array.isArray(groups) && groups.length ? { groups: groups as Group[] } : {}),
    limit: (limit as number | undefined) ?? DEFAULT_SEARCH_LIMIT,
  };
};

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export const checkDescribeArgs = (args: Record<string, unknown>): string | ToolError => {
  const extra = unknownMember(DESCRIBE_TOOL, args, ['name']);
  if (extra) return extra;
  return typeof args['name'] === 'string' && NAME.test(args['name'])
    ? args['name']
    : wrongArgument(DESCRIBE_TOOL, 'name', 'a tool name such as crm_getContact', args['name']);
};

export const checkCallArgs = (
  args: Record<string, unknown>,
): { name: string; arguments: Record<string, unknown> } | ToolError => {
  const extra = unknownMember(CALL_TOOL, args, ['name', 'arguments']);
  if (extra) return extra;
  const { name, arguments: inner } = args;
  if (typeof name !== 'string' || !NAME.test(name))
    return wrongArgument(CALL_TOOL, 'name', 'a tool name such as crm_getContact', name);
  if (META_TOOL_NAMES.includes(name))
    return wrongArgument(CALL_TOOL, 'name', `a tool other than the meta tools (call ${name} directly)`, name);
  if (inner !== undefined && inner !== null && (typeof inner !== 'object' || Array.isArray(inner)))
    return wrongArgument(CALL_TOOL, 'arguments', "an object of the tool's parameters", inner);
  return { name, arguments: (inner ?? {}) as Record<string, unknown> };
};

/** A tool not visible to the caller reads like one that does not exist. */
export const notAvailable = (name: string, suggestions: readonly string[]): ToolError =>
  toolError(
    404,
    'NOT_FOUND',
    `No tool "${name}" is available on this connection.${suggestions.length ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?` : ''} Find tools with ${FIND_TOOLS}.`,
    { resource: 'tool', id: name, ...(suggestions.length ? { did_you_mean: [...suggestions] } : {}) },
  );
