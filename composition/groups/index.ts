import type { GroupModule } from '../group-module.js';
import { crmGroup } from './crm.js';
import { skiptraceGroup } from './skiptrace.js';

/** Every tool group's wiring, in the order the groups are listed. */
export const groupModules: readonly GroupModule<any>[] = [crmGroup, skiptraceGroup];
