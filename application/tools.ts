import { crmTools } from './crm/index.js';
import { filesTools } from './files/index.js';
import { readImageTool } from './files/read-image.js';
import { recordsTools } from './records/index.js';
import type { ToolDeclaration } from './runtime/define-tool.js';
import { skiptraceTools } from './skiptrace/index.js';
import { webTools } from './web/index.js';
import { workspacesTools } from './workspaces/index.js';

/** Every tool the gateway offers. A group's tools are listed in its own `index.ts`. */
export const allTools: readonly ToolDeclaration[] = [
  ...filesTools,
  ...recordsTools,
  ...crmTools,
  ...skiptraceTools,
  ...workspacesTools,
  ...webTools,
];

/**
 * Tools only the MCP Apps views call (through their app-only tools, adapters/inbound/mcp/view-tools.ts):
 * bound and run like the others (executor, permission, the caller's connection), never listed.
 */
export const viewOnlyTools: readonly ToolDeclaration[] = [readImageTool];

/** Every tool whose use case the gateway binds: the listed ones and the views' own. */
export const boundTools: readonly ToolDeclaration[] = [...allTools, ...viewOnlyTools];
