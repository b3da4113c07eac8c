import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimited } from '../../../domain/shared/errors.js';
import type { CallObserver, ObservedCall } from '../../../ports/call-observer.js';
import type { Kysely } from 'kysely';
import type { GatewayDatabase } from '../../../adapters/outbound/persistence/schema.js';
import { postgresForTests } from '../../support/postgres.js';
import { jobWorld, openBackend, someone } from './job-world.js';

// The job engine's promises (issue 40), on the embedded SQLite store and on PostgreSQL: a job whose instance
// dies mid-chunk is resumed by another with every record written exactly once; cancel stops after the chunk
// in flight and says exactly what was done; a vendor's quota is waited out, not failed; each tenant has a
// bounded number of jobs, and of jobs running at once.

const pg = await postgresForTests();
const backends = [
  { kind: 'sqlite' as const, url: undefined },
  ...('url' in pg ? [{ kind: 'postgres' as const, url: pg.url }] : []),
];
if ('skip' in pg) console.warn(pg.skip);

const tenant = () => `t${Math.random().toString(36).slice(2, 10)}`;

describe.each(backends)('the job engine on $kind', ({ kind, url }) => {
  let db: Kysely<GatewayDatabase>;
  beforeAll(async () => {
    db = await openBackend(kind, url);
  });
  afterAll(async () => {
    await db.destroy();
    if ('stop' in pg) await pg.stop();
  });

  it('resumes a job on another instance after the first dies mid-chunk: every record exactly once', async () => {
    const w = jobWorld(db);
    const a = w.engine({ worker: 'a' });
    const b = w.engine({ worker: 'b' });
    let writes = 0;
    // Instance a dies in the middle of the third chunk: writes already sent land, their outcomes never do.
    w.records.before = () => {
      writes += 1;
      if (writes === 120) a.halt();
      return Promise.resolve(undefined);
    };
    const job = await w.submit(a, someone(tenant()), 300);
    await w.until(job.id, () => a.worker !== '' && writes >= 120);
    // a has stopped: some items are started with no outcome (their records exist, unrecorded)
    await new Promise((resolve) => setTimeout(resolve, 50));
    const states = [...(await w.store.states(job.id)).values()];
    expect(states.some((s) => s.state === 'started')).toBe(true);
    expect((await w.store.get(job.id))!.status).toBe('running');
    b.start();
    const done = await w.until(job.id, (s) => s === 'completed');
    expect(done).toMatchObject({ done: 300, failed: 0, total: 300, worker: 'b', attempts: 2 });
    // no record written twice, none lost
    expect(w.records.created.size).toBe(300);
    expect([...w.records.created.values()].every((n) => n === 1)).toBe(true);
    const outcomes = await w.store.outcomes(job.id, 0, 500, false);
    expect(outcomes.map((o) => o.index)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(new Set(outcomes.map((o) => (o as { record_id?: number }).record_id)).size).toBe(300);
    // the job's outcome is in the audit log
    expect(w.audited.find((e) => e.targets.includes(`job:${job.id}`))).toMatchObject({
      tool: 'records_batchCreateRecords',
      status: 200,
    });
    expect(w.errors).toEqual([]);
    await w.close();
  });

  it('cancel stops after the chunk in flight and reports exactly what was done', async () => {
    const w = jobWorld(db);
    const e = w.engine();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let writes = 0;
    w.records.before = async () => {
      writes += 1;
      if (writes > 50 && writes <= 100) await held; // the second chunk waits until the test lets it go
      return undefined;
    };
    const owner = someone(tenant());
    const job = await w.submit(e, owner, 300);
    await w.until(job.id, () => writes > 50);
    expect((await e.cancel(job.id, owner))!.status).toBe('cancelling');
    // the run learns of the cancel when it renews its lease (every 100 ms here)
    await new Promise((resolve) => setTimeout(resolve, 400));
    release();
    const ended = await w.until(job.id, (s) => s === 'cancelled');
    expect(ended).toMatchObject({ done: 100, failed: 0, total: 300 });
    expect(w.records.created.size).toBe(100);
    expect((await w.store.outcomes(job.id, 0, 500, false)).length).toBe(100);
    expect(JSON.parse(ended.outcome!)).toMatchObject({ result: { total: 100, successful: 100 } });
    // another caller cannot cancel (or see) it
    expect(await e.cancel(job.id, someone(tenant()))).toBeUndefined();
    await w.close();
  });

  it('waits out a vendor quota instead of failing the items', async () => {
    const w = jobWorld(db);
    const waited: number[] = [];
    const paced: number[] = [];
    const e = w.engine({
      sleep: (ms) => Promise.resolve(void waited.push(ms)),
      onPace: (seconds) => paced.push(seconds),
    });
    let refusals = 0;
    const refused = new Set<string>();
    w.records.before = (key) => {
      // the hourly quota runs out at items 20 to 29, once each, and is back after the wait
      const index = Number(key.split('.')[1]);
      if (index >= 20 && index < 30 && !refused.has(key)) {
        refused.add(key);
        refusals += 1;
        return Promise.resolve(rateLimited('Podio: hourly limit reached', 42));
      }
      return Promise.resolve(undefined);
    };
    const job = await w.submit(e, someone(tenant()), 60);
    const done = await w.until(job.id, (s) => s === 'completed' || s === 'failed');
    expect(done, done.outcome ?? '').toMatchObject({ status: 'completed', done: 60, failed: 0 });
    expect(refusals).toBeGreaterThan(0);
    expect(paced[0]).toBe(42);
    expect(waited.reduce((a, b) => a + b, 0)).toBe(42_000 * paced.length);
    expect(w.records.created.size).toBe(60);
    await w.close();
  });

  it('bounds the jobs of a tenant: queued or running, and running at once', async () => {
    const w = jobWorld(db);
    const busy = tenant();
    const idle = w.engine({ perTenantActive: 2 });
    idle.halt(); // it takes none of them
    await w.submit(idle, someone(busy), 1);
    await w.submit(idle, someone(busy), 1);
    const third = await idle.submit({
      tool: w.registry.get('records_batchCreateRecords')!,
      params: { app_id: 3001, inputs: [] },
      principal: someone(busy),
      requestId: 'r',
    });
    expect(third).toMatchObject({ status: 429, code: 'RATE_LIMITED' });

    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    w.records.before = async () => {
      await held;
      return undefined;
    };
    const [one, other] = [tenant(), tenant()];
    const e = w.engine({ perTenantRunning: 1, concurrency: 4, leaseMs: 5_000 });
    const jobs = [
      await w.submit(e, someone(one), 2),
      await w.submit(e, someone(one), 2),
      await w.submit(e, someone(other), 2),
    ];
    await w.until(jobs[2]!.id, (s) => s === 'running');
    await w.until(jobs[0]!.id, (s) => s === 'running');
    const second = (await w.store.get(jobs[1]!.id))!;
    expect(second.status, JSON.stringify(second)).toBe('queued');
    release();
    for (const j of jobs) await w.until(j.id, (s) => s === 'completed');
    await w.close();
  });
  it("runs inside the call observer with the starting call's trace, under the caller's tenant", async () => {
    const w = jobWorld(db);
    const observed: ObservedCall[] = [];
    const observer: CallObserver = {
      observe: (call, run) => {
        observed.push(call);
        return run();
      },
    };
    const e = w.engine({ observer });
    const owner = someone(tenant());
    const trace = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
    const row = await e.submit({
      tool: w.registry.get('records_batchCreateRecords')!,
      params: { app_id: 3001, inputs: [{ fields: { name: 'Traced' } }] },
      principal: owner,
      requestId: 'req-traced',
      trace,
    });
    if ('code' in row) throw new Error(row.message);
    await w.until(row.id, (s) => s === 'completed');
    expect(observed).toEqual([
      expect.objectContaining({
        tool: 'records_batchCreateRecords',
        tenant: owner.tenant,
        requestId: 'req-traced',
        trace,
      }),
    ]);
    await w.close();
  });
});
