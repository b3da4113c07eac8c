import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BoundCounter, BoundHistogram } from '../../../adapters/outbound/observability/bound-metrics.js';

// Bound series must read exactly like prom-client's own: the same /metrics text and the same JSON.

const buckets = [0.001, 0.01, 0.1, 1, 10];
const observations: [string, string, number][] = [
  ['crm_getContact', '200', 0.0004],
  ['crm_getContact', '200', 0.001],
  ['crm_getContact', '200', 0.05],
  ['crm_getContact', '404', 2],
  ['files_readFile', '200', 11],
  ['files_readFile', '200', 0.1],
  ['crm_getContact', '200', 0.0007],
];

const pair = () => {
  const plain = new Registry();
  const bound = new Registry();
  const config = (registry: Registry) => ({
    help: 'Calls by tool and status',
    labelNames: ['tool', 'status'] as const,
    registers: [registry],
  });
  return {
    plain,
    bound,
    counters: [
      new Counter({ name: 'calls_total', ...config(plain) }),
      new BoundCounter({ name: 'calls_total', ...config(bound) }),
    ] as const,
    histograms: [
      new Histogram({ name: 'call_seconds', buckets, ...config(plain) }),
      new BoundHistogram({ name: 'call_seconds', buckets, ...config(bound) }),
    ] as const,
  };
};

describe('bound metrics', () => {
  it('read exactly like prom-client series given the same counts and observations', async () => {
    const { plain, bound, counters, histograms } = pair();
    const binds = new Map<string, { inc: () => void; observe: (v: number) => void }>();
    for (const [tool, status, seconds] of observations) {
      counters[0].inc({ tool, status });
      histograms[0].observe({ tool, status }, seconds);
      const key = `${tool} ${status}`;
      if (!binds.has(key))
        binds.set(key, { inc: counters[1].bind({ tool, status }), observe: histograms[1].bind({ tool, status }) });
      binds.get(key)!.inc();
      binds.get(key)!.observe(seconds);
    }
    const text = await bound.metrics();
    expect(text).toContain('calls_total{tool="crm_getContact",status="200"} 4');
    expect(text).toContain('call_seconds_bucket{le="0.001",tool="crm_getContact",status="200"} 3');
    expect(text).toContain('call_seconds_bucket{le="+Inf",tool="files_readFile",status="200"} 2');
    expect(text).toBe(await plain.metrics());
    expect(await bound.getMetricsAsJSON()).toEqual(await plain.getMetricsAsJSON());

    // Counting goes on after a read, and a second read shows the sum (nothing counted twice).
    counters[0].inc({ tool: 'crm_getContact', status: '200' });
    binds.get('crm_getContact 200')!.inc();
    expect(await bound.metrics()).toBe(await plain.metrics());
  });

  it('bound series that saw nothing are not listed, and reset empties them', async () => {
    const { plain, bound, counters, histograms } = pair();
    counters[1].bind({ tool: 'a', status: '200' });
    const observe = histograms[1].bind({ tool: 'a', status: '200' });
    expect(await bound.metrics()).toBe(await plain.metrics());
    observe(0.5);
    expect(await bound.metrics()).toContain('call_seconds_count{tool="a",status="200"} 1');
    histograms[1].reset();
    counters[1].reset();
    expect(await bound.metrics()).toBe(await plain.metrics());
  });

  it('refuses buckets that do not ascend', () => {
    expect(() => new BoundHistogram({ name: 'x', help: 'x', buckets: [1, 0.5], registers: [] })).toThrow(/ascend/);
  });
});
