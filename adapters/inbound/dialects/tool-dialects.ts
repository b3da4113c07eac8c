import type { ToolListing } from '../../../application/runtime/registry.js';

export const DIALECTS = ['mcp', 'openai', 'anthropic', 'gemini'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** The tool list in a model vendor's function-calling format. */
export const toDialect = (tools: readonly ToolListing[], _dialect: Dialect): unknown[] => [...tools];
