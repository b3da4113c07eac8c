// The built gateway started with the soak probe (bench/soak/probe.mjs) on an IPC channel: `ask(gc)` returns the
// process's RSS, heap and event-loop delay since the last ask, after a full GC when `gc` is true.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

export interface Probe {
  afterGc: boolean;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  eldP50Ms: number;
  eldP99Ms: number;
  eldMaxMs: number;
}

export const startProbed = async (
  entry: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; base: string; ask: (gc: boolean) => Promise<Probe> }> => {
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      // The image's heap limit (Dockerfile: NODE_OPTIONS); SOAK_NODE_ARGS='' runs with V8's own, another value
      // with other flags (e.g. --heap-growing-percent=30), for an experiment.
      ...(process.env.SOAK_NODE_ARGS ?? '--max-old-space-size=384').split(' ').filter(Boolean),
      '--import',
      './bench/soak/probe.mjs',
      resolve(root, entry),
    ],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        ...env,
        ...(process.env.SOAK_SNAPSHOTS ? { SOAK_SNAPSHOTS: process.env.SOAK_SNAPSHOTS } : {}),
      },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  const base = await new Promise<string>((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error('the gateway did not start within 60 s')), 60_000);
    child.once('exit', (code) => fail(new Error(`the gateway exited with ${code}`)));
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (s: string) => {
      if (out === null) return;
      out += s;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]!.replace(/\/$/, ''));
      }
    });
  });
  // From here on the log lines go nowhere, as they would to a collector.
  child.stdout!.removeAllListeners('data');
  child.stdout!.resume();
  const ask = (gc: boolean) =>
    new Promise<Probe>((ok) => {
      child.once('message', (m: { probe: Probe }) => ok(m.probe));
      child.send({ gc, sample: true });
    });
  return { child, base, ask };
};
