import { skipTracePropertyTool } from './skip-trace-property.js';

export const skiptraceTools = [skipTracePropertyTool] as const;
