import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullJobQueue } from '../../../adapters/outbound/redis/bullmq-job-queue.js';
import type { GatewayDatabase } from '../../../adapters/outbound/persistence/schema.js';
import type { JobDispatcher } from '../../../ports/job-queue.js';
import { postgresForTests } from '../../support/postgres.js';
import { redisForTests } from '../../support/redis.js';
import { jobWorld, openBackend, someone } from './job-world.js';

// Jobs dispatched by BullMQ (issue 40, REDIS_URL and a PostgreSQL): two engines share Redis and the database;
// the one running a job dies mid-chunk (its Worker is closed at once and no longer renews its lock), BullMQ
// finds the job stalled and hands it to the other, which goes on from the items settled: every record exactly
// once. Skipped without Redis or PostgreSQL.

const pg = await postgresForTests();
const redis = await redisForTests();
const skip = 'skip' in pg ? pg.skip : 'skip' in redis ? redis.skip : undefined;
if (skip) console.warn(skip);

describe('the job engine with a dispatcher that does not answer', () => {
  it('ends the job failed and answers 503 UNAVAILABLE, instead of leaving a job no instance will take', async () => {
    const db = await openBackend('sqlite');
    const w = jobWorld(db);
    const errors: unknown[] = [];
    const down: JobDispatcher = {
      add: () => Promise.reject(new Error('Redis is away')),
      start: () => undefined,
      halt: () => undefined,
      close: () => Promise.resolve(),
    };
    const e = w.engine({ worker: 'g', queue: down, onError: (x) => errors.push(x) });
    const owner = someone(`t${randomUUID().slice(0, 8)}`);
    const answer = await e.submit({
      tool: w.registry.get('records_batchCreateRecords')!,
      params: { app_id: 3001, inputs: [{ fields: { name: 'x' } }] },
      principal: owner,
      requestId: 'req-down',
    });
    expect(answer).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    const [row] = await w.store.list(owner.tenant, owner.id, 5);
    expect(row).toMatchObject({ status: 'failed', worker: 'g' });
    expect(await w.store.active(owner.tenant)).toBe(0);
    expect(errors).toHaveLength(1);
    await w.close();
    await db.destroy();
  });
});

describe.skipIf(skip !== undefined)('the job engine dispatched by BullMQ', () => {
  let db: Kysely<GatewayDatabase>;
  const queues: BullJobQueue[] = [];
  const prefix = `test${randomUUID().slice(0, 8)}:tg:bull`;
  beforeAll(async () => {
    db = await openBackend('postgres', 'url' in pg ? pg.url : undefined);
  });
  afterAll(async () => {
    for (const q of queues) await q.close();
    if ('url' in redis) {
      // this run's BullMQ keys (a queue's `id`, `meta` and `events` outlive its jobs)
      const { Redis } = await import('ioredis');
      const r = new Redis(redis.url);
      const keys = await r.keys(`${prefix}*`);
      if (keys.length > 0) await r.del(...keys);
      await r.quit();
    }
    await db?.destroy();
    if ('stop' in pg) await pg.stop();
    if ('stop' in redis) await redis.stop();
  });

  const queue = (errors: unknown[]) => {
    const q = new BullJobQueue({
      url: 'url' in redis ? redis.url : '',
      prefix,
      concurrency: 2,
      lockMs: 1_000,
      laterMs: 100,
      onError: (error) => errors.push(error),
    });
    queues.push(q);
    return q;
  };

  it('resumes a job on the other instance after the first dies mid-chunk: every record exactly once', async () => {
    const w = jobWorld(db);
    const aErrors: unknown[] = [];
    const bErrors: unknown[] = [];
    const a = w.engine({ worker: 'a', queue: queue(aErrors), onError: (e) => aErrors.push(e) });
    const b = w.engine({ worker: 'b', queue: queue(bErrors), onError: (e) => bErrors.push(e) });
    let writes = 0;
    w.records.before = () => {
      writes += 1;
      if (writes === 120) a.halt(); // a "dies" in the third chunk: its writes sent land, their outcomes never do
      return Promise.resolve(undefined);
    };
    const job = await w.submit(a, someone(`t${randomUUID().slice(0, 8)}`), 300);
    await w.until(job.id, () => writes >= 120);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const row = (await w.store.get(job.id))!;
    // taken from BullMQ (take) by a, once
    expect(row).toMatchObject({ status: 'running', worker: 'a', attempts: 1 });
    expect([...(await w.store.states(job.id)).values()].some((s) => s.state === 'started')).toBe(true);
    b.start(); // b's Worker finds the job stalled once a's lock runs out (no renewal since the halt)
    const done = await w.until(job.id, (s) => s === 'completed');
    expect(done).toMatchObject({ done: 300, failed: 0, total: 300, worker: 'b', attempts: 2 });
    expect(w.records.created.size).toBe(300);
    expect([...w.records.created.values()].every((n) => n === 1)).toBe(true);
    const outcomes = await w.store.outcomes(job.id, 0, 500, false);
    expect(outcomes.map((o) => o.index)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(bErrors).toEqual([]);
    await w.close();
  });

  it('cancel reaches the instance running the job, which stops after its chunk in flight', async () => {
    const w = jobWorld(db);
    const errors: unknown[] = [];
    const e = w.engine({ worker: 'c', queue: queue(errors), onError: (x) => errors.push(x) });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let writes = 0;
    w.records.before = async () => {
      writes += 1;
      if (writes > 50 && writes <= 100) await held;
      return undefined;
    };
    const owner = someone(`t${randomUUID().slice(0, 8)}`);
    const job = await w.submit(e, owner, 300);
    await w.until(job.id, () => writes > 50);
    expect((await e.cancel(job.id, owner))!.status).toBe('cancelling');
    await new Promise((resolve) => setTimeout(resolve, 700)); // the run reads the row at most 2 s apart (here 333 ms)
    release();
    const done = await w.until(job.id, (s) => s === 'cancelled');
    expect(done).toMatchObject({ done: 100, total: 300 });
    expect(w.records.created.size).toBe(100);
    expect(errors).toEqual([]);
    await w.close();
  });

  it("holds a tenant's next job back while it has perTenantRunning running, over both instances", async () => {
    const w = jobWorld(db);
    const errors: unknown[] = [];
    const [d, f] = ['d', 'f'].map((worker) =>
      w.engine({ worker, queue: queue(errors), perTenantRunning: 1, onError: (x) => errors.push(x) }),
    );
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    w.records.before = async () => {
      await held;
      return undefined;
    };
    const owner = someone(`t${randomUUID().slice(0, 8)}`);
    f!.start();
    const first = await w.submit(d!, owner, 20);
    await w.until(first.id, (s) => s === 'running');
    const second = await w.submit(d!, owner, 20);
    await new Promise((resolve) => setTimeout(resolve, 500)); // offered (and put back) a few times meanwhile
    expect((await w.store.get(second.id))!.status).toBe('queued');
    release();
    await w.until(first.id, (s) => s === 'completed');
    expect(await w.until(second.id, (s) => s === 'completed')).toMatchObject({ done: 20, attempts: 1 });
    expect(errors).toEqual([]);
    await w.close();
  });
});
