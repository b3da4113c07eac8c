import { batchDataConnector } from '../../adapters/outbound/batchdata/batchdata-connector.js';
import { InMemorySkipTracer } from '../../adapters/outbound/memory/in-memory-skip-tracer.js';
import { SkipTracePolicy, SkipTracer } from '../../ports/skip-tracer.js';
import { enumVar, optionalString, urlVar } from '../env.js';
import { bindOnce, defineGroup, onFirstUse } from '../group-module.js';

/** The BatchData adapter, imported on the first BatchData connection (skiptrace-batchdata.ts). */
const batchData = onFirstUse(() => import('./skiptrace-batchdata.js'));

export type SkipTraceConfig = (
  | { readonly kind: 'memory' }
  | {
      readonly kind: 'batchdata';
      readonly baseUrl: string;
      /** The operator's own BatchData key (the default tenant's connection), when the environment gives one. */
      readonly apiToken?: string;
    }
) & {
  /** Tenants whose lookups must state their purpose ('*': every tenant). */
  readonly purposeRequired: readonly string[];
};

export const skiptraceGroup = defineGroup({
  name: 'skiptrace',
  env: {
    SKIPTRACE_BACKEND: enumVar(['memory', 'batchdata'], 'memory').doc('skiptrace tools: memory or batchdata.'),
    BATCHDATA_API_TOKEN: optionalString.doc(
      "The operator's own BatchData API token: the default tenant's connection. Without it every tenant connects its own key.",
    ),
    BATCHDATA_BASE_URL: urlVar('https://api.batchdata.com').doc('BatchData API base URL.'),
    SKIPTRACE_PURPOSE_REQUIRED: optionalString.doc(
      'Tenants whose skip traces must state a permissible purpose (GLBA/DPPA) in `purpose`: comma-separated tenant ids, or * for all.',
    ),
  },
  configure: (v): SkipTraceConfig => {
    const purposeRequired = (v.SKIPTRACE_PURPOSE_REQUIRED ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (v.SKIPTRACE_BACKEND !== 'batchdata') return { kind: 'memory', purposeRequired };
    return {
      kind: 'batchdata',
      baseUrl: v.BATCHDATA_BASE_URL,
      ...(v.BATCHDATA_API_TOKEN ? { apiToken: v.BATCHDATA_API_TOKEN } : {}),
      purposeRequired,
    };
  },
  bind: (container, config, { clock }) => {
    bindOnce(container, SkipTracePolicy, () => {
      const all = config.purposeRequired.includes('*');
      const tenants = new Set(config.purposeRequired);
      return { purposeRequired: (tenant: string) => all || tenants.has(tenant) };
    });
    if (config.kind === 'memory') bindOnce(container, SkipTracer, () => new InMemorySkipTracer(clock));
  },
  vendor: 'batchdata',
  connector: (config, { upstreamTimeoutMs, resilience }) =>
    config.kind === 'memory'
      ? undefined
      : batchDataConnector({ baseUrl: config.baseUrl, timeoutMs: upstreamTimeoutMs, resilience }),
  environmentConnection: (config) =>
    config.kind === 'batchdata' && config.apiToken
      ? { kind: 'key', details: {}, secret: { apiKey: config.apiToken } }
      : undefined,
  bindConnection: async (container, config, shared, binding) => {
    if (config.kind !== 'memory') (await batchData()).bindBatchDataConnection(container, config, shared, binding);
  },
  describe: (config) => config.kind,
});
