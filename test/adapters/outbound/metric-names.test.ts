import { describe, expect, it } from 'vitest';
import { GatewayMetrics } from '../../../adapters/outbound/observability/gateway-metrics.js';

// Prometheus's naming rules (issue 37): `_total` is a counter's suffix; a gauge named so misleads dashboards
// and rate(). prom-client's default metrics named three gauges *_total; the same figures remain by type.

describe('metric names', () => {
  it('no gauge ends in _total, and every counter does', async () => {
    const metrics = await new GatewayMetrics().registry.getMetricsAsJSON();
    const gauges = metrics.filter((m) => String(m.type) === 'gauge').map((m) => m.name);
    const counters = metrics.filter((m) => String(m.type) === 'counter').map((m) => m.name);
    expect(gauges.length).toBeGreaterThan(5);
    expect(gauges.filter((n) => n.endsWith('_total'))).toEqual([]);
    expect(counters.filter((n) => !n.endsWith('_total'))).toEqual([]);
  });

  it('active resources are still counted, by type', async () => {
    const metrics = new GatewayMetrics();
    const timer = setInterval(() => undefined, 60_000);
    try {
      const text = await metrics.registry.metrics();
      expect(text).toContain('# TYPE gateway_nodejs_active_resources gauge');
      expect(text).toMatch(/gateway_nodejs_active_resources\{type="Timeout"\} [1-9]/);
    } finally {
      clearInterval(timer);
    }
  });
});
