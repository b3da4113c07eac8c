import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayDatabase } from '../../../adapters/outbound/persistence/schema.js';
import { BullJobQueue } from '../../../adapters/outbound/redis/bullmq-job-queue.js';
import { postgresForTests } from '../../support/postgres.js';
import { ownRedisServer, type OwnRedis } from '../../support/redis.js';
import { jobWorld, openBackend, someone } from './job-world.js';

// BullMQ while Redis goes away (issue 40): a redis-server of the test's own (no persistence), killed while a
// job runs and started again empty. The job running goes on (its rows are in PostgreSQL) and ends once, with
// every record written exactly once; a job queued behind it, whose BullMQ entry died with Redis, is queued
// again from its row once Redis is back and runs once; a job submitted while Redis is away is refused with a
// retryable 503, and no job is left that no instance will take. No unhandled rejection meanwhile.

const pg = await postgresForTests();
const own = await ownRedisServer();
const skip = 'skip' in pg ? pg.skip : 'skip' in own ? own.skip : undefined;
if (skip) console.warn(skip);

describe.skipIf(skip !== undefined)('the job engine on BullMQ while Redis goes away', () => {
  const redis = own as OwnRedis;
  let db: Kysely<GatewayDatabase>;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    db = await openBackend('postgres', 'url' in pg ? pg.url : undefined);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await db?.destroy();
    await redis.stop();
  });

  it('a running job ends once, a queued one is queued again, a new one gets a retryable 503', async () => {
    const w = jobWorld(db);
    const errors: unknown[] = [];
    const queue = new BullJobQueue({
      url: redis.url,
      prefix: `loss${randomUUID().slice(0, 8)}:tg:bull`,
      concurrency: 2,
      lockMs: 1_000,
      laterMs: 100,
      onError: (error) => errors.push(error),
    });
    const e = w.engine({
      worker: 'r',
      queue,
      perTenantRunning: 1,
      leaseMs: 1_000,
      requeueMs: 500,
      onError: (error) => errors.push(error),
    });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached: () => void = () => undefined;
    const inSecondChunk = new Promise<void>((resolve) => (reached = resolve));
    let writes = 0;
    w.records.before = async () => {
      writes += 1;
      if (writes === 51) reached();
      if (writes > 50 && writes <= 100) await held;
      return undefined;
    };
    const owner = someone(`t${randomUUID().slice(0, 8)}`);
    const running = await w.submit(e, owner, 300);
    await inSecondChunk;
    // A second job of the tenant waits in Redis while the first runs (a bound of 1 running).
    const waiting = await w.submit(e, owner, 20);
    expect((await w.store.get(waiting.id))!.status).toBe('queued');

    await redis.kill(); // Redis is gone, with every BullMQ entry in it (no persistence)
    const refused = await e.submit({
      tool: w.registry.get('records_batchCreateRecords')!,
      params: { app_id: 3001, inputs: [{ fields: { name: 'while away' } }] },
      principal: owner,
      requestId: 'req-away',
    });
    expect(refused).toMatchObject({ status: 503, code: 'UNAVAILABLE', details: { retryable: true } });

    release(); // the running job goes on without Redis: its rows are in PostgreSQL
    const first = await w.until(running.id, (s) => s === 'completed');
    expect(first).toMatchObject({ done: 300, failed: 0, total: 300, attempts: 1 });

    await redis.restart(); // empty: the waiting job's entry is gone
    const second = await w.until(waiting.id, (s) => s === 'completed');
    expect(second).toMatchObject({ done: 20, failed: 0, total: 20, attempts: 1 });

    // Every record exactly once: 300 + 20, each mark created once; the refused job was never run.
    expect(w.records.created.size).toBe(320);
    expect([...w.records.created.values()].every((n) => n === 1)).toBe(true);
    const jobs = await w.store.list(owner.tenant, owner.id, 10);
    expect(jobs.map((j) => j.status).sort()).toEqual(['completed', 'completed', 'failed']);
    expect(await w.store.active(owner.tenant)).toBe(0);
    // What failed meanwhile was reported, not thrown where nobody listens.
    expect(errors.length).toBeGreaterThan(0);
    await w.close();
    await queue.close();
    expect(unhandled).toEqual([]);
  }, 60_000);

  it('a job whose instance dies while Redis is away is resumed by another once Redis is back: each record once', async () => {
    const w = jobWorld(db);
    const errors: unknown[] = [];
    const prefix = `loss${randomUUID().slice(0, 8)}:tg:bull`;
    const engine = (worker: string) =>
      w.engine({
        worker,
        queue: new BullJobQueue({
          url: redis.url,
          prefix,
          concurrency: 2,
          lockMs: 1_000,
          onError: (x) => errors.push(x),
        }),
        leaseMs: 1_000,
        requeueMs: 500,
        onError: (x) => errors.push(x),
      });
    const a = engine('a');
    let writes = 0;
    let reached: () => void = () => undefined;
    const inThirdChunk = new Promise<void>((resolve) => (reached = resolve));
    w.records.before = () => {
      writes += 1;
      if (writes === 120) reached();
      return Promise.resolve(undefined);
    };
    const job = await w.submit(a, someone(`t${randomUUID().slice(0, 8)}`), 300);
    await inThirdChunk;
    await redis.kill(); // Redis goes, and the job's entry and lock with it
    a.halt(); // then the instance running the job dies mid-chunk
    await redis.restart(); // empty: nothing in Redis says the job exists
    const b = engine('b');
    b.start(); // b finds the job's lease run out in its row, queues it again, and resumes it
    const done = await w.until(job.id, (s) => s === 'completed');
    expect(done).toMatchObject({ done: 300, failed: 0, total: 300, worker: 'b', attempts: 2 });
    expect(w.records.created.size).toBe(300);
    expect([...w.records.created.values()].every((n) => n === 1)).toBe(true);
    await w.close();
    expect(unhandled).toEqual([]);
  }, 60_000);
});
