import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryUsageStore } from '../../../adapters/outbound/memory/in-memory-usage-store.js';
import { openEmbedded, openPostgres, type OpenDatabase } from '../../../adapters/outbound/persistence/databases.js';
import { SqlUsageStore } from '../../../adapters/outbound/persistence/sql-usage-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import type { UsageStore } from '../../../ports/usage-store.js';
import { postgresForTests } from '../../support/postgres.js';

// Issue 32: usage counters in the gateway's database (gateway_usage_counters), on the embedded SQLite always
// and on PostgreSQL when one is there: upserted additions per day and month, quotas taken atomically per day
// or month (exactly `limit` of many concurrent takes on PostgreSQL), given back never below zero, old days
// purged a bounded number of rows at a time while months stay.

const run = randomBytes(4).toString('hex');
const AT = new Date('2026-11-27T10:00:00Z');

const opened: OpenDatabase[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(opened.map((o) => o.db.destroy()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The behaviour every usage store shares (the SQL store on both databases, and memory). */
const behaves = (name: string, make: () => Promise<UsageStore>) =>
  describe(name, () => {
    let store: UsageStore;
    beforeAll(async () => {
      store = await make();
    });
    const tenant = (label: string) => `${label}-${run}`;

    it('adds counts to the day and the month, upserting', async () => {
      const t = tenant('add');
      await store.add(t, AT, { 'tool:a:ok': 2, 'vendor:HubSpot': 1, 'bytes:vendor_in': 1500 });
      await store.add(t, AT, { 'tool:a:ok': 1, 'tool:b:failed': 1, zero: 0 });
      await store.add(t, new Date('2026-11-26T23:59:59Z'), { 'tool:a:ok': 5 });
      const { day, month } = await store.read(t, AT);
      expect(day).toEqual({ 'tool:a:ok': 3, 'vendor:HubSpot': 1, 'bytes:vendor_in': 1500, 'tool:b:failed': 1 });
      expect(month).toEqual({ 'tool:a:ok': 8, 'vendor:HubSpot': 1, 'bytes:vendor_in': 1500, 'tool:b:failed': 1 });
      expect(await store.read(tenant('other'), AT)).toEqual({ day: {}, month: {} });
    });

    it('takes up to the limit a day, gives back never below zero', async () => {
      const t = tenant('day');
      expect(await store.take(t, AT, 'quota:x', 0)).toBe(false);
      expect(await store.take(t, AT, 'quota:x', 2)).toBe(true);
      expect(await store.take(t, AT, 'quota:x', 2)).toBe(true);
      expect(await store.take(t, AT, 'quota:x', 2)).toBe(false);
      await store.release(t, AT, 'quota:x');
      expect(await store.take(t, AT, 'quota:x', 2)).toBe(true);
      // The next day starts afresh; the month is another counter.
      expect(await store.take(t, new Date('2026-11-28T00:00:00Z'), 'quota:x', 2)).toBe(true);
      expect((await store.read(t, AT)).month['quota:x']).toBeUndefined();
      await store.release(t, new Date('2026-11-29T00:00:00Z'), 'quota:x');
      await store.release(t, new Date('2026-11-29T00:00:00Z'), 'quota:x');
      expect((await store.read(t, new Date('2026-11-29T00:00:00Z'))).day['quota:x'] ?? 0).toBe(0);
    });

    it('takes up to the limit a month', async () => {
      const t = tenant('month');
      expect(await store.take(t, new Date('2026-11-01T00:00:00Z'), 'quota:m', 2, 'month')).toBe(true);
      expect(await store.take(t, new Date('2026-11-30T23:59:59Z'), 'quota:m', 2, 'month')).toBe(true);
      expect(await store.take(t, AT, 'quota:m', 2, 'month')).toBe(false);
      expect((await store.read(t, AT)).month['quota:m']).toBe(2);
      expect((await store.read(t, AT)).day['quota:m']).toBeUndefined();
      await store.release(t, AT, 'quota:m', 'month');
      expect(await store.take(t, AT, 'quota:m', 2, 'month')).toBe(true);
      expect(await store.take(t, new Date('2026-12-01T00:00:00Z'), 'quota:m', 2, 'month')).toBe(true);
    });
  });

behaves('the usage store in memory', () => Promise.resolve(new InMemoryUsageStore(new FixedClock(AT))));

const embedded = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'usage-sql-'));
  dirs.push(dir);
  const db = await openEmbedded(dir);
  opened.push(db);
  return db;
};
behaves('the usage store on the embedded SQLite', async () => {
  const db = await embedded();
  return new SqlUsageStore(() => Promise.resolve(db.db));
});

describe('the usage store on the embedded SQLite: purging', () => {
  it('purges days older than the days kept, a bounded number of rows a statement, and keeps months', async () => {
    const { db } = await embedded();
    const store = new SqlUsageStore(() => Promise.resolve(db), { daysKept: 10, purgeBatchRows: 2, purgeBatches: 2 });
    const t = `purge-${run}`;
    const old = new Date('2026-11-01T12:00:00Z');
    await store.add(t, old, { a: 1, b: 1, c: 1 }); // days 2026-11-01 (3 rows) and month 2026-11
    await store.add(t, new Date('2026-11-10T12:00:00Z'), { a: 1, b: 1, c: 1 });
    const rows = async () =>
      (await db.selectFrom('gateway_usage_counters').select(['period']).where('tenant', '=', t).execute())
        .map((r) => r.period)
        .sort();
    await store.settled();
    // 10 days after 2026-11-01 is 2026-11-11: the cutoff; 2026-11-10 is kept.
    expect(await store.purge(new Date('2026-11-12T00:00:00Z'))).toBe(3);
    expect(await rows()).toEqual(['2026-11', '2026-11', '2026-11', '2026-11-10', '2026-11-10', '2026-11-10']);
    expect(await store.purge(new Date('2027-12-31T00:00:00Z'))).toBe(3);
    expect(await rows()).toEqual(['2026-11', '2026-11', '2026-11']);
    // At most purgeBatches × purgeBatchRows a purge: a backlog goes over several.
    for (let d = 1; d <= 3; d++) await store.add(t, new Date(`2025-01-0${d}T00:00:00Z`), { a: 1, b: 1 });
    expect(await store.purge(new Date('2027-12-31T00:00:00Z'))).toBe(4);
    expect(await store.purge(new Date('2027-12-31T00:00:00Z'))).toBe(2);
    expect(await store.purge(new Date('2027-12-31T00:00:00Z'))).toBe(0);
    expect((await rows()).filter((p) => p.length === 10)).toEqual([]);
  });
});

describe('the usage store on PostgreSQL', async () => {
  const pg = await postgresForTests();
  if ('skip' in pg) {
    it.skip(pg.skip, () => undefined);
    return;
  }
  let database: OpenDatabase;
  const open = async () => {
    database ??= await openPostgres(pg.url);
    if (!opened.includes(database)) opened.push(database);
    return new SqlUsageStore(() => Promise.resolve(database.db));
  };
  afterAll(() => pg.stop());
  behaves('shared behaviour', open);

  it('many concurrent takes, from two pools, take exactly the limit', async () => {
    const a = await open();
    const other = await openPostgres(pg.url);
    opened.push(other);
    const b = new SqlUsageStore(() => Promise.resolve(other.db));
    const t = `race-${run}`;
    const takes = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).take(t, AT, 'quota:race', 25)),
    );
    expect(takes.filter(Boolean)).toHaveLength(25);
    const months = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).take(t, AT, 'quota:race-m', 7, 'month')),
    );
    expect(months.filter(Boolean)).toHaveLength(7);
    const { day, month } = await a.read(t, AT);
    expect(day['quota:race']).toBe(25);
    expect(month['quota:race-m']).toBe(7);
  });

  it('concurrent additions from two instances add up', async () => {
    const a = await open();
    const other = await openPostgres(pg.url);
    opened.push(other);
    const b = new SqlUsageStore(() => Promise.resolve(other.db));
    const t = `adds-${run}`;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).add(t, AT, { 'tool:a:ok': 1, 'tool:b:ok': 2, x: 3 })),
    );
    expect((await a.read(t, AT)).month).toEqual({ 'tool:a:ok': 20, 'tool:b:ok': 40, x: 60 });
  });
});
