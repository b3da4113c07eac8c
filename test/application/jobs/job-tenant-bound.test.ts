import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayDatabase } from '../../../adapters/outbound/persistence/schema.js';
import type { JobRow, JobStore } from '../../../ports/job-queue.js';
import { postgresForTests } from '../../support/postgres.js';
import { jobWorld, openBackend, someone } from './job-world.js';

// The per-tenant bound of running jobs holds when instances race (issue 40): the bound is counted and the job
// taken in one transaction under the tenant's lock, both where BullMQ hands a job to an instance (take) and
// where instances take jobs from the store themselves (claim). Many tenants, two jobs each, taken at the same
// moment by two instances: exactly one of each tenant's jobs runs. On the embedded SQLite file and PostgreSQL.

const pg = await postgresForTests();
const backends = [
  { kind: 'sqlite' as const, url: undefined },
  ...('url' in pg ? [{ kind: 'postgres' as const, url: pg.url }] : []),
];

const TENANTS = 12;

/** Queues two jobs for each of TENANTS fresh tenants, straight in the store; their ids by tenant. */
const queuePairs = async (store: JobStore): Promise<Map<string, [string, string]>> => {
  const pairs = new Map<string, [string, string]>();
  const now = new Date();
  for (let t = 0; t < TENANTS; t++) {
    const tenant = `race${randomUUID().slice(0, 8)}`;
    const ids: string[] = [];
    for (let j = 0; j < 2; j++) {
      const id = `j${randomUUID().replaceAll('-', '')}`;
      await store.create({
        id,
        tenant,
        owner: 'key:race',
        principal: JSON.stringify({ ...someone(tenant), permissions: ['*'] }),
        tool: 'records_batchCreateRecords',
        params: '{}',
        request_id: `req-${id}`,
        trace: null,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 3_600_000).toISOString(),
      });
      ids.push(id);
    }
    pairs.set(tenant, [ids[0]!, ids[1]!]);
  }
  return pairs;
};

const runningOf = async (store: JobStore, ids: readonly string[]) =>
  (await Promise.all(ids.map((id) => store.get(id)))).filter((r): r is JobRow => r?.status === 'running');

describe.each(backends)('the per-tenant running bound under a race, on $kind', ({ kind, url }) => {
  let db: Kysely<GatewayDatabase>;
  beforeAll(async () => {
    db = await openBackend(kind, url);
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('two instances taking two jobs of a tenant at once (BullMQ hands each one): one runs, the other is busy', async () => {
    const { store } = jobWorld(db);
    const pairs = await queuePairs(store);
    const now = new Date();
    // Every take at once: instance a takes each tenant's first job while instance b takes its second.
    const answers = await Promise.all(
      [...pairs.values()].flatMap(([first, second]) => [
        store.take(first, 'a', now, 1),
        store.take(second, 'b', now, 1),
      ]),
    );
    for (const [tenant, ids] of pairs) {
      const running = await runningOf(store, ids);
      expect(running, tenant).toHaveLength(1);
    }
    expect(answers.filter((a) => a === 'busy')).toHaveLength(TENANTS);
    // A job already running (being resumed after its instance died) is taken whatever the count.
    const [, [first, second]] = [...pairs.entries()][0]!;
    const holder = (await runningOf(store, [first, second]))[0]!;
    expect(await store.take(holder.id, 'c', now, 1)).toMatchObject({ id: holder.id, worker: 'c', attempts: 2 });
  });

  it('two instances claiming from the store at once (no Redis): never two jobs of a tenant', async () => {
    const { store } = jobWorld(db);
    const pairs = await queuePairs(store);
    const ids = [...pairs.values()].flat();
    // Both instances claim until neither gets another job (each claim takes at most one).
    for (;;) {
      const now = new Date();
      const got = await Promise.all([store.claim('a', now, 60_000, 1), store.claim('b', now, 60_000, 1)]);
      if (got.every((g) => g === undefined)) break;
    }
    for (const [tenant, pair] of pairs) expect(await runningOf(store, pair), tenant).toHaveLength(1);
    expect((await runningOf(store, ids)).length).toBe(TENANTS);
  });

  it('two engines racing for one tenant with a bound of 1: its jobs run one at a time, all to the end', async () => {
    const w = jobWorld(db);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    w.records.before = async () => {
      await held;
      return undefined;
    };
    // A store that notes, at each claim, how many of the tenant's jobs are running at once.
    const owner = someone(`race${randomUUID().slice(0, 8)}`);
    const seen: number[] = [];
    const claims = { a: 0, b: 0 };
    const watched = (name: 'a' | 'b'): JobStore =>
      new Proxy(w.store, {
        get: (target, key, receiver) =>
          key === 'claim'
            ? async (...args: Parameters<JobStore['claim']>) => {
                const row = await target.claim(...args);
                claims[name] += 1;
                seen.push(
                  (await w.store.list(owner.tenant, owner.id, 50)).filter((r) => r.status === 'running').length,
                );
                return row;
              }
            : (Reflect.get(target, key, receiver) as unknown),
      });
    const a = w.engine({ worker: 'a', store: watched('a'), perTenantRunning: 1, concurrency: 4, leaseMs: 60_000 });
    const b = w.engine({ worker: 'b', store: watched('b'), perTenantRunning: 1, concurrency: 4, leaseMs: 60_000 });
    a.halt(); // submitted through a halted engine: neither starts until both do, together
    const jobs = await Promise.all(Array.from({ length: 4 }, () => w.submit(a, owner, 2)));
    const a2 = w.engine({ worker: 'a', store: watched('a'), perTenantRunning: 1, concurrency: 4, leaseMs: 60_000 });
    a2.start();
    b.start();
    // Both engines have looked for jobs several times while the first job's writes are held.
    while (claims.a < 5 || claims.b < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    const running = (
      await runningOf(
        w.store,
        jobs.map((j) => j.id),
      )
    ).length;
    expect(running).toBe(1);
    expect(Math.max(...seen)).toBe(1);
    release();
    for (const j of jobs) expect(await w.until(j.id, (s) => s === 'completed')).toMatchObject({ done: 2 });
    expect(Math.max(...seen)).toBe(1);
    await w.close();
  });
});
