import type { Clock } from '../../../ports/clock.js';
import {
  USAGE_DAY_TTL_SECONDS,
  USAGE_MONTH_TTL_SECONDS,
  quotaPeriodOf,
  usagePeriodsOf,
  type QuotaPeriod,
  type UsageCounts,
  type UsagePeriods,
  type UsageStore,
} from '../../../ports/usage-store.js';

interface Period {
  readonly counts: Map<string, number>;
  readonly expiresAt: number;
}

/**
 * The usage counters of one instance (no Redis): at most `maxPeriods` tenant-periods, each with at most
 * `maxCounters` counters, forgotten as the Redis store forgets them (days after 3 days, months after 62);
 * when full, the oldest period goes first.
 */
export class InMemoryUsageStore implements UsageStore {
  readonly #periods = new Map<string, Period>();

  constructor(
    private readonly clock: Clock,
    private readonly maxPeriods = 20_000,
    private readonly maxCounters = 5_000,
  ) {}

  add(tenant: string, at: Date, counts: UsageCounts): Promise<void> {
    const { day, month } = usagePeriodsOf(at);
    this.#bump(`${tenant}|${day}`, USAGE_DAY_TTL_SECONDS, counts);
    this.#bump(`${tenant}|${month}`, USAGE_MONTH_TTL_SECONDS, counts);
    return Promise.resolve();
  }

  read(tenant: string, at: Date): Promise<UsagePeriods> {
    const { day, month } = usagePeriodsOf(at);
    return Promise.resolve({ day: this.#counts(`${tenant}|${day}`), month: this.#counts(`${tenant}|${month}`) });
  }

  take(tenant: string, at: Date, name: string, limit: number, period: QuotaPeriod = 'day'): Promise<boolean> {
    const key = `${tenant}|${quotaPeriodOf(at, period)}`;
    if ((this.#counts(key)[name] ?? 0) >= limit) return Promise.resolve(false);
    this.#bump(key, period === 'month' ? USAGE_MONTH_TTL_SECONDS : USAGE_DAY_TTL_SECONDS, { [name]: 1 });
    return Promise.resolve(true);
  }

  release(tenant: string, at: Date, name: string, quotaPeriod: QuotaPeriod = 'day'): Promise<void> {
    const period = this.#periods.get(`${tenant}|${quotaPeriodOf(at, quotaPeriod)}`);
    const n = period?.counts.get(name);
    if (period && n !== undefined && n > 0) period.counts.set(name, n - 1);
    return Promise.resolve();
  }

  #counts(key: string): UsageCounts {
    const period = this.#periods.get(key);
    if (!period || period.expiresAt <= this.clock.now().getTime()) return {};
    return Object.fromEntries(period.counts);
  }

  #bump(key: string, ttlSeconds: number, counts: UsageCounts): void {
    const now = this.clock.now().getTime();
    let period = this.#periods.get(key);
    if (period && period.expiresAt <= now) {
      this.#periods.delete(key);
      period = undefined;
    }
    if (!period) {
      this.#sweep(now);
      period = { counts: new Map(), expiresAt: now + ttlSeconds * 1000 };
      this.#periods.set(key, period);
    }
    for (const [name, n] of Object.entries(counts)) {
      if (n === 0) continue;
      const current = period.counts.get(name);
      if (current === undefined && period.counts.size >= this.maxCounters) continue;
      period.counts.set(name, (current ?? 0) + n);
    }
  }

  /** Drops expired periods, then the oldest while full (a Map iterates in insertion order). */
  #sweep(now: number): void {
    if (this.#periods.size < this.maxPeriods) return;
    for (const [key, period] of this.#periods) if (period.expiresAt <= now) this.#periods.delete(key);
    for (const key of this.#periods.keys()) {
      if (this.#periods.size < this.maxPeriods) break;
      this.#periods.delete(key);
    }
  }
}
