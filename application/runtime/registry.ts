import { GROUPS, qualifiedName, requiredPermission, type Group, type ToolDeclaration } from './define-tool.js';
import { toJsonSchema, type JsonSchema } from './json-schema.js';
import { toolError, type ToolError } from './tool-error.js';

/** A declared tool with everything derived from it once, at start-up. */
export interface RegisteredTool {
  readonly declaration: ToolDeclaration;
  readonly name: string;
  readonly permission: string;
  readonly inputSchema: JsonSchema;
  readonly requiredParameters: readonly string[];
}

export interface ToolListing {
  readonly name: string;
  readonly group: Group;
  readonly title: string;
  readonly description: string;
  /** How a tool treats its target: Read | Write | Destructive, plus Idempotent. */
  readonly annotations: readonly string[];
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
  readonly permission: string;
  readonly inputSchema: JsonSchema;
}

export class ToolRegistry {
  private readonly byName = new Map<string, RegisteredTool>();
  private readonly byGroup = new Map<Group, RegisteredTool[]>();
  readonly tools: readonly RegisteredTool[];

  constructor(declarations: readonly ToolDeclaration[]) {
    for (const g of GROUPS) this.byGroup.set(g, []);
    for (const declaration of declarations) {
      const name = qualifiedName(declaration);
      if (this.byName.has(name)) throw new Error(`Tool ${name} is declared twice`);
      if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) throw new Error(`Tool name ${name} is not a valid function name`);
      const inputSchema = toJsonSchema(declaration.params as never);
      if (inputSchema.type !== 'object') throw new Error(`Tool ${name}: parameters must be an object`);
      const tool: RegisteredTool = {
        declaration,
        name,
        permission: requiredPermission(declaration),
        inputSchema,
        requiredParameters: inputSchema.required ?? [],
      };
      this.byName.set(name, tool);
      this.byGroup.get(declaration.group)!.push(tool);
    }
    this.tools = GROUPS.flatMap((g) => this.byGroup.get(g)!);
  }

  get(name: string): RegisteredTool | undefined {
    return this.byName.get(name);
  }

  inGroup(group: Group): readonly RegisteredTool[] {
    return this.byGroup.get(group) ?? [];
  }

  /** A 404 that names the tools that do exist in the group (or the groups, when the group is unknown). */
  unknownTool(group: string, toolName?: string): ToolError {
    if (!(GROUPS as readonly string[]).includes(group)) {
      return toolError(
        404,
        'NOT_FOUND',
        `Unknown tool group "${group}". Groups: ${GROUPS.join(', ')}. GET /v1/tools lists every tool.`,
        { resource: 'tool_group', id: group, groups: [...GROUPS] },
      );
    }
    const tools = this.inGroup(group as Group).map((t) => t.declaration.name);
    const name = toolName === undefined ? group : `${group}_${toolName}`;
    const available = tools.length
      ? `Tools in "${group}": ${tools.join(', ')}.`
      : `The "${group}" group has no tools yet.`;
    return toolError(404, 'NOT_FOUND', `Unknown tool "${name}". ${available}`, { resource: 'tool', id: name, tools });
  }

  /** The 404 for a qualified name (`crm_getContact`) that names no tool: the group ends at the first underscore. */
  unknownName(name: string): ToolError {
    const cut = name.indexOf('_');
    return cut > 0 ? this.unknownTool(name.slice(0, cut), name.slice(cut + 1)) : this.unknownTool(name);
  }

  listing(): ToolListing[] {
    return this.tools.map(({ declaration: d, name, permission, inputSchema }) => ({
      name,
      group: d.group,
      title: d.title,
      description: d.description,
      annotations: [d.annotations.kind, ...(d.annotations.idempotent ? ['Idempotent'] : [])],
      readOnlyHint: d.annotations.kind === 'Read',
      destructiveHint: d.annotations.kind === 'Destructive',
      idempotentHint: d.annotations.idempotent,
      openWorldHint: d.annotations.openWorld ?? true,
      permission,
      inputSchema,
    }));
  }
}
