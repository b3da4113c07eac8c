import { createRequire } from 'node:module';
import type * as Prom from 'prom-client';

// prom-client's entry file loads every default metric, and its process-CPU metric requires
// @opentelemetry/api (44 files) at load time, for exemplars the gateway does not use. So the classes and
// the default metrics are taken from their own files (prom-client has no exports map: its lib/ files are
// reachable), and the three CPU counters are made here, with the names prom-client gives them (issue 39:
// nothing the memory mode does not use loads at start). test/adapters/outbound/metric-names.test.ts and
// the observability test read the whole set.

const require = createRequire(import.meta.url);

export const Registry = require('prom-client/lib/registry') as typeof Prom.Registry;
export const Counter = require('prom-client/lib/counter') as typeof Prom.Counter;
export const Gauge = require('prom-client/lib/gauge') as typeof Prom.Gauge;
export const Histogram = require('prom-client/lib/histogram') as typeof Prom.Histogram;
export type Registry = Prom.Registry;
export type Counter<T extends string> = Prom.Counter<T>;
export type Gauge<T extends string> = Prom.Gauge<T>;
export type Histogram<T extends string> = Prom.Histogram<T>;

type DefaultMetric = (
  registry: Prom.Registry,
  config: { prefix: string; eventLoopMonitoringPrecision: number },
) => void;

/** prom-client's default metrics (lib/defaultMetrics.js's list), all but the process-CPU one. */
const DEFAULT_METRICS = [
  'processStartTime',
  'osMemoryHeap',
  'processOpenFileDescriptors',
  'processMaxFileDescriptors',
  'eventLoopLag',
  ...(typeof process.getActiveResourcesInfo === 'function' ? ['processResources'] : []),
  'processHandles',
  'processRequests',
  'heapSizeAndUsed',
  'heapSpacesSizeAndUsed',
  'version',
  'gc',
];

/** The process's CPU time as three counters, read when the registry is read (as prom-client's, without exemplars). */
const processCpu = (registry: Prom.Registry, prefix: string): void => {
  let last = process.cpuUsage();
  const counter = (name: string, help: string, collect?: () => void) =>
    new Counter({ name: `${prefix}${name}`, help, registers: [registry], ...(collect ? { collect } : {}) });
  const user = counter('process_cpu_user_seconds_total', 'Total user CPU time spent in seconds.', () => {
    const now = process.cpuUsage();
    const userMicros = now.user - last.user;
    const systemMicros = now.system - last.system;
    last = now;
    user.inc(userMicros / 1e6);
    system.inc(systemMicros / 1e6);
    total.inc((userMicros + systemMicros) / 1e6);
  });
  const system = counter('process_cpu_system_seconds_total', 'Total system CPU time spent in seconds.');
  const total = counter('process_cpu_seconds_total', 'Total user and system CPU time spent in seconds.');
};

/** prom-client's default metrics, under `prefix`, in `registry`. */
export const collectDefaultMetrics = (registry: Prom.Registry, prefix: string): void => {
  processCpu(registry, prefix);
  for (const name of DEFAULT_METRICS)
    (require(`prom-client/lib/metrics/${name}`) as DefaultMetric)(registry, {
      prefix,
      eventLoopMonitoringPrecision: 10,
    });
};
