import type { MessagePort } from 'node:worker_threads';

// A parser worker for the pool's own tests: tasks that sleep, spin, fill the heap or fill buffers outside
// it, so that the pool's time, heap and memory bounds can be seen to end them. Like the real worker, it says
// when it begins a task (the pool's time limit counts from then); `prepare` is how long it takes first (the
// real worker's loading of a library).

const held: unknown[] = [];

export default async function work(task: {
  op: string;
  ms?: number;
  prepare?: number;
  started?: MessagePort;
}): Promise<unknown> {
  if (task.prepare) await new Promise((r) => setTimeout(r, task.prepare));
  task.started?.postMessage(true);
  task.started?.close();
  const { started: _port, ...seen } = task;
  switch (task.op) {
    case 'echo':
      return { ok: true, value: seen };
    case 'sleep':
      await new Promise((r) => setTimeout(r, task.ms ?? 100));
      return { ok: true, value: 'slept' };
    case 'spin':
      for (;;);
    case 'heap':
      for (;;) held.push(new Array(100_000).fill({ n: held.length }));
    case 'buffers':
      // ArrayBuffers live outside the V8 heap limit: only the pool's watch on the process sees them.
      for (;;) {
        held.push(new Uint8Array(32 * 1024 * 1024).fill(1));
        await new Promise((r) => setTimeout(r, 5));
      }
    case 'refuse':
      return { ok: false, limit: 'html_depth', message: 'too deep' };
    default:
      return { ok: false, message: `unknown op ${task.op}` };
  }
}
