import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';

// The server entry in a process of its own, as production runs it. GATEWAY_ENTRY=dist/composition/main.js
// runs the build (CI does, after `npm run build`); by default the sources run through tsx.

const root = resolve(import.meta.dirname, '../..');
const entry = process.env['GATEWAY_ENTRY'];
const args = entry ? [entry] : ['--import', 'tsx', 'composition/main.ts'];

export interface ServerProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** The address the server printed, such as http://127.0.0.1:41234. */
  readonly base: string;
  /** Resolves with the exit code once the process ends. */
  readonly exited: Promise<number | null>;
  /** Everything the process wrote so far, stdout and stderr together. */
  output(): string;
}

const withoutDatabase = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => {
  const { DATABASE_URL: _omitted, ...rest } = env;
  return rest;
};

/** Starts the gateway on a free port with `env` added to this process's environment. */
export const startServerProcess = async (
  env: Record<string, string>,
  startTimeoutMs = 30_000,
): Promise<ServerProcess> => {
  const child = spawn(process.execPath, args, {
    cwd: root,
    // The server runs as `npm start` would: memory mode, whatever database the test run itself was given, and
    // a data folder of its own unless the test names one (the checkout's .gateway-data is whatever earlier
    // runs left there: a job store the engine looks into after listening, an encryption key).
    env: {
      ...withoutDatabase(process.env),
      PORT: '0',
      LOG_LEVEL: 'warn',
      GATEWAY_DATA_DIR: mkdtempSync(join(tmpdir(), 'gateway-process-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const base = await new Promise<string>((ok, fail) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearInterval(timer);
        clearTimeout(giveUp);
        ok(m[1]!);
      }
    }, 50);
    const giveUp = setTimeout(() => {
      clearInterval(timer);
      child.kill('SIGKILL');
      fail(new Error(`the server did not start: ${out}`));
    }, startTimeoutMs);
  });
  return { child, base, exited, output: () => out };
};
