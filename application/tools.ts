import { crmTools } from './crm/index.js';
import { filesTools } from './files/index.js';
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
