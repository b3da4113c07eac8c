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
  readonly annotations: {
    readonly title: string;
    readonly readOnlyHint: boolean;
    readonly destructiveHint: boolean;
    readonly idempotentHint: boolean;
    readonly openWorldHint: boolean;
  };
}

export const mcpTool = (t: ToolListing): McpToolShape => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: t.inputSchema,
  // Every hint is stated: MCP's defaults (destructiveHint true, openWorldHint true) must not speak for us.
  annotations: {
    title: t.title,
    readOnlyHint: t.readOnlyHint,
    destructiveHint: t.destructiveHint,
    idempotentHint: t.idempotentHint,
    openWorldHint: t.openWorldHint,
  },
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
  input_schema: t.inputSchema,
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
