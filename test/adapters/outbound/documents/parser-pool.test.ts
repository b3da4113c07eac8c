import { afterEach, describe, expect, it, vi } from 'vitest';
import { ParserPool, type ParserPoolOptions } from '../../../../adapters/outbound/documents/parser-pool.js';
import type { ParseTask } from '../../../../adapters/outbound/documents/parse-task.js';
import { E } from '../../../../domain/shared/fp.js';

// The pool's bounds, each seen ending real work in a real worker thread: time (a worker spinning in a
// synchronous loop is terminated and replaced), counted from when the worker begins the task, the heap
// limit, the watch on memory outside the heap, the call's own deadline, the bounded queue (503 at once, not
// a wait), and closing.

const worker = new URL('../../../support/pool-test-worker.ts', import.meta.url);
const pools: ParserPool[] = [];
const pool = (o: ParserPoolOptions = {}) => {
  const p = new ParserPool({ worker, threads: 1, queue: 1, ...o });
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** A task of the test worker (its ops are not ParseTasks; the pool passes tasks through as data). */
const task = (op: string, ms?: number, prepare?: number) => ({ op, ms, prepare }) as unknown as ParseTask;

const leftOf = (r: E.Either<unknown, unknown>) => (E.isLeft(r) ? r.left : undefined);

describe('ParserPool', () => {
  it('answers what the worker read', async () => {
    const r = await pool().run(task('echo'));
    expect(r).toEqual(E.right({ ok: true, value: { op: 'echo' } }));
  });

  it('turns a bound the worker reports into TooComplex', async () => {
    expect(leftOf(await pool().run(task('refuse')))).toMatchObject({ _tag: 'TooComplex', limit: 'html_depth' });
  });

  it('terminates a worker stuck in a synchronous loop at the time limit, and the next task gets a new one', async () => {
    const p = pool({ maxTaskMs: 1000 });
    const started = performance.now();
    expect(leftOf(await p.run(task('spin')))).toMatchObject({ _tag: 'TooComplex', limit: 'time' });
    // The limit, plus starting the worker (tsx here), which it does not count.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await p.run(task('echo'))).toEqual(E.right({ ok: true, value: { op: 'echo' } }));
  });

  it("counts the time limit from when the worker begins the task, not the worker's start or what it loads first", async () => {
    // The worker's module takes 1.5 s to load and the task 0.4 s to prepare: both longer than the limit.
    const p = pool({ worker: new URL('../../../support/slow-start-worker.ts', import.meta.url), maxTaskMs: 300 });
    expect(await p.run(task('sleep', 100, 400))).toEqual(E.right({ ok: true, value: 'slept' }));
    // The limit still ends the task itself.
    expect(leftOf(await p.run(task('sleep', 2000)))).toMatchObject({ _tag: 'TooComplex', limit: 'time' });
  });

  it("counts the call's deadline from the call: a worker still starting at the deadline is refused for the call's time", async () => {
    const p = pool({ worker: new URL('../../../support/slow-start-worker.ts', import.meta.url), maxTaskMs: 60_000 });
    const r = await p.run(task('echo'), Date.now() + 300);
    expect(leftOf(r)).toMatchObject({ _tag: 'TooComplex', limit: 'call_time' });
  });

  it("stops at the call's deadline when it comes before the pool's own limit", async () => {
    const p = pool({ maxTaskMs: 60_000 });
    const r = await p.run(task('spin'), Date.now() + 300);
    expect(leftOf(r)).toMatchObject({ _tag: 'TooComplex', limit: 'call_time' });
    // A deadline already past starts nothing.
    expect(leftOf(await p.run(task('echo'), Date.now() - 1))).toMatchObject({ limit: 'call_time' });
  });

  it('ends a worker that passes its heap limit', async () => {
    const r = await pool({ heapMb: 64, maxTaskMs: 30_000 }).run(task('heap'));
    expect(leftOf(r)).toMatchObject({ _tag: 'TooComplex', limit: 'memory' });
  });

  it('ends a task whose buffers outside the heap grow the process past its allowance', async () => {
    const before = process.memoryUsage.rss();
    const r = await pool({ growthMb: 256, maxTaskMs: 30_000 }).run(task('buffers'));
    expect(leftOf(r)).toMatchObject({ _tag: 'TooComplex', limit: 'memory' });
    expect((leftOf(r) as { message: string }).message).toMatch(/256 MiB/);
    // Ended near the allowance, not after filling memory.
    expect(process.memoryUsage.rss() - before).toBeLessThan(1024 * 1024 * 1024);
  });

  it('refuses at once with a retryable Unavailable when every worker is busy and the queue is full', async () => {
    const p = pool({ threads: 1, queue: 1 });
    const settled: string[] = [];
    const running = p.run(task('sleep', 500)).finally(() => settled.push('running'));
    const waiting = p.run(task('sleep', 10)).finally(() => settled.push('waiting'));
    const refused = await p.run(task('echo')).finally(() => settled.push('refused'));
    // Refused at once: before the task ahead of it in the worker (500 ms) could end, not after a wait.
    expect(settled).toEqual(['refused']);
    expect(leftOf(refused)).toMatchObject({ _tag: 'Unavailable', retryAfterSeconds: 2 });
    expect((leftOf(refused) as { message: string }).message).toMatch(/1 reading, 1 waiting/);
    expect(await running).toEqual(E.right({ ok: true, value: 'slept' }));
    expect(await waiting).toEqual(E.right({ ok: true, value: 'slept' }));
    expect(p.busy).toBe(0);
  });

  it('refuses tasks once closed, and ends the ones running', async () => {
    const p = pool({ maxTaskMs: 60_000 });
    const running = p.run(task('spin'));
    await new Promise((r) => setTimeout(r, 200));
    await p.close();
    expect(leftOf(await running)).toMatchObject({ _tag: 'Unavailable' });
    expect(leftOf(await p.run(task('echo')))).toMatchObject({ _tag: 'Unavailable' });
  });

  it('starts no worker until the first task or a warm-up, and keeps the reader for the next task', async () => {
    const p = pool({ threads: 2 });
    expect(p.readers).toBe(0);
    p.warm();
    await vi.waitFor(() => expect(p.readers).toBe(1), { timeout: 10_000 });
    expect(await p.run(task('echo'))).toEqual(E.right({ ok: true, value: { op: 'echo' } }));
    expect(p.readers).toBeGreaterThanOrEqual(1);
  });

  it('warms the real reader: the document libraries load in the worker', async () => {
    const real = new ParserPool({ threads: 1 });
    pools.push(real);
    expect(await real.run({ op: 'warm' })).toEqual(E.right({ ok: true, value: true }));
  });
});
