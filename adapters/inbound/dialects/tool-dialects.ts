import type { ToolListing } from '../../../application/runtime/registry.js';
import type { JsonSchema } from '../../../application/runtime/json-schema.js';
import { toGeminiParameters } from './gemini-schema.js';
import { toOpenAiStrict, type SchemaNode } from './openai-schema.js';

export const DIALECTS = ['mcp', 'openai', 'anthropic', 'gemini'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** A tool as MCP's tools/list gives it (also what the MCP endpoint serves). */
export interface McpToolShape {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** The structured result's schema, for tools that declare one (MCP 2025-06-18 `outputSchema`). */
  readonly outputSchema?: JsonSchema;
  readonly annotations: {
    readonly readOnlyHint?: true;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint?: false;
  };
}

/**
 * The hints that say something, and nothing MCP's defaults already say: a read-only tool says only
 * readOnlyHint (the other two are meaningful only when it is false); a tool that changes things always
 * states destructiveHint and idempotentHint (the default destructiveHint, true, must not speak for a mere
 * write); openWorldHint appears only when false (its default is true). The display title is the tool's own
 * `title`, not repeated here.
 */
export const leanAnnotations = (t: ToolListing): McpToolShape['annotations'] => ({
  ...(t.readOnlyHint
    ? { readOnlyHint: true as const }
    : { destructiveHint: t.destructiveHint, idempotentHint: t.idempotentHint }),
  ...(t.openWorldHint ? {} : { openWorldHint: false as const }),
});

const DEFAULT_SENTENCE = / Default: [^]*\.$/;

/**
 * The schema without the "Default: X." sentences where the `default` keyword says the same (MCP and
 * Anthropic read JSON Schema as it is; the OpenAI and Gemini forms keep the sentence, as they drop or
 * restrict the keyword).
 */
export const leanSchema = (schema: JsonSchema): JsonSchema => {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = walk(value);
    if ('default' in out && typeof out['description'] === 'string')
      out['description'] = out['description'].replace(DEFAULT_SENTENCE, '.').replace(/\.\.$/, '.');
    // "not empty" is checked by the gateway and said in its 400; the listing need not repeat it per string
    if (out['minLength'] === 1) delete out['minLength'];
    return out;
  };
  return walk(schema) as JsonSchema;
};

const leanSchemas = new WeakMap<JsonSchema, JsonSchema>();
const lean = (schema: JsonSchema): JsonSchema => {
  let made = leanSchemas.get(schema);
  if (!made) leanSchemas.set(schema, (made = leanSchema(schema)));
  return made;
};

export const mcpTool = (t: ToolListing): McpToolShape => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: lean(t.inputSchema),
  ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
  annotations: leanAnnotations(t),
});

/**
 * OpenAI (Chat Completions `tools` entries). Strict mode wherever it can express the parameters: then every
 * property is required and the optional ones accept null (the gateway treats null as "not given", see
 * `dropNullOptionals`). A tool with a parameter strict mode cannot express (an open dictionary, a value of any
 * type) is sent with `strict: false` and its schema unchanged.
 */
export const openAiTool = (
  t: ToolListing,
): {
  type: 'function';
  function: { name: string; description: string; parameters: SchemaNode | JsonSchema; strict: boolean };
} => {
  const strict = toOpenAiStrict(t.inputSchema);
  return {
    type: 'function',
    function: {
      name: t.name,
      description: t.description,
      parameters: strict ?? t.inputSchema,
      strict: strict !== undefined,
    },
  };
};

/** Anthropic Messages API `tools` entries: JSON Schema as is. */
export const anthropicTool = (t: ToolListing): { name: string; description: string; input_schema: JsonSchema } => ({
  name: t.name,
  description: t.description,
  input_schema: lean(t.inputSchema),
});

/** Gemini `functionDeclarations` entries (send them as `tools: [{"functionDeclarations": [...]}]`). */
export const geminiDeclaration = (t: ToolListing): Record<string, unknown> => ({
  name: t.name,
  description: t.description,
  ...toGeminiParameters(t.inputSchema),
});

/** The tool list in a model vendor's function-calling format. */
export const toDialect = (tools: readonly ToolListing[], dialect: Dialect): unknown[] => {
  switch (dialect) {
    case 'mcp':
      return tools.map(mcpTool);
    case 'openai':
      return tools.map(openAiTool);
    case 'anthropic':
      return tools.map(anthropicTool);
    case 'gemini':
      return tools.map(geminiDeclaration);
  }
};
