import type { Kysely } from 'kysely';
import {
  quotaPeriodOf,
  usagePeriodsOf,
  type QuotaPeriod,
  type UsageCounts,
  type UsagePeriods,
  type UsageStore,
} from '../../../ports/usage-store.js';
import type { GatewayDatabase } from './schema.js';

/** kysely's `sql`, loaded with the database rather than at start: a gateway in memory mode never loads kysely. */
const kysely = () => import('kysely');

// Usage per tenant in the gateway's database (issue 32): one row per tenant, period (a UTC day `2026-11-27`
// or month `2026-11`) and counter, in gateway_usage_counters. Adding is one upsert (a batch a second per
// instance, off the call path); a quota's `take` is one conditional upsert, atomic on PostgreSQL however
// many instances take at once. Days are purged once they are USAGE_DAYS_KEPT days old, a bounded number of
// rows at a time; months are kept (billing reads them; a tenant has a few dozen counters a month).

/** How many days a day's counters are kept (months are kept for good). */
export const USAGE_DAYS_KEPT = 400;
/** How often an instance purges old days (checked when it adds), and how much one purge deletes at most. */
const PURGE_EVERY_MS = 10 * 60_000;
const PURGE_BATCH_ROWS = 1_000;
const PURGE_BATCHES = 20;
/** Rows per INSERT (4 parameters each: well under SQLite's and PostgreSQL's parameter limits). */
const INSERT_CHUNK_ROWS = 200;

type Row = { tenant: string; period: string; name: string; count: number };

export interface SqlUsageStoreOptions {
  /** Days a day's counters are kept (default USAGE_DAYS_KEPT). */
  readonly daysKept?: number;
  /** Least time between two purges of this instance (default 10 minutes). */
  readonly purgeEveryMs?: number;
  /** Most rows one statement of a purge deletes, and most statements one purge runs (default 1,000 and 20). */
  readonly purgeBatchRows?: number;
  readonly purgeBatches?: number;
  /** Told when a purge failed (it is tried again at the next one). */
  readonly onPurgeError?: (error: unknown) => void;
}

/** The usage counters in PostgreSQL (shared by every instance) or the embedded SQLite. */
export class SqlUsageStore implements UsageStore {
  #lastPurge = Number.NEGATIVE_INFINITY;
  #purging: Promise<void> | undefined;

  constructor(
    private readonly db: () => Promise<Kysely<GatewayDatabase>>,
    private readonly options: SqlUsageStoreOptions = {},
  ) {}

  async add(tenant: string, at: Date, counts: UsageCounts): Promise<void> {
    // In one order on every instance (period, then name), so concurrent upserts lock rows in the same order.
    const entries = Object.entries(counts)
      .filter(([, n]) => Number.isFinite(n) && n !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (entries.length === 0) return;
    const { day, month } = usagePeriodsOf(at);
    const rows: Row[] = [day, month].flatMap((period) =>
      entries.map(([name, n]) => ({ tenant, period, name, count: Math.trunc(n) })),
    );
    const db = await this.db();
    const { sql } = await kysely();
    const upsert = (into: Kysely<GatewayDatabase>, chunk: Row[]) =>
      into
        .insertInto('gateway_usage_counters')
        .values(chunk)
        .onConflict((oc) =>
          oc
            .columns(['tenant', 'period', 'name'])
            .doUpdateSet({ count: sql`gateway_usage_counters.count + excluded.count` }),
        )
        .execute();
    if (rows.length <= INSERT_CHUNK_ROWS) await upsert(db, rows);
    else
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += INSERT_CHUNK_ROWS)
          await upsert(trx, rows.slice(i, i + INSERT_CHUNK_ROWS));
      });
    this.#purgeNowAndThen(at);
  }

  async read(tenant: string, at: Date): Promise<UsagePeriods> {
    const { day, month } = usagePeriodsOf(at);
    const rows = await (
      await this.db()
    )
      .selectFrom('gateway_usage_counters')
      .select(['period', 'name', 'count'])
      .where('tenant', '=', tenant)
      .where('period', 'in', [day, month])
      .execute();
    const days: Record<string, number> = {};
    const months: Record<string, number> = {};
    for (const r of rows) (r.period === day ? days : months)[r.name] = Number(r.count);
    return { day: days, month: months };
  }

  async take(tenant: string, at: Date, name: string, limit: number, period: QuotaPeriod = 'day'): Promise<boolean> {
    if (!(limit >= 1)) return false;
    const { sql } = await kysely();
    // Insert 1, or add 1 while under the limit: the row comes back only when one was taken. On PostgreSQL a
    // conflicting upsert waits for the row's lock and checks the limit against the row as committed.
    const taken = await (
      await this.db()
    )
      .insertInto('gateway_usage_counters')
      .values({ tenant, period: quotaPeriodOf(at, period), name, count: 1 })
      .onConflict((oc) =>
        oc
          .columns(['tenant', 'period', 'name'])
          .doUpdateSet({ count: sql`gateway_usage_counters.count + 1` })
          .where(sql<boolean>`gateway_usage_counters.count < ${limit}`),
      )
      .returning('count')
      .executeTakeFirst();
    return taken !== undefined;
  }

  async release(tenant: string, at: Date, name: string, period: QuotaPeriod = 'day'): Promise<void> {
    const { sql } = await kysely();
    await (
      await this.db()
    )
      .updateTable('gateway_usage_counters')
      .set({ count: sql`count - 1` })
      .where('tenant', '=', tenant)
      .where('period', '=', quotaPeriodOf(at, period))
      .where('name', '=', name)
      .where('count', '>', 0)
      .execute();
  }

  /**
   * Deletes the counters of days more than `daysKept` days before `at`, at most `purgeBatches` statements of
   * `purgeBatchRows` rows (a backlog goes over several purges); answers how many rows went.
   */
  async purge(at: Date): Promise<number> {
    const kept = this.options.daysKept ?? USAGE_DAYS_KEPT;
    const cutoff = new Date(at.getTime() - kept * 86_400_000).toISOString().slice(0, 10);
    const batch = this.options.purgeBatchRows ?? PURGE_BATCH_ROWS;
    const db = await this.db();
    const { sql } = await kysely();
    let purged = 0;
    for (let i = 0; i < (this.options.purgeBatches ?? PURGE_BATCHES); i++) {
      // A day's period is 10 characters (a month's 7, never purged); both databases take the row-value IN.
      const result = await sql`
        delete from gateway_usage_counters where (tenant, period, name) in (
          select tenant, period, name from gateway_usage_counters
          where period < ${cutoff} and length(period) = 10 limit ${batch})`.execute(db);
      const n = Number(result.numAffectedRows ?? 0);
      purged += n;
      if (n < batch) break;
    }
    return purged;
  }

  /** A purge when the last one is long enough ago, in the background of an addition. */
  #purgeNowAndThen(at: Date): void {
    const now = at.getTime();
    if (this.#purging || now - this.#lastPurge < (this.options.purgeEveryMs ?? PURGE_EVERY_MS)) return;
    this.#lastPurge = now;
    this.#purging = this.purge(at)
      .then(() => undefined)
      .catch((error: unknown) => {
        try {
          this.options.onPurgeError?.(error);
        } catch {
          // Reporting is best-effort.
        }
      })
      .finally(() => (this.#purging = undefined));
  }

  /** The purge under way, if any (tests, shutdown). */
  settled(): Promise<void> {
    return this.#purging ?? Promise.resolve();
  }
}
