import type { Redis } from 'ioredis';
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
import { withinBudget } from './redis-availability.js';

/** Adding runs off the call path (a batch a second); reading answers GET /v1/usage. */
const USAGE_BUDGET_MS = 1000;

// Add one to a day (or month) counter unless it reached the limit, in one step for every instance.
const TAKE = `
local n = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if n >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
`;

// Give one back, never below zero.
const RELEASE = `
local n = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if n > 0 then redis.call('HINCRBY', KEYS[1], ARGV[1], -1) end
return 1
`;

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
  ) {
    redis.defineCommand('tgUsageTake', { numberOfKeys: 1, lua: TAKE });
    redis.defineCommand('tgUsageRelease', { numberOfKeys: 1, lua: RELEASE });
  }

  private get scripts() {
    return this.redis as unknown as {
      tgUsageTake: (key: string, name: string, limit: number, ttl: number) => Promise<number>;
      tgUsageRelease: (key: string, name: string) => Promise<number>;
    };
  }

  async take(tenant: string, at: Date, name: string, limit: number, period: QuotaPeriod = 'day'): Promise<boolean> {
    const key = `${this.prefix}${tenant}:${quotaPeriodOf(at, period)}`;
    const ttl = period === 'month' ? USAGE_MONTH_TTL_SECONDS : USAGE_DAY_TTL_SECONDS;
    const taken = await withinBudget(this.redis, USAGE_BUDGET_MS, 'taking a usage quota', () =>
      this.scripts.tgUsageTake(key, name, limit, ttl),
    );
    return taken === 1;
  }

  async release(tenant: string, at: Date, name: string, period: QuotaPeriod = 'day'): Promise<void> {
    const key = `${this.prefix}${tenant}:${quotaPeriodOf(at, period)}`;
    await withinBudget(this.redis, USAGE_BUDGET_MS, 'giving back a usage quota', () =>
      this.scripts.tgUsageRelease(key, name),
    );
  }

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
