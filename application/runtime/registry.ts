import { GROUPS, qualifiedName, requiredPermission, type Group, type ToolDeclaration } from './define-tool.js';
import { CONTROL_PARAMETERS } from './control-parameters.js';
import { toJsonSchema, type JsonSchema } from './json-schema.js';
import { toolError, type ToolError } from './tool-error.js';

/** A declared tool with everything derived from it once, at start-up. */
export interface RegisteredTool {
  readonly declaration: ToolDeclaration;
  readonly name: string;
  readonly permission: string;
  readonly inputSchema: JsonSchema;
  /** From the declaration's result codec, when it has one. */
  readonly outputSchema?: JsonSchema;
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
  readonly outputSchema?: JsonSchema;
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
      const declared = toJsonSchema(declaration.params as never);
      if (declared.type !== 'object') throw new Error(`Tool ${name}: parameters must be an object`);
      // Every Destructive tool also takes the gateway's dry_run and confirm_token (confirm.ts).
      const inputSchema: JsonSchema =
        declaration.annotations.kind === 'Destructive'
          ? { ...declared, properties: { ...declared.properties, ...CONTROL_PARAMETERS } }
          : declared;
      const outputSchema = declaration.result ? toJsonSchema(declaration.result) : undefined;
      if (outputSchema && outputSchema.type !== 'object') throw new Error(`Tool ${name}: the result must be an object`);
      const tool: RegisteredTool = {
        declaration,
        name,
        permission: requiredPermission(declaration),
        inputSchema,
        ...(outputSchema ? { outputSchema } : {}),
        requiredParameters: inputSchema.required ?? [],
      };
      this.byName.set(name, tool);
      this.byGroup.get(declaration.group)!.push(tool);
    }
    this.tools = GROUPS.flatMap((g) => this.byGroup.get(g)!);
    for (const t of this.tools) {
      const other = t.declaration.continuesWith;
      if (other !== undefined && !this.byName.has(other))
        throw new Error(`Tool ${t.name} continues with ${other}, which is not declared`);
    }
  }

  get(name: string): RegisteredTool | undefined {
    return this.byName.get(name);
  }

  inGroup(group: Group): readonly RegisteredTool[] {
    return this.byGroup.get(group) ?? [];
  }

  /**
   * A 404 for a name that is no tool: the closest full tool names (did you mean), the group's tools by
   * their full names, and how to list them on any surface. `group` is everything before the first
   * underscore of the name the caller gave.
   */
  unknownTool(group: string, toolName?: string): ToolError {
    const name = clipName(toolName === undefined ? group : `${group}_${toolName}`);
    const closest = this.closestNames(name);
    const didYouMean = closest.length ? ` Did you mean ${closest.map((n) => `"${n}"`).join(' or ')}?` : '';
    if (!(GROUPS as readonly string[]).includes(group)) {
      return toolError(
        404,
        'NOT_FOUND',
        `Unknown tool "${name}".${didYouMean} Tool names are <group>_<tool>; the groups are ${GROUPS.join(', ')}. ${LIST_HINT}`,
        { resource: 'tool', id: name, groups: [...GROUPS], ...(closest.length ? { did_you_mean: closest } : {}) },
      );
    }
    const tools = this.inGroup(group as Group).map((t) => t.name);
    const available = tools.length
      ? `Tools in "${group}": ${tools.join(', ')}.`
      : `The "${group}" group has no tools yet.`;
    return toolError(404, 'NOT_FOUND', `Unknown tool "${name}".${didYouMean} ${available}`, {
      resource: 'tool',
      id: name,
      tools,
      ...(closest.length ? { did_you_mean: closest } : {}),
    });
  }

  /** The 404 for a qualified name (`crm_getContact`) that names no tool: the group ends at the first underscore. */
  unknownName(name: string): ToolError {
    const cut = name.indexOf('_');
    return cut > 0 ? this.unknownTool(name.slice(0, cut), name.slice(cut + 1)) : this.unknownTool(name);
  }

  /** Up to two registered names nearest to `name` (case-insensitive edit distance), when they are near. */
  private closestNames(name: string): string[] {
    const wanted = name.toLowerCase();
    const scored = this.tools
      .map((t) => ({ name: t.name, d: editDistance(wanted, t.name.toLowerCase()) }))
      .filter((x) => x.d <= Math.max(2, Math.floor(x.name.length / 4)))
      .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name));
    return scored.slice(0, 2).map((x) => x.name);
  }

  listing(): ToolListing[] {
    return this.tools.map(({ declaration: d, name, permission, inputSchema, outputSchema }) => ({
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
      ...(outputSchema ? { outputSchema } : {}),
    }));
  }
}

/** Where a caller finds every tool, whichever surface it speaks. */
const LIST_HINT = 'List them with tools/list over MCP or GET /v1/tools over REST.';

/** Tool names are at most 64 characters; a longer caller-given name is cut before it is compared or echoed. */
const clipName = (name: string): string => (name.length > 80 ? `${name.slice(0, 80)}…` : name);

/** Levenshtein distance, O(a x b) over names of at most ~80 characters (both sides are bounded). */
const editDistance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
};
