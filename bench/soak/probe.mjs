// Loaded into the gateway under soak (`node --expose-gc --import ./bench/soak/probe.mjs dist/...`): it
// measures the process from inside and answers the benchmark over the IPC channel. Never part of a build.
//   {"sample": true}  -> RSS, heap and event-loop delay since the last sample (the delay histogram restarts)
//   {"gc": true}      -> two full collections first, then the same sample (the heap that is really held)
//                        and, with SOAK_SNAPSHOTS=<folder>, a heap snapshot there
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { memoryUsage } from 'node:process';
import { writeHeapSnapshot } from 'node:v8';

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

const sample = (afterGc) => {
  const m = memoryUsage();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const out = {
    afterGc,
    rssMb: m.rss / 2 ** 20,
    heapUsedMb: m.heapUsed / 2 ** 20,
    heapTotalMb: m.heapTotal / 2 ** 20,
    externalMb: m.external / 2 ** 20,
    arrayBuffersMb: m.arrayBuffers / 2 ** 20,
    eldP50Ms: ms(delay.percentile(50)),
    eldP99Ms: ms(delay.percentile(99)),
    eldMaxMs: ms(delay.max),
  };
  delay.reset();
  return out;
};

if (process.send) {
  process.on('message', (message) => {
    if (message?.gc && typeof globalThis.gc === 'function') {
      globalThis.gc();
      globalThis.gc();
    }
    // SOAK_SNAPSHOTS=dir: a heap snapshot after each GC, to see what the heap holds (bench/soak/heap-diff.ts).
    if (message?.gc && process.env.SOAK_SNAPSHOTS)
      writeHeapSnapshot(`${process.env.SOAK_SNAPSHOTS}/heap-${Date.now()}.heapsnapshot`);
    process.send({ probe: sample(Boolean(message?.gc)) });
  });
  // The channel must not keep the gateway alive after SIGTERM.
  process.channel?.unref();
}
