import { BatchDataSkipTracer } from '../../adapters/outbound/batchdata/batchdata-skip-tracer.js';
import { InMemorySkipTracer } from '../../adapters/outbound/memory/in-memory-skip-tracer.js';
import { SkipTracer } from '../../ports/skip-tracer.js';
import { enumVar, optionalString, urlVar } from '../env.js';
import { bindOnce, defineGroup } from '../group-module.js';

export type SkipTraceConfig =
  { readonly kind: 'memory' } | { readonly kind: 'batchdata'; readonly baseUrl: string; readonly apiToken: string };

export const skiptraceGroup = defineGroup({
  name: 'skiptrace',
  environment: [
    ['SKIPTRACE_BACKEND', 'memory', 'skiptrace tools: memory or batchdata.'],
    ['BATCHDATA_API_TOKEN', '(none)', 'BatchData API token (required with SKIPTRACE_BACKEND=batchdata).'],
    ['BATCHDATA_BASE_URL', 'https://api.batchdata.com', 'BatchData API base URL.'],
  ],
  env: {
    SKIPTRACE_BACKEND: enumVar(['memory', 'batchdata'], 'memory'),
    BATCHDATA_API_TOKEN: optionalString,
    BATCHDATA_BASE_URL: urlVar('https://api.batchdata.com'),
  },
  configure: (v, problems): SkipTraceConfig => {
    if (v.SKIPTRACE_BACKEND !== 'batchdata') return { kind: 'memory' };
    const apiToken = v.BATCHDATA_API_TOKEN;
    if (!apiToken) problems.push('BATCHDATA_API_TOKEN is required when SKIPTRACE_BACKEND=batchdata.');
    return { kind: 'batchdata', baseUrl: v.BATCHDATA_BASE_URL, apiToken: apiToken ?? '' };
  },
  bind: (container, config, { clock, upstreamTimeoutMs }) =>
    bindOnce(container, SkipTracer, () =>
      config.kind === 'memory'
        ? new InMemorySkipTracer(clock)
        : new BatchDataSkipTracer({ baseUrl: config.baseUrl, apiToken: config.apiToken, timeoutMs: upstreamTimeoutMs }),
    ),
  describe: (config) => config.kind,
});
