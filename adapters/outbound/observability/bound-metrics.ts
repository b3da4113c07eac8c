import type { CounterConfiguration, HistogramConfiguration, LabelValues } from 'prom-client';
import { Counter, Histogram } from './prom.js';

// prom-client finds a labelled series anew on every `inc` and `observe`, even through a `labels()` child:
// it checks the labels, builds a key string from them and looks it up. Three such updates per tool call
// measured 1 to 3 µs of a 30 µs answer (the built server with and without them, pinned). Here a
// series is bound once to a plain tally, so that counting is an addition; the tallies reach prom-client's
// output whenever the registry is read, so /metrics is the same text (bound-metrics.test.ts compares
// the two). A series is bound for as long as the metric lives: bind a bounded set of label values.

/** A counter whose series can be bound once and counted with no lookup. */
export class BoundCounter<T extends string> extends Counter<T> {
  private readonly tallies: { readonly labels: LabelValues<T>; pending: number }[] = [];

  constructor(config: CounterConfiguration<T>) {
    super(config);
  }

  /** Counts one for `labels` each time the returned function is called. */
  bind(labels: LabelValues<T>): () => void {
    const tally = { labels, pending: 0 };
    this.tallies.push(tally);
    return () => {
      tally.pending += 1;
    };
  }

  override async get() {
    // What the bound series counted since the last read goes into prom-client's own series first.
    for (const tally of this.tallies) {
      if (tally.pending === 0) continue;
      this.inc(tally.labels, tally.pending);
      tally.pending = 0;
    }
    return super.get();
  }

  override reset(): void {
    // prom-client's constructor calls reset before this class's fields exist.
    for (const tally of (this.tallies as typeof this.tallies | undefined) ?? []) tally.pending = 0;
    super.reset();
  }
}

/** The shape prom-client's histogram gives the registry (labels apart from the series' own). */
interface PromStringData {
  readonly values: readonly {
    readonly labels: Record<string, string | number>;
    readonly sharedLabels?: Record<string, string | number | undefined>;
    readonly value: number;
    readonly metricName?: string;
    readonly exemplar?: unknown;
  }[];
  readonly [other: string]: unknown;
}

const baseGetForPromString = (Histogram.prototype as unknown as { getForPromString(): Promise<PromStringData> })
  .getForPromString;

interface HistogramSeries<T extends string> {
  readonly labels: LabelValues<T>;
  /** Observations per bucket (not cumulative); past the last bound, only `count` grows. */
  readonly perBucket: Float64Array;
  sum: number;
  count: number;
}

/**
 * A histogram whose series can be bound once and observed with no lookup. Bound series are only
 * observed through their binding: observing the same labels through `observe` too would list them twice.
 */
export class BoundHistogram<T extends string> extends Histogram<T> {
  private readonly bounds: readonly number[];
  private readonly metricName: string;
  private readonly series: HistogramSeries<T>[] = [];

  constructor(config: HistogramConfiguration<T> & { readonly buckets: number[] }) {
    super(config);
    const bounds = config.buckets;
    if (bounds.some((b, i) => i > 0 && b <= bounds[i - 1]!)) throw new Error(`${config.name}: buckets must ascend`);
    this.bounds = [...bounds];
    this.metricName = config.name;
  }

  /** Observes a value (in the histogram's unit) for `labels` each time the returned function is called. */
  bind(labels: LabelValues<T>): (value: number) => void {
    const series: HistogramSeries<T> = { labels, perBucket: new Float64Array(this.bounds.length), sum: 0, count: 0 };
    this.series.push(series);
    const { bounds } = this;
    return (value) => {
      if (!Number.isFinite(value)) return;
      series.sum += value;
      series.count += 1;
      for (let i = 0; i < bounds.length; i++) {
        if (value <= bounds[i]!) {
          series.perBucket[i]! += 1;
          return;
        }
      }
    };
  }

  /**
   * What the registry reads for its text output (prom-client calls this in place of `get` when a metric
   * has it, and its `get` reads it too; the method is not in prom-client's typings).
   */
  async getForPromString(): Promise<PromStringData> {
    const data = await baseGetForPromString.call(this);
    const bucket = `${this.metricName}_bucket`;
    const values = [...data.values];
    for (const s of this.series) {
      if (s.count === 0) continue;
      // The same entries, in the same order, as prom-client gives for a series of its own.
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += s.perBucket[i]!;
        values.push({ labels: { le }, sharedLabels: s.labels, value: cumulative, metricName: bucket, exemplar: null });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: bucket, exemplar: null },
        { labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.metricName}_sum`, exemplar: undefined },
        {
          labels: {},
          sharedLabels: s.labels,
          value: s.count,
          metricName: `${this.metricName}_count`,
          exemplar: undefined,
        },
      );
    }
    return { ...data, values };
  }

  override reset(): void {
    // prom-client's constructor calls reset before this class's fields exist.
    for (const s of (this.series as typeof this.series | undefined) ?? []) {
      s.perBucket.fill(0);
      s.sum = 0;
      s.count = 0;
    }
    super.reset();
  }
}
