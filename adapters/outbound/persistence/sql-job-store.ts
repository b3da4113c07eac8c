import type { Kysely, Transaction } from 'kysely';
import type { ItemOutcome, ItemState, JobRow, JobStatus, JobStore, NewJob } from '../../../ports/job-queue.js';
import type { GatewayDatabase } from './schema.js';

// The jobs and their items in the gateway's database (issue 40): PostgreSQL shared by every instance, or
// the embedded SQLite of a single one. With Redis, BullMQ hands a job to one instance, which records it
// here (take); without Redis, claim takes a job with a conditional UPDATE (compare and set on its status and
// lease) and renew keeps the lease. Both check the tenant's bound of running jobs and change the row in one
// transaction under the tenant's lock (lockTenant). An item is marked started before its write and settled
// after it, and only the first settle of an item counts in the job's progress.

const kysely = () => import('kysely');

/** Rows per INSERT of started items (3 parameters each: well under both databases' parameter limits). */
const INSERT_CHUNK = 300;
/** Jobs looked at per claim. */
const CANDIDATES = 50;
const LIVE: JobStatus[] = ['running', 'cancelling'];

export class SqlJobStore implements JobStore {
  constructor(private readonly db: () => Promise<Kysely<GatewayDatabase>>) {}

  async create(job: NewJob): Promise<void> {
    const db = await this.db();
    await db
      .insertInto('gateway_jobs')
      .values({
        ...job,
        status: 'queued',
        total: null,
        done: 0,
        failed: 0,
        worker: null,
        lease_until: null,
        attempts: 0,
        outcome: null,
        updated_at: job.created_at,
        finished_at: null,
      })
      .execute();
  }

  async get(id: string): Promise<JobRow | undefined> {
    const db = await this.db();
    const row = await db.selectFrom('gateway_jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && rowOf(row);
  }

  async list(tenant: string, owner: string, limit: number): Promise<JobRow[]> {
    const db = await this.db();
    const rows = await db
      .selectFrom('gateway_jobs')
      .selectAll()
      .where('tenant', '=', tenant)
      .where('owner', '=', owner)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map(rowOf);
  }

  async active(tenant: string): Promise<number> {
    const db = await this.db();
    const row = await db
      .selectFrom('gateway_jobs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('tenant', '=', tenant)
      .where('status', 'in', ['queued', ...LIVE])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async claim(worker: string, now: Date, leaseMs: number, perTenant: number): Promise<JobRow | undefined> {
    const db = await this.db();
    const at = now.toISOString();
    const busy = new Map(
      (
        await db
          .selectFrom('gateway_jobs')
          .select((eb) => ['tenant', eb.fn.countAll<number | string>().as('n')])
          .where('status', 'in', LIVE)
          .where('lease_until', '>', at)
          .groupBy('tenant')
          .execute()
      ).map((r) => [r.tenant, Number(r.n)]),
    );
    const candidates = await db
      .selectFrom('gateway_jobs')
      .selectAll()
      .where((eb) =>
        eb.or([eb('status', '=', 'queued'), eb.and([eb('status', 'in', LIVE), eb('lease_until', '<=', at)])]),
      )
      .orderBy('created_at')
      .limit(CANDIDATES)
      .execute();
    // The least busy tenant first (a fair share of this instance's workers); none past its bound. The counts
    // above only order the candidates: the bound is checked again under the tenant's lock as each is taken.
    const order = candidates
      .map((c, i) => ({ c, i, load: busy.get(c.tenant) ?? 0 }))
      .filter((x) => x.load < perTenant)
      .sort((a, b) => a.load - b.load || a.i - b.i);
    const until = new Date(now.getTime() + leaseMs).toISOString();
    for (const { c } of order) {
      const taken = await db.transaction().execute(async (trx) => {
        await lockTenant(trx, c.tenant);
        if ((await liveJobs(trx, c.tenant, c.id, at)) >= perTenant) return false;
        const status = c.status === 'cancelling' ? 'cancelling' : 'running';
        let update = trx
          .updateTable('gateway_jobs')
          .set({ worker, lease_until: until, status, attempts: c.attempts + 1, updated_at: at })
          .where('id', '=', c.id)
          .where('status', '=', c.status)
          .where('attempts', '=', c.attempts);
        update =
          c.lease_until === null
            ? update.where('lease_until', 'is', null)
            : update.where('lease_until', '=', c.lease_until);
        return Number((await update.executeTakeFirst()).numUpdatedRows) === 1;
      });
      if (taken) {
        const status = c.status === 'cancelling' ? 'cancelling' : 'running';
        return rowOf({ ...c, worker, lease_until: until, status, attempts: c.attempts + 1, updated_at: at });
      }
    }
    return undefined;
  }

  async take(id: string, worker: string, now: Date, perTenant: number): Promise<JobRow | 'busy' | undefined> {
    const db = await this.db();
    const { sql } = await kysely();
    const outcome = await db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom('gateway_jobs').select('tenant').where('id', '=', id).executeTakeFirst();
      if (!found) return undefined;
      await lockTenant(trx, found.tenant);
      // Read again under the lock: another instance may have taken or ended the job meanwhile.
      const row = await trx.selectFrom('gateway_jobs').select('status').where('id', '=', id).executeTakeFirst();
      if (!row || !['queued', ...LIVE].includes(row.status)) return undefined;
      if (row.status === 'queued') {
        if ((await liveJobs(trx, found.tenant, id)) >= perTenant) return 'busy' as const;
      }
      await trx
        .updateTable('gateway_jobs')
        .set({
          worker,
          status: sql<JobStatus>`case when status = 'queued' then 'running' else status end`,
          attempts: sql<number>`attempts + 1`,
          lease_until: null,
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .execute();
      return 'taken' as const;
    });
    return outcome === 'taken' ? this.get(id) : outcome;
  }

  async unfinished(): Promise<number> {
    const db = await this.db();
    const row = await db
      .selectFrom('gateway_jobs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', 'in', ['queued', ...LIVE])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async strayed(queuedBefore: Date, now: Date, limit: number): Promise<string[]> {
    const db = await this.db();
    const rows = await db
      .selectFrom('gateway_jobs')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('created_at', '<', queuedBefore.toISOString())]),
          eb.and([eb('status', 'in', LIVE), eb('lease_until', '<', now.toISOString())]),
        ]),
      )
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  async renew(id: string, worker: string, until: Date): Promise<JobStatus | undefined> {
    const db = await this.db();
    const r = await db
      .updateTable('gateway_jobs')
      .set({ lease_until: until.toISOString() })
      .where('id', '=', id)
      .where('worker', '=', worker)
      .where('status', 'in', LIVE)
      .returning('status')
      .executeTakeFirst();
    return r?.status as JobStatus | undefined;
  }

  async setTotal(id: string, total: number): Promise<void> {
    const db = await this.db();
    await db.updateTable('gateway_jobs').set({ total }).where('id', '=', id).execute();
  }

  async start(id: string, indexes: readonly number[]): Promise<void> {
    const db = await this.db();
    for (let i = 0; i < indexes.length; i += INSERT_CHUNK) {
      const rows = indexes
        .slice(i, i + INSERT_CHUNK)
        .map((idx) => ({ job_id: id, idx, settled: 0, success: null, outcome: null }));
      await db
        .insertInto('gateway_job_items')
        .values(rows)
        .onConflict((oc) => oc.columns(['job_id', 'idx']).doNothing())
        .execute();
    }
  }

  async settle(id: string, outcomes: readonly ItemOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const db = await this.db();
    const { sql } = await kysely();
    // One transaction (one commit) for a chunk's outcomes; each counts once, at its first settle.
    await db.transaction().execute(async (trx) => {
      let done = 0;
      let failed = 0;
      for (const outcome of outcomes) {
        const values = { settled: 1, success: outcome.success ? 1 : 0, outcome: JSON.stringify(outcome) };
        const updated = await trx
          .updateTable('gateway_job_items')
          .set(values)
          .where('job_id', '=', id)
          .where('idx', '=', outcome.index)
          .where('settled', '=', 0)
          .executeTakeFirst();
        let counts = Number(updated.numUpdatedRows) === 1;
        if (!counts) {
          const inserted = await trx
            .insertInto('gateway_job_items')
            .values({ job_id: id, idx: outcome.index, ...values })
            .onConflict((oc) => oc.columns(['job_id', 'idx']).doNothing())
            .executeTakeFirst();
          counts = Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
        }
        if (counts) {
          done += 1;
          if (!outcome.success) failed += 1;
        }
      }
      if (done > 0)
        await trx
          .updateTable('gateway_jobs')
          .set({ done: sql`done + ${done}`, failed: sql`failed + ${failed}`, updated_at: new Date().toISOString() })
          .where('id', '=', id)
          .execute();
    });
  }

  async states(id: string): Promise<Map<number, ItemState>> {
    const db = await this.db();
    const rows = await db
      .selectFrom('gateway_job_items')
      .select(['idx', 'settled', 'outcome'])
      .where('job_id', '=', id)
      .execute();
    return new Map(
      rows.map((r): [number, ItemState] => [
        Number(r.idx),
        Number(r.settled) === 1 && r.outcome !== null
          ? { state: 'settled', outcome: JSON.parse(r.outcome) as ItemOutcome }
          : { state: 'started' },
      ]),
    );
  }

  async outcomes(id: string, offset: number, limit: number, failedOnly: boolean): Promise<ItemOutcome[]> {
    const db = await this.db();
    let q = db
      .selectFrom('gateway_job_items')
      .select('outcome')
      .where('job_id', '=', id)
      .where('settled', '=', 1)
      .orderBy('idx')
      .limit(limit)
      .offset(offset);
    if (failedOnly) q = q.where('success', '=', 0);
    return (await q.execute()).map((r) => JSON.parse(r.outcome ?? '{}') as ItemOutcome);
  }

  async finish(
    id: string,
    worker: string,
    status: JobStatus,
    outcome: string,
    at: Date,
    expiresAt: Date,
  ): Promise<boolean> {
    const db = await this.db();
    const when = at.toISOString();
    const r = await db
      .updateTable('gateway_jobs')
      .set({
        status,
        outcome,
        finished_at: when,
        updated_at: when,
        lease_until: null,
        expires_at: expiresAt.toISOString(),
      })
      .where('id', '=', id)
      .where('worker', '=', worker)
      .where('status', 'in', LIVE)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async cancel(id: string, at: Date, expiresAt: Date): Promise<JobRow | undefined> {
    const db = await this.db();
    const when = at.toISOString();
    await db
      .updateTable('gateway_jobs')
      .set({
        status: 'cancelled',
        finished_at: when,
        updated_at: when,
        expires_at: expiresAt.toISOString(),
        outcome: '{"cancelled":"before it started"}',
      })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .execute();
    await db
      .updateTable('gateway_jobs')
      .set({ status: 'cancelling', updated_at: when })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
    return this.get(id);
  }

  async purge(now: Date, limit: number): Promise<number> {
    const db = await this.db();
    const ids = (
      await db
        .selectFrom('gateway_jobs')
        .select('id')
        .where('expires_at', '<', now.toISOString())
        .limit(limit)
        .execute()
    ).map((r) => r.id);
    if (ids.length === 0) return 0;
    await db.deleteFrom('gateway_job_items').where('job_id', 'in', ids).execute();
    await db.deleteFrom('gateway_jobs').where('id', 'in', ids).execute();
    return ids.length;
  }
}

/**
 * Holds the tenant's jobs not finished until the transaction ends (an UPDATE that changes nothing, on both
 * databases: PostgreSQL locks each row it updates, SQLite the whole file). A job becomes running only under
 * this lock, and the rows it locks include the job being taken and any other being taken at the same moment
 * (both are not finished), so a second taker waits for the first to commit, and then counts its job.
 */
/** A tenant's running jobs other than `except` (with a lease past `leasedAfter` when given), under its lock. */
const liveJobs = async (
  trx: Transaction<GatewayDatabase>,
  tenant: string,
  except: string,
  leasedAfter?: string,
): Promise<number> => {
  let query = trx
    .selectFrom('gateway_jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('tenant', '=', tenant)
    .where('status', 'in', LIVE)
    .where('id', '!=', except);
  if (leasedAfter !== undefined) query = query.where('lease_until', '>', leasedAfter);
  return Number((await query.executeTakeFirst())?.n ?? 0);
};

const lockTenant = async (trx: Transaction<GatewayDatabase>, tenant: string): Promise<void> => {
  await trx
    .updateTable('gateway_jobs')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('tenant', '=', tenant)
    .where('status', 'in', ['queued', ...LIVE])
    .execute();
};

const rowOf = (
  r: Omit<JobRow, 'status' | 'total' | 'done' | 'failed' | 'attempts'> & Record<string, unknown>,
): JobRow =>
  ({
    ...r,
    total: r['total'] === null ? null : Number(r['total']),
    done: Number(r['done']),
    failed: Number(r['failed']),
    attempts: Number(r['attempts']),
  }) as JobRow;
