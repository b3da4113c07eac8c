import type { Principal } from '../../ports/authenticator.js';
import { GROUPS, isAllowed, type Group } from './define-tool.js';
import type { RegisteredTool, ToolRegistry } from './registry.js';
import { toolError, type ToolError } from './tool-error.js';

// Toolsets: a caller may limit a listing (REST `GET /v1/tools?groups=`) or an MCP connection
// (`/mcp?groups=crm,records`) to some groups, so that a model is shown only the tools its task needs.

/** `crm,records` as groups; undefined (no limit) when the parameter is absent or empty. */
export const parseToolsets = (raw: string | undefined): readonly Group[] | undefined | ToolError => {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (raw.length > 200) return badGroups(`${raw.slice(0, 40)}…`);
  const names = [...new Set(raw.split(',').map((g) => g.trim()))].filter(Boolean);
  const unknown = names.find((g) => !(GROUPS as readonly string[]).includes(g));
  return unknown === undefined ? (names as Group[]) : badGroups(unknown);
};

const badGroups = (given: string): ToolError =>
  toolError(
    400,
    'INVALID_PARAMETER',
    `Query parameter "groups" must be a comma-separated list of ${GROUPS.join(', ')}; "${given}" is not a group.`,
    { parameter: 'groups', expected: `comma-separated subset of ${GROUPS.join(', ')}` },
  );

/** The tools a principal may call, within the given groups (all groups when none are given). */
export const visibleTools = (
  registry: ToolRegistry,
  principal: Principal | undefined,
  groups: readonly Group[] | undefined,
): readonly RegisteredTool[] =>
  registry.tools.filter(
    (t) =>
      (groups === undefined || groups.includes(t.declaration.group)) &&
      (principal === undefined || isAllowed(principal, t.permission)),
  );

/** The error for a call to a tool outside the connection's toolsets. */
export const outsideToolsets = (tool: RegisteredTool, groups: readonly Group[]): ToolError =>
  toolError(
    404,
    'NOT_FOUND',
    `Tool "${tool.name}" is not enabled on this connection, which is limited to the groups ${groups.join(', ')}. Use one of their tools, or connect without ?groups= (or with "${tool.declaration.group}" added).`,
    { resource: 'tool', id: tool.name, groups: [...groups] },
  );
