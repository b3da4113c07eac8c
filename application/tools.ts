import { crmTools } from './crm/index.js';
import type { ToolDeclaration } from './runtime/define-tool.js';
import { skiptraceTools } from './skiptrace/index.js';

/** Every tool the gateway offers. A group's tools are listed in its own `index.ts`. */
export const allTools: readonly ToolDeclaration[] = [...crmTools, ...skiptraceTools];
