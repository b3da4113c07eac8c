import type { Redis } from 'ioredis';
import {
  USAGE_DAY_TTL_SECONDS,
  USAGE_MONTH_TTL_SECONDS,
  usagePeriodsOf,
  type UsageCounts,
  type UsagePeriods,
  type UsageStore,
} from '../../../ports/usage-store.js';
import { withinBudget } from './redis-availability.js';

/** Adding runs off the call path (a batch a second); reading answers GET /v1/usage. */
const USAGE_BUDGET_MS = 1000;

const numbers = (raw: Record<string, string>): UsageCounts =>
  Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Number(v)]));

/**
 * The usage counters of every instance in Redis: one hash per tenant and period
 * (`<prefix><tenant>:<2026-11-27>`, `<prefix><tenant>:<2026-11>`), counted with HINCRBY and expiring as
 * ports/usage-store.ts says.
 */
export class RedisUsageStore implements UsageStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'tg:usage:',
  ) {}

  async add(tenant: string, at: Date, counts: UsageCounts): Promise<void> {
    const entries = Object.entries(counts).filter(([, n]) => n !== 0);
    if (entries.length === 0) return;
    const { day, month } = usagePeriodsOf(at);
    const dayKey = `${this.prefix}${tenant}:${day}`;
    const monthKey = `${this.prefix}${tenant}:${month}`;
    const batch = this.redis.multi();
    for (const [name, n] of entries) batch.hincrby(dayKey, name, n).hincrby(monthKey, name, n);
    batch.expire(dayKey, USAGE_DAY_TTL_SECONDS).expire(monthKey, USAGE_MONTH_TTL_SECONDS);
    await withinBudget(this.redis, USAGE_BUDGET_MS, 'adding usage counts', () => batch.exec());
  }

  async read(tenant: string, at: Date): Promise<UsagePeriods> {
    const { day, month } = usagePeriodsOf(at);
    const [d, m] = await withinBudget(this.redis, USAGE_BUDGET_MS, 'reading usage counts', () =>
      Promise.all([
        this.redis.hgetall(`${this.prefix}${tenant}:${day}`),
        this.redis.hgetall(`${this.prefix}${tenant}:${month}`),
      ]),
    );
    return { day: numbers(d), month: numbers(m) };
  }
}
