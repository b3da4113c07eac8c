import type { GroupModule } from '../group-module.js';
import { crmGroup } from './crm.js';
import { filesGroup } from './files.js';
import { recordsGroup } from './records.js';
import { skiptraceGroup } from './skiptrace.js';
import { webGroup } from './web.js';
import { workspacesGroup } from './workspaces.js';

/** Every tool group's wiring, in the order the groups are listed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each module has its own configuration and variables
export const groupModules: readonly GroupModule<any, any>[] = [
  filesGroup,
  crmGroup,
  skiptraceGroup,
  workspacesGroup,
  recordsGroup,
  webGroup,
];
