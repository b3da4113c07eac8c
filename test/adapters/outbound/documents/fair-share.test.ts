import { afterEach, describe, expect, it } from 'vitest';
import { FairSlots } from '../../../../adapters/outbound/documents/fair-slots.js';
import { ParserPool, type ParserPoolOptions } from '../../../../adapters/outbound/documents/parser-pool.js';
import type { ParseTask } from '../../../../adapters/outbound/documents/parse-task.js';
import { E } from '../../../../domain/shared/fp.js';

// Issue 38: one caller kept the document readers full with slow PDFs and another tenant's 1.3 KB page got
// 503. Each tenant now has a share of the readers and of the waiting line, and waiting documents are given
// readers in turn between tenants, so tenant B is served as usual while tenant A is at its limit.

const worker = new URL('../../../support/pool-test-worker.ts', import.meta.url);
const pools: ParserPool[] = [];
const pool = (o: ParserPoolOptions) => {
  const p = new ParserPool({ worker, ...o });
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const task = (op: string, ms?: number) => ({ op, ms }) as unknown as ParseTask;

describe('FairSlots', () => {
  it("refuses past an owner's share of the line, while another owner still gets a slot at once", async () => {
    const slots = new FairSlots({ slots: 2, perOwner: 1, waiting: 10, perOwnerWaiting: 2 });
    const a1 = slots.enter('a');
    expect(a1).toBeInstanceOf(Promise);
    expect(typeof (await a1)).toBe('function');
    const waitingA = [slots.enter('a'), slots.enter('a')];
    expect(waitingA.every((w) => w instanceof Promise)).toBe(true);
    expect(slots.enter('a')).toEqual({ scope: 'owner', limit: 2 });
    const b = slots.enter('b');
    expect(b).toBeInstanceOf(Promise);
    expect(typeof (await b)).toBe('function');
    expect(slots.inUse).toBe(2);
    expect(slots.waitingFor('a')).toBe(2);
  });

  it('keeps the whole line bounded as a backstop', () => {
    const slots = new FairSlots({ slots: 1, perOwner: 1, waiting: 2, perOwnerWaiting: 2 });
    void slots.enter('a');
    void slots.enter('b');
    void slots.enter('c');
    expect(slots.enter('d')).toEqual({ scope: 'all', limit: 2 });
  });

  it('serves the waiting owners in turn, not in the order they came', async () => {
    const slots = new FairSlots({ slots: 1, perOwner: 1, waiting: 10, perOwnerWaiting: 10 });
    const served: string[] = [];
    const first = (await slots.enter('a')) as () => void;
    const queued = ['a', 'a', 'a', 'b', 'c'].map((owner) =>
      (slots.enter(owner) as Promise<(() => void) | undefined>).then((release) => {
        served.push(owner);
        release?.();
      }),
    );
    first();
    await Promise.all(queued);
    expect(served).toEqual(['b', 'c', 'a', 'a', 'a']); // a had the last slot
  });

  it('forgets a waiting request whose signal aborts', async () => {
    const slots = new FairSlots({ slots: 1, perOwner: 1, waiting: 1, perOwnerWaiting: 1 });
    const held = (await slots.enter('a')) as () => void;
    const controller = new AbortController();
    const waiting = slots.enter('b', controller.signal) as Promise<unknown>;
    controller.abort();
    expect(await waiting).toBeUndefined();
    expect(slots.waiting).toBe(0);
    held();
    expect(slots.inUse).toBe(0);
  });
});

describe("the document readers' shares", () => {
  it("serves tenant B at once while tenant A fills its share of readers and line, and refuses A's extra documents by name", async () => {
    const p = pool({ threads: 2, queue: 8 });
    expect([p.perOwnerThreads, p.perOwnerQueue]).toEqual([1, 2]);
    // Both readers started first, so that what is compared below is the order of work, not start-up times.
    await Promise.all([p.run(task('sleep', 50), undefined, 'x'), p.run(task('sleep', 50), undefined, 'y')]);
    expect(p.readers).toBe(2);
    let aRead = 0;
    const a = Array.from({ length: 6 }, () =>
      p.run(task('sleep', 1500), undefined, 'tenant-a').then((r) => {
        if (E.isRight(r)) aRead++;
        return r;
      }),
    );
    const b = await p.run(task('echo'), undefined, 'tenant-b');
    expect(b).toEqual(E.right({ ok: true, value: { op: 'echo' } }));
    // B was read before any of A's slow documents finished.
    expect(aRead).toBe(0);
    const outcomes = await Promise.all(a);
    expect(outcomes.filter(E.isRight)).toHaveLength(3); // one reading, two waiting
    const refused = outcomes.filter(E.isLeft).map((r) => r.left);
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect(r).toMatchObject({ _tag: 'Unavailable', retryAfterSeconds: 2 });
      expect(r.message).toContain('Your workspace has 2 of 2 documents waiting');
    }
  });

  it("gives tenant B the next reader ahead of tenant A's backlog when there is one reader", async () => {
    const p = pool({ threads: 1, queue: 8, perOwnerQueue: 4 });
    const order: string[] = [];
    const run = (owner: string, op: string, ms?: number) =>
      p.run(task(op, ms), undefined, owner).then((r) => {
        order.push(owner);
        return r;
      });
    const a = [run('a', 'sleep', 300), run('a', 'sleep', 300), run('a', 'sleep', 300), run('a', 'sleep', 300)];
    const b = run('b', 'echo');
    expect(E.isRight(await b)).toBe(true);
    await Promise.all(a);
    // B waited for the one document being read, not for A's three waiting behind it.
    expect(order).toEqual(['a', 'b', 'a', 'a', 'a']);
  });
});
