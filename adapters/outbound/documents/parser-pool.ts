import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { tooComplex, unavailable, type GatewayError } from '../../../domain/shared/errors.js';
import { E } from '../../../domain/shared/fp.js';
import { FairSlots, type Release, type SlotRefusal } from './fair-slots.js';
import type { ParseOutcome, ParseRead, ParseTask, ResultOf, Started } from './parse-task.js';

// Every parser of untrusted bytes (HTML, PDF, Word, and whatever comes next) runs here, in worker threads
// (piscina), never on the event loop. Each task is bounded:
// - in time: DOCUMENT_READ_TIMEOUT_MS from when a worker begins the task (the worker says so once the
//   libraries the task needs are loaded, so starting a reader is not counted), and the call's own deadline,
//   whichever ends first; at the limit its worker is terminated (a worker stuck in a synchronous loop stops
//   too) and replaced;
// - in heap: each worker runs with a V8 heap limit (resourceLimits), and dies alone when it passes it;
// - in off-heap memory: ArrayBuffers are outside that limit, so while tasks run the process's resident size
//   is sampled, and tasks are ended when it grows past their allowance (a decoder filling a buffer);
// - in waiting: at most `queue` tasks wait for a worker; past that a call is refused at once with a
//   retryable 503 rather than queued without end;
// - per owner (the tenant a task is read for): at most `perOwnerThreads` of the workers and
//   `perOwnerQueue` of the waiting places, and waiting tasks are given workers round-robin between owners
//   (fair-slots.ts), so one tenant's backlog of slow documents neither fills the pool nor delays another
//   tenant's document by more than one task in turn.
// Concurrency follows the cores, at a lower scheduling priority than the event loop. Nothing starts with the
// gateway: piscina itself is loaded, and a worker started, on the first task; workers leave after a minute
// idle, so the document libraries cost nothing at start-up, nothing on the main thread, and nothing once
// documents stop coming.

export interface ParserPoolOptions {
  /** Workers (default: the cores available). */
  readonly threads?: number;
  /** Tasks that may wait for a worker (default: 4 per worker). */
  readonly queue?: number;
  /** Longest one document may take, whatever time its call has left (default 20 s). */
  readonly maxTaskMs?: number;
  /** A worker's V8 heap limit in MiB (default 512). */
  readonly heapMb?: number;
  /** How much the process may grow per running task before the tasks are ended (default 768 MiB). */
  readonly growthMb?: number;
  /** Workers one owner (tenant) may hold at once (default: half the workers, at least one). */
  readonly perOwnerThreads?: number;
  /** Tasks one owner may have waiting (default: a quarter of the queue, at least one). */
  readonly perOwnerQueue?: number;
  /** The worker's module (tests give their own); by default parse-worker beside this file. */
  readonly worker?: URL;
}

const MiB = 1024 * 1024;
/** How often the resident size is sampled while tasks run. */
const SAMPLE_MS = 50;
/** How long a reader with nothing to do stays (its libraries loaded) before it leaves. */
const IDLE_MS = 60_000;

interface Running {
  readonly controller: AbortController;
  stopped?: 'time' | 'call_time' | 'memory';
  /** Given a worker (past the fair waiting line). */
  inWorker?: boolean;
}

/** The owner of tasks run without one (warming, callers that name no tenant). */
export const NO_OWNER = '';

/** The module each worker loads: the compiled .js when built, the .ts source (through tsx) in development. */
const defaultWorker = (): { url: URL; execArgv: string[] } => {
  const source = import.meta.url.endsWith('.ts');
  return {
    url: new URL(`./parse-worker.${source ? 'ts' : 'js'}`, import.meta.url),
    execArgv: source ? ['--import', 'tsx'] : [],
  };
};

export class ParserPool {
  readonly threads: number;
  readonly queue: number;
  readonly maxTaskMs: number;
  readonly heapMb: number;
  readonly growthMb: number;
  readonly perOwnerThreads: number;
  readonly perOwnerQueue: number;
  readonly #slots: FairSlots;
  #pool: Promise<Piscina> | undefined;
  #piscina: Piscina | undefined;
  #closed = false;
  readonly #running = new Set<Running>();
  #sampler: NodeJS.Timeout | undefined;
  #baseline = 0;

  constructor(private readonly o: ParserPoolOptions = {}) {
    this.threads = Math.max(1, o.threads ?? availableParallelism());
    this.queue = Math.max(0, o.queue ?? this.threads * 4);
    this.maxTaskMs = o.maxTaskMs ?? 20_000;
    this.heapMb = o.heapMb ?? 512;
    this.growthMb = o.growthMb ?? 768;
    this.perOwnerThreads = Math.min(this.threads, Math.max(1, o.perOwnerThreads ?? Math.floor(this.threads / 2)));
    this.perOwnerQueue = Math.min(this.queue, Math.max(1, o.perOwnerQueue ?? Math.floor(this.queue / 4)));
    this.#slots = new FairSlots({
      slots: this.threads,
      perOwner: this.perOwnerThreads,
      waiting: this.queue,
      perOwnerWaiting: this.perOwnerQueue,
    });
  }

  /** Reader threads started now. */
  get readers(): number {
    return this.#piscina?.threads.length ?? 0;
  }

  /** Tasks running or waiting now. */
  get busy(): number {
    return this.#running.size;
  }

  /**
   * Runs a task within the bounds. Left: the pool is full or closed (Unavailable, retryable) or the document
   * passed a bound (TooComplex: depth, size, time, memory). Right: what the worker read, or why the bytes
   * could not be read as their type says. `owner` (the tenant the document is read for) has its share of the
   * workers and of the waiting places.
   */
  async run<T extends ParseTask>(
    task: T,
    deadline?: number,
    owner: string = NO_OWNER,
  ): Promise<E.Either<GatewayError, ParseRead<ResultOf<T>>>> {
    if (this.#closed) return E.left(unavailable('The gateway is shutting down; retry on another instance.', 1));
    const callLeft = deadline === undefined ? Infinity : deadline - Date.now();
    if (callLeft <= 0) return E.left(timedOut(0, true));
    const running: Running = { controller: new AbortController() };
    const slot = this.#slots.enter(owner, running.controller.signal);
    if (!(slot instanceof Promise)) return E.left(this.#busy(slot));
    const stop = (why: NonNullable<Running['stopped']>) => {
      running.stopped ??= why;
      running.controller.abort();
    };
    if (this.#running.size === 0) this.#watch();
    this.#running.add(running);
    // The call's deadline counts from now; the document's own limit from when a worker begins the task
    // (after waiting for a worker, starting one, and loading what the task needs), which the worker tells
    // through this channel.
    const callTimer = callLeft < Infinity ? setTimeout(() => stop('call_time'), callLeft) : undefined;
    let taskTimer: NodeJS.Timeout | undefined;
    const { port1: began, port2: started } = new MessageChannel();
    began.once('message', () => (taskTimer = setTimeout(() => stop('time'), this.maxTaskMs)));
    began.unref();
    let release: Release | undefined;
    try {
      release = await slot;
      if (!release) throw new Error('ended while waiting for a reader');
      running.inWorker = true;
      const pool = await this.#start();
      const outcome = (await pool.run({ ...task, started } satisfies ParseTask & Started, {
        signal: running.controller.signal,
        transferList: [started],
      })) as ParseOutcome<ResultOf<T>>;
      if (outcome.ok) return E.right({ ok: true, value: outcome.value });
      if (outcome.limit === undefined) return E.right({ ok: false, message: outcome.message });
      return E.left(tooComplex(`This document is too complex to read: ${outcome.message}.`, outcome.limit));
    } catch (error) {
      if (running.stopped === 'call_time') return E.left(timedOut(callLeft, true));
      if (running.stopped === 'time') return E.left(timedOut(this.maxTaskMs, false));
      if (running.stopped === 'memory' || (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY')
        return E.left(
          tooComplex(
            `This document is too complex to read: reading it needed more than the ${running.stopped === 'memory' ? this.growthMb : this.heapMb} MiB a document may use.`,
            'memory',
          ),
        );
      if (/queue is at limit/i.test((error as Error).message))
        return E.left(
          unavailable(`The gateway's document readers are all busy; nothing was read. Retry in a few seconds.`, 2),
        );
      if (this.#closed) return E.left(unavailable('The gateway is shutting down; retry on another instance.', 1));
      throw error;
    } finally {
      clearTimeout(callTimer);
      clearTimeout(taskTimer);
      release?.();
      began.close();
      this.#running.delete(running);
      if (this.#running.size === 0) this.#unwatch();
    }
  }

  /** The refusal of a task for which no waiting place is left: the owner's share, or the whole line. */
  #busy(refusal: SlotRefusal): GatewayError {
    const reading = `${this.threads} reader${this.threads === 1 ? '' : 's'}`;
    return refusal.scope === 'owner'
      ? unavailable(
          `Your workspace has ${refusal.limit} of ${refusal.limit} documents waiting for the gateway's document readers (the most one workspace may have waiting; it may use ${this.perOwnerThreads} of the ${reading} at once); nothing was read. Retry in a few seconds, once one of them is read.`,
          2,
        )
      : unavailable(
          `The gateway's document readers are all busy (${this.threads} reading, ${refusal.limit} waiting); nothing was read. Retry in a few seconds.`,
          2,
        );
  }

  /**
   * Starts a reader and loads the document libraries in it, off the event loop, so that the first document
   * read does not wait for them. Optional: the server does not (the reader's start is not counted against a
   * document's time limit, and an idle server stays small); it leaves after a minute idle like any other.
   */
  warm(): void {
    if (this.#closed) return;
    void this.run({ op: 'warm' }).catch(() => undefined);
  }

  /** Ends every worker; tasks still running are refused as Unavailable. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#unwatch();
    for (const r of this.#running) r.controller.abort();
    const pool = await this.#pool?.catch(() => undefined);
    await pool?.destroy();
  }

  /** The workers' pool, made on first use (piscina loaded then); it starts workers as tasks come. */
  #start(): Promise<Piscina> {
    return (this.#pool ??= this.#create());
  }

  async #create(): Promise<Piscina> {
    const { Piscina: Pool } = await import('piscina');
    const fallback = defaultWorker();
    this.#piscina = new Pool({
      filename: (this.o.worker ?? fallback.url).href,
      execArgv: this.o.worker ? (import.meta.url.endsWith('.ts') ? ['--import', 'tsx'] : []) : fallback.execArgv,
      // No reader waits for work: each starts with a task and leaves after a minute without one.
      minThreads: 0,
      maxThreads: this.threads,
      // Piscina's own queue is a second guard; the count above refuses first, with a clearer answer.
      maxQueue: this.queue + this.threads,
      idleTimeout: IDLE_MS,
      concurrentTasksPerWorker: 1,
      // Readers run at a lower priority than the event loop's thread (nice +10, per thread on Linux), so a
      // core kept busy reading still lets the loop answer at once.
      niceIncrement: 10,
      // A young generation of 64 MiB: extraction allocates fast and briefly, and with V8's default for workers an
      // article read 1.3x slower than on the main thread (1.1x with 64, 1.05x with 128; bench/web-page.ts).
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
    });
    return this.#piscina;
  }

  /** Samples the resident size while tasks run; past the allowance the tasks in workers are ended. */
  #watch(): void {
    const rss = () => process.memoryUsage.rss();
    this.#baseline = rss();
    this.#sampler = setInterval(() => {
      const allowance = this.growthMb * MiB * Math.max(1, Math.min(this.#running.size, this.threads));
      if (rss() - this.#baseline <= allowance) return;
      // Only the tasks given a worker hold memory; the rest are still waiting.
      for (const r of this.#running) {
        if (!r.inWorker) continue;
        r.stopped = 'memory';
        r.controller.abort();
      }
    }, SAMPLE_MS);
    this.#sampler.unref();
  }

  #unwatch(): void {
    if (this.#sampler) clearInterval(this.#sampler);
    this.#sampler = undefined;
  }
}

const seconds = (ms: number) => (ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000)));

const timedOut = (ms: number, callTime: boolean): GatewayError =>
  tooComplex(
    callTime
      ? `This document could not be read in the time the call had left (${seconds(ms)} s).`
      : `This document is too complex to read: reading it took longer than ${seconds(ms)} s.`,
    callTime ? 'call_time' : 'time',
  );
