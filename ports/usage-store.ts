import type { ServiceIdentifier } from 'inversify';

// What each tenant spends, per UTC day and month: counters named `tool:<tool>:<outcome>`,
// `vendor:<vendor>`, `bytes:vendor_in`, `bytes:vendor_out`, `skiptrace:lookups` and `skiptrace:matches`
// (usage.ts in application/runtime), and the quotas' own `quota:*` counters (usage-cap.ts).

/** Counters by name. */
export type UsageCounts = Readonly<Record<string, number>>;

export interface UsagePeriods {
  /** The UTC day of `at` (`2026-11-27`) and its counters. */
  readonly day: UsageCounts;
  /** The UTC month of `at` (`2026-11`) and its counters. */
  readonly month: UsageCounts;
}

/** The period a quota counts in: the tenant's UTC day or UTC month. */
export type QuotaPeriod = 'day' | 'month';

/**
 * The usage counters, shared by every instance when the store is (PostgreSQL, Redis); each period is kept a
 * while after it ends (the database: days 400 days, months for good; Redis and memory: days 3 days, months
 * 62 days), then forgotten.
 */
export interface UsageStore {
  /** Adds `counts` to the tenant's day and month that contain `at`. */
  add(tenant: string, at: Date, counts: UsageCounts): Promise<void>;
  read(tenant: string, at: Date): Promise<UsagePeriods>;
  /**
   * Atomically adds one to the counter `name` of the tenant's day (or month) containing `at` unless it has
   * reached `limit` (a quota: every instance shares it when the store is shared); true when it was added.
   */
  take(tenant: string, at: Date, name: string, limit: number, period?: QuotaPeriod): Promise<boolean>;
  /** Gives back one taken by `take` (the work it was for did not happen); never below zero. */
  release(tenant: string, at: Date, name: string, period?: QuotaPeriod): Promise<void>;
}

export const UsageStore = Symbol.for('UsageStore') as ServiceIdentifier<UsageStore>;

/** The UTC day (`2026-11-27`) and month (`2026-11`) of an instant. */
export const usagePeriodsOf = (at: Date): { readonly day: string; readonly month: string } => {
  const day = at.toISOString().slice(0, 10);
  return { day, month: day.slice(0, 7) };
};

/** The period key of `at` a quota counts in (`2026-11-27` for a day, `2026-11` for a month). */
export const quotaPeriodOf = (at: Date, period: QuotaPeriod = 'day'): string => usagePeriodsOf(at)[period];

/** How long a period's counters are kept after it began (Redis and memory). */
export const USAGE_DAY_TTL_SECONDS = 3 * 86_400;
export const USAGE_MONTH_TTL_SECONDS = 62 * 86_400;
