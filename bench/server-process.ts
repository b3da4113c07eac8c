import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

// Starting and stopping the servers the benchmarks load: each in its own process on a free loopback port,
// its output (the gateway's log lines) to /dev/null, ready once it answers /healthz.

const root = resolve(import.meta.dirname, '..');

export interface BenchServer {
  readonly child: ChildProcess;
  readonly base: string;
}

/** A port nothing listens on right now. */
const freePort = () =>
  new Promise<number>((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
  });

/**
 * Runs `node [...nodeArgs] <entry>` (behind `prefix`, such as `taskset -c 0`, when given) with `env` added,
 * and waits until it answers HTTP, at most `timeoutMs`.
 */
export const startServer = async (
  entry: string,
  env: Record<string, string> = {},
  o: { nodeArgs?: readonly string[]; prefix?: readonly string[]; timeoutMs?: number } = {},
): Promise<BenchServer> => {
  const port = await freePort();
  const command = [...(o.prefix ?? []), process.execPath, ...(o.nodeArgs ?? []), entry];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (o.timeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(`${entry} exited with ${exited}`);
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.arrayBuffer().then(() => true),
      () => false,
    );
    if (up) return { child, base };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${entry} did not answer on ${base} within ${Math.round((o.timeoutMs ?? 30_000) / 1000)} s`);
};

/** Stops a server gracefully (SIGTERM), so that a profiled gateway writes its profile. */
export const stopServer = (child: ChildProcess) =>
  new Promise<void>((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) return ok();
    child.once('exit', () => ok());
    child.kill('SIGTERM');
  });
