import { batchDataConnector } from '../../adapters/outbound/batchdata/batchdata-connector.js';
import { BatchDataSkipTracer } from '../../adapters/outbound/batchdata/batchdata-skip-tracer.js';
import { InMemorySkipTracer } from '../../adapters/outbound/memory/in-memory-skip-tracer.js';
import { SkipTracePolicy, SkipTracer } from '../../ports/skip-tracer.js';
import { enumVar, optionalString, urlVar } from '../env.js';
import { bindOnce, defineGroup } from '../group-module.js';

export type SkipTraceConfig = (
  { readonly kind: 'memory' } | { readonly kind: 'batchdata'; readonly baseUrl: string; readonly apiToken: string }
) & {
  /** Tenants whose lookups must state their purpose ('*': every tenant). */
  readonly purposeRequired: readonly string[];
};

export const skiptraceGroup = defineGroup({
  name: 'skiptrace',
  environment: [
    ['SKIPTRACE_BACKEND', 'memory', 'skiptrace tools: memory or batchdata.'],
    ['BATCHDATA_API_TOKEN', '(none)', 'BatchData API token (required with SKIPTRACE_BACKEND=batchdata).'],
    ['BATCHDATA_BASE_URL', 'https://api.batchdata.com', 'BatchData API base URL.'],
    [
      'SKIPTRACE_PURPOSE_REQUIRED',
      '(none)',
      'Tenants whose skip traces must state a permissible purpose (GLBA/DPPA) in `purpose`: comma-separated tenant ids, or * for all.',
    ],
  ],
  env: {
    SKIPTRACE_BACKEND: enumVar(['memory', 'batchdata'], 'memory'),
    BATCHDATA_API_TOKEN: optionalString,
    BATCHDATA_BASE_URL: urlVar('https://api.batchdata.com'),
    SKIPTRACE_PURPOSE_REQUIRED: optionalString,
  },
  configure: (v, problems): SkipTraceConfig => {
    const purposeRequired = (v.SKIPTRACE_PURPOSE_REQUIRED ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (v.SKIPTRACE_BACKEND !== 'batchdata') return { kind: 'memory', purposeRequired };
    const apiToken = v.BATCHDATA_API_TOKEN;
    if (!apiToken) problems.push('BATCHDATA_API_TOKEN is required when SKIPTRACE_BACKEND=batchdata.');
    return { kind: 'batchdata', baseUrl: v.BATCHDATA_BASE_URL, apiToken: apiToken ?? '', purposeRequired };
  },
  bind: (container, config, { clock, upstreamTimeoutMs }) => {
    bindOnce(container, SkipTracePolicy, () => {
      const all = config.purposeRequired.includes('*');
      const tenants = new Set(config.purposeRequired);
      return { purposeRequired: (tenant: string) => all || tenants.has(tenant) };
    });
    bindOnce(container, SkipTracer, () =>
      config.kind === 'memory'
        ? new InMemorySkipTracer(clock)
        : new BatchDataSkipTracer({ baseUrl: config.baseUrl, apiToken: config.apiToken, timeoutMs: upstreamTimeoutMs }),
    );
  },
  vendor: 'batchdata',
  connector: (config, { upstreamTimeoutMs }) =>
    config.kind === 'memory'
      ? undefined
      : batchDataConnector({ baseUrl: config.baseUrl, timeoutMs: upstreamTimeoutMs }),
  bindConnection: (container, config, { upstreamTimeoutMs }, { connection }) => {
    if (config.kind === 'memory') return;
    bindOnce(
      container,
      SkipTracer,
      () =>
        new BatchDataSkipTracer({
          baseUrl: config.baseUrl,
          apiToken: connection.secret.apiKey ?? '',
          timeoutMs: upstreamTimeoutMs,
        }),
    );
  },
  describe: (config) => config.kind,
});
