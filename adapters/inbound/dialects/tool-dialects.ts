import { JOB_TOOLS } from '../../../application/jobs/job-tools.js';
import type { ToolListing } from '../../../application/runtime/registry.js';
import type { JsonSchema } from '../../../application/runtime/json-schema.js';
import { toolError, type ToolError } from '../../../application/runtime/tool-error.js';
import { toGeminiParameters } from './gemini-schema.js';
import { toOpenAiStrict, type SchemaNode } from './openai-schema.js';

export const DIALECTS = ['mcp', 'openai', 'anthropic', 'gemini'] as const;

/** What each vendor's form is made from: a registered tool's listing, or a meta tool's (discovery.ts). */
export type DialectSource = Omit<ToolListing, 'group' | 'permission'>;
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
  /** A tool that can run as a long job (issue 40) may be called as an MCP task (2025-11-25 `execution`). */
  readonly execution?: { readonly taskSupport: 'optional' };
}

/**
 * The hints that say something, and nothing MCP's defaults already say: a read-only tool says only
 * readOnlyHint (the other two are meaningful only when it is false); a tool that changes things always
 * states destructiveHint and idempotentHint (the default destructiveHint, true, must not speak for a mere
 * write); openWorldHint appears only when false (its default is true). The display title is the tool's own
 * `title`, not repeated here.
 */
export const leanAnnotations = (t: DialectSource): McpToolShape['annotations'] => ({
  ...(t.readOnlyHint
    ? { readOnlyHint: true as const }
    : { destructiveHint: t.destructiveHint, idempotentHint: t.idempotentHint }),
  ...(t.openWorldHint ? {} : { openWorldHint: false as const }),
});

const DEFAULT_SENTENCE = / Default: [^]*\.$/;

/**
 * The input schema as a model reads it (MCP and Anthropic: JSON Schema as it is), without what costs
 * tokens on every turn and tells the model nothing it needs to call well. The gateway validates every
 * call against the whole schema and names the rule in its 400, so nothing here loosens a check.
 * - "Default: X." sentences where the `default` keyword says the same (the OpenAI and Gemini forms keep
 *   the sentence, as they drop or restrict the keyword);
 * - the bounds that guard against abuse rather than say what a value means: `maxLength`, `maxItems` of
 *   50 or more, `maximum` of a million or more, `minLength: 1`, and `minimum: 1` without a maximum (ids);
 * - `additionalProperties: true`, JSON Schema's default, and `default: false` of a flag (a flag left out is off);
 * - below the top level, `additionalProperties: false` and empty `required` lists (an unknown member
 *   gets a 400 with a did-you-mean); the top level keeps both, as every vendor's tool format expects.
 * What is left compiles in Ajv's strict mode (no union `type` lists), as strict MCP clients need.
 */
export const leanSchema = (schema: JsonSchema): JsonSchema => {
  const walk = (node: unknown, top = false): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n));
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = walk(value);
    if ('default' in out && typeof out['description'] === 'string')
      out['description'] = out['description'].replace(DEFAULT_SENTENCE, '.').replace(/\.\.$/, '.');
    if (out['minLength'] === 1) delete out['minLength'];
    delete out['maxLength'];
    if (typeof out['maxItems'] === 'number' && out['maxItems'] >= 50) delete out['maxItems'];
    if (typeof out['maximum'] === 'number' && out['maximum'] >= 1_000_000) delete out['maximum'];
    if (out['minimum'] === 1 && out['maximum'] === undefined) delete out['minimum'];
    if (out['additionalProperties'] === true) delete out['additionalProperties'];
    if (out['type'] === 'boolean' && out['default'] === false) delete out['default'];
    if (!top && out['additionalProperties'] === false) delete out['additionalProperties'];
    if (!top && Array.isArray(out['required']) && out['required'].length === 0) delete out['required'];
    return out;
  };
  return walk(schema, true) as JsonSchema;
};

const leanSchemas = new WeakMap<JsonSchema, JsonSchema>();
const lean = (schema: JsonSchema): JsonSchema => {
  let made = leanSchemas.get(schema);
  if (!made) leanSchemas.set(schema, (made = leanSchema(schema)));
  return made;
};

/** How tools/list gives each tool's outputSchema (`/mcp?output_schemas=`): see `outlineSchema`. */
export const OUTPUT_SCHEMA_FORMS = ['outline', 'full', 'none'] as const;
export type OutputSchemaForm = (typeof OUTPUT_SCHEMA_FORMS)[number];

/** The `output_schemas` query parameter (on /mcp and GET /v1/tools): a form, undefined when absent, or the 400. */
export const parseOutputSchemaForm = (raw: string | undefined): OutputSchemaForm | undefined | ToolError =>
  raw === undefined || (OUTPUT_SCHEMA_FORMS as readonly string[]).includes(raw)
    ? (raw as OutputSchemaForm | undefined)
    : toolError(
        400,
        'INVALID_PARAMETER',
        `Query parameter "output_schemas" must be one of ${OUTPUT_SCHEMA_FORMS.join(', ')}; got "${raw.slice(0, 40)}".`,
        { parameter: 'output_schemas', expected: OUTPUT_SCHEMA_FORMS.join(' | ') },
      );

/** How deep the outline goes: the answer's own members (its rows and nested objects are only "object" or "array"). */
const OUTLINE_DEPTH = 1;

/**
 * An output schema in outline: the types, required members, enums and constants of the first
 * OUTLINE_DEPTH levels, and below them only "object" or "array". Everything valid under the full schema
 * is valid under its outline. The full schemas cost almost three times the tokens (14.3k against 5.3k for
 * the 59 tools, `npm run bench:catalogue`) in a list sent on every turn, for members most agents never read;
 * `output_schemas=full` on /mcp and on GET /v1/tools?dialect=mcp, and the OpenAPI document, give them whole.
 */
export const outlineSchema = (schema: JsonSchema, depth = OUTLINE_DEPTH): JsonSchema => {
  const out: JsonSchema = {};
  if (schema.type) out.type = schema.type;
  if (schema.enum) out.enum = schema.enum;
  if (schema.const !== undefined) out.const = schema.const;
  if (schema.anyOf) return { ...out, anyOf: schema.anyOf.map((s) => outlineSchema(s, depth)) };
  if (depth <= 0) return schema.items ? { ...out, items: outlineSchema(schema.items, 0) } : out;
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, outlineSchema(v, depth - 1)]),
    );
    if (schema.required?.length) out.required = schema.required;
  }
  // an array's rows are at the array's level: a list's outline names its rows' members
  if (schema.items) out.items = outlineSchema(schema.items, depth);
  if (typeof schema.additionalProperties === 'object') {
    out.additionalProperties = outlineSchema(schema.additionalProperties, depth - 1);
  }
  return out;
};

const outlines = new WeakMap<JsonSchema, JsonSchema>();
const outline = (schema: JsonSchema): JsonSchema => {
  let made = outlines.get(schema);
  if (!made) outlines.set(schema, (made = outlineSchema(schema)));
  return made;
};

export const mcpTool = (t: DialectSource, outputs: OutputSchemaForm = 'outline'): McpToolShape => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: lean(t.inputSchema),
  ...(t.outputSchema && outputs !== 'none'
    ? { outputSchema: outputs === 'full' ? t.outputSchema : outline(t.outputSchema) }
    : {}),
  annotations: leanAnnotations(t),
  ...(JOB_TOOLS.has(t.name) ? { execution: { taskSupport: 'optional' as const } } : {}),
});

/**
 * OpenAI (Chat Completions `tools` entries). Strict mode wherever it can express the parameters: then every
 * property is required and the optional ones accept null (the gateway treats null as "not given", see
 * `dropNullOptionals`). A tool with a parameter strict mode cannot express (an open dictionary, a value of any
 * type) is sent with `strict: false` and its schema unchanged.
 */
export const openAiTool = (
  t: DialectSource,
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
export const anthropicTool = (t: DialectSource): { name: string; description: string; input_schema: JsonSchema } => ({
  name: t.name,
  description: t.description,
  input_schema: lean(t.inputSchema),
});

/** Gemini `functionDeclarations` entries (send them as `tools: [{"functionDeclarations": [...]}]`). */
export const geminiDeclaration = (t: DialectSource): Record<string, unknown> => ({
  name: t.name,
  description: t.description,
  ...toGeminiParameters(t.inputSchema),
});

/** The tool list in a model vendor's function-calling format. */
export const toDialect = (
  tools: readonly DialectSource[],
  dialect: Dialect,
  outputs: OutputSchemaForm = 'outline',
): unknown[] => {
  switch (dialect) {
    case 'mcp':
      return tools.map((t) => mcpTool(t, outputs));
    case 'openai':
      return tools.map(openAiTool);
    case 'anthropic':
      return tools.map(anthropicTool);
    case 'gemini':
      return tools.map(geminiDeclaration);
  }
};
