// Start-up of the built server: how long `node dist/composition/main.js` (memory mode, the default
// environment) takes from spawn to its first answer of GET /healthz, and its resident set (VmRSS) after it
// has been idle for two seconds. Median, min and max of N starts, against the targets.
//
//   npm run bench:startup                    (builds, then 7 starts; BENCH_STARTS=15 for more)
//   npm run bench:startup -- --check         (exits 1 when the server's fastest start is over 3x a bare Hono
//                                            server's fastest in the same run, or its median idle RSS is
//                                            100 MB or more: issue 39's check, a step of `.ci/run`)
//
// The check compares the fastest start of each, not the medians. Another process on the machine can only
// add to a start (a start waits for a core; it never runs faster than the code allows), so the fastest of
// several alternating starts is the one least disturbed, and it is what the code costs. Medians moved with
// the load here: the same build judged by medians passed 3 of 5 runs at load average 2 (2.2-3.6x), which
// made it useless as a CI step. Both are printed; benchmarks.md has the figures.
//   npm run bench:startup -- --modules       (also: the packages loaded by the main thread at start-up)
//
// `--modules` runs one more start with NODE_DEBUG=module,esm and counts the files each package loaded before
// the server answered (worker threads are included when they start; the document reader's are named
// pdfjs-dist, mammoth, linkedom...). Each start has its own free loopback port; stdout goes to /dev/null.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
/** The built entry (BENCH_ENTRY runs another copy, for an experiment on a build elsewhere). */
const entry = resolve(root, process.env['BENCH_ENTRY'] ?? 'dist/composition/main.js');

const STARTS = Number(process.env['BENCH_STARTS'] ?? 7);
const IDLE_MS = Number(process.env['BENCH_IDLE_MS'] ?? 2000);
/** The bare Hono server (bench/servers/bare-hono.mjs): the start every start is compared with, same run. */
const bareHono = resolve(root, 'bench/servers/bare-hono.mjs');
/** The server's median start may be at most this many times the bare Hono server's (issue 39). */
const READY_FACTOR = 3;
const RSS_TARGET_MB = 100;
/** How often the bench asks /healthz while the server starts. */
const POLL_MS = 5;

const args = new Set(process.argv.slice(2));

const freePort = () =>
  new Promise<number>((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
  });

/** One GET /healthz without a keep-alive agent: true on any HTTP answer of 200. */
const healthy = (port: number, path: string) =>
  new Promise<boolean>((ok) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      // The bare Hono server has no /healthz: any answer (its 404) says it listens.
      res.once('end', () => ok(path === '/' || res.statusCode === 200));
    });
    req.once('error', () => ok(false));
    req.end();
  });

/** VmRSS and VmHWM (the peak) of a process, in MB, from /proc. */
const memory = (pid: number): { rss: number; peak: number } => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};

/** CPU time (user + system, every thread) a process has used, in ms, from /proc. */
const cpuMs = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};

/**
 * The environment of a start: nothing of this shell's gateway settings (REDIS_URL, DATABASE_URL...), and a
 * data folder of its own, empty, as on a fresh machine: in the clone's .gateway-data, a store left by tests
 * would be opened after the start to look for unfinished jobs (composition/jobs.ts), which is not start-up.
 */
const cleanEnv = (port: number, dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env['PATH'] ?? '',
  HOME: process.env['HOME'] ?? '',
  PORT: String(port),
  HOST: '127.0.0.1',
  GATEWAY_DATA_DIR: dataDir,
  ...extra,
});

interface Start {
  readonly readyMs: number;
  readonly readyCpuMs: number;
  readonly rssMb: number;
  readonly peakMb: number;
  readonly stderr: string;
}

const startOnce = async (
  extraEnv: Record<string, string> = {},
  idleMs = IDLE_MS,
  script: string = entry,
): Promise<Start> => {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'startup-bench-'));
  const began = performance.now();
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: cleanEnv(port, dataDir, extraEnv),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => (stderr += s));
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const deadline = began + 30_000;
  let readyMs = NaN;
  let readyCpuMs = NaN;
  while (performance.now() < deadline) {
    if (exited !== undefined) {
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`the server exited with ${exited}: ${stderr.slice(0, 2000)}`);
    }
    if (await healthy(port, script === bareHono ? '/' : '/healthz')) {
      readyMs = performance.now() - began;
      readyCpuMs = cpuMs(child.pid!);
      break;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  if (Number.isNaN(readyMs)) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error('the server did not answer /healthz within 30 s');
  }
  await new Promise((r) => setTimeout(r, idleMs));
  const { rss, peak } = memory(child.pid!);
  await new Promise<void>((ok) => {
    child.once('exit', () => ok());
    child.kill('SIGTERM');
  });
  rmSync(dataDir, { recursive: true, force: true });
  return { readyMs, readyCpuMs, rssMb: rss, peakMb: peak, stderr };
};

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const line = (name: string, xs: readonly number[], unit: string, target?: number) => {
  const m = median(xs);
  const verdict =
    target === undefined
      ? ''
      : m < target
        ? `  (target < ${target.toFixed(0)} ${unit}: met)`
        : `  (target < ${target.toFixed(0)} ${unit}: MISSED)`;
  return `${name.padEnd(22)} median ${m.toFixed(0).padStart(5)} ${unit}   min ${Math.min(...xs)
    .toFixed(0)
    .padStart(5)}   max ${Math.max(...xs)
    .toFixed(0)
    .padStart(5)}${verdict}`;
};

/** Files loaded per package (or project folder) before the server answered, from NODE_DEBUG=module,esm. */
const modulesAtStart = async (): Promise<string> => {
  const { stderr } = await startOnce({ NODE_DEBUG: 'module,esm' }, 0);
  const files = new Set<string>();
  for (const m of stderr.matchAll(/^MODULE \d+: load "([^"]+)"/gm)) files.add(m[1]!);
  for (const m of stderr.matchAll(/^ESM \d+: Translating \w+ file:\/\/(\S+)/gm)) files.add(decodeURI(m[1]!));
  const perPlace = new Map<string, { files: number; bytes: number }>();
  for (const file of files) {
    const at = file.lastIndexOf('/node_modules/');
    let place: string;
    if (at >= 0) {
      const parts = file.slice(at + '/node_modules/'.length).split('/');
      place = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    } else
      place = file.startsWith(root)
        ? `(gateway) ${file
            .slice(root.length + 1)
            .split('/')
            .slice(0, 2)
            .join('/')}`
        : file;
    const entryOf = perPlace.get(place) ?? { files: 0, bytes: 0 };
    entryOf.files++;
    entryOf.bytes += existsSync(file) ? readFileSync(file).length : 0;
    perPlace.set(place, entryOf);
  }
  const top = [...perPlace].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 15);
  return [
    `Loaded before the first answer: ${files.size} files (the 15 largest places by source size)`,
    ...top.map(
      ([place, { files: n, bytes }]) =>
        `  ${place.padEnd(44)} ${String(n).padStart(4)} files ${(bytes / 1024).toFixed(0).padStart(6)} KiB`,
    ),
  ].join('\n');
};

const main = async () => {
  if (!existsSync(entry)) {
    console.error(`${entry} is missing: run \`npm run build\` first (npm run bench:startup does).`);
    process.exit(2);
  }
  // One start of each not counted: it brings the files into the page cache, as a restart on a server would find them.
  await startOnce({}, 0);
  await startOnce({}, 0, bareHono);
  const runs: Start[] = [];
  const bare: Start[] = [];
  // The server's starts and the bare Hono server's alternate, so both see the same load on the machine.
  for (let i = 0; i < STARTS; i++) {
    const run = await startOnce();
    runs.push(run);
    const b = await startOnce({}, IDLE_MS, bareHono);
    bare.push(b);
    console.log(
      `start ${i + 1}/${STARTS}: ready ${run.readyMs.toFixed(0)} ms (CPU ${run.readyCpuMs.toFixed(0)} ms), RSS ${run.rssMb.toFixed(0)} MB after ${IDLE_MS / 1000} s idle (peak ${run.peakMb.toFixed(0)} MB); bare Hono ${b.readyMs.toFixed(0)} ms, ${b.rssMb.toFixed(0)} MB`,
    );
  }
  const ready = runs.map((r) => r.readyMs);
  const rss = runs.map((r) => r.rssMb);
  const bareFastest = Math.min(...bare.map((b) => b.readyMs));
  const readyLimit = READY_FACTOR * bareFastest;
  console.log(`\nnode dist/composition/main.js, memory mode, ${STARTS} starts, Node ${process.versions.node}`);
  console.log(line('ready (spawn->healthz)', ready, 'ms'));
  console.log(
    line(
      'bare Hono ready',
      bare.map((b) => b.readyMs),
      'ms',
    ),
  );
  console.log(
    line(
      'CPU used until ready',
      runs.map((r) => r.readyCpuMs),
      'ms',
    ),
  );
  console.log(line('RSS after idle', rss, 'MB', RSS_TARGET_MB));
  console.log(
    line(
      'bare Hono RSS',
      bare.map((b) => b.rssMb),
      'MB',
    ),
  );
  console.log(
    line(
      'peak RSS',
      runs.map((r) => r.peakMb),
      'MB',
    ),
  );
  const fastest = Math.min(...ready);
  const fastestRatio = fastest / bareFastest;
  console.log(
    `server/bare Hono start, fastest of each: ${fastestRatio.toFixed(2)}x (${fastest.toFixed(0)} / ${bareFastest.toFixed(0)} ms; limit ${READY_FACTOR}x: ${fastest <= readyLimit ? 'met' : 'MISSED'})`,
  );
  console.log(
    `server/bare Hono start, medians:         ${(median(ready) / median(bare.map((b) => b.readyMs))).toFixed(2)}x (shown, not judged: it moves with the machine's load)`,
  );
  if (args.has('--modules')) console.log(`\n${await modulesAtStart()}`);
  const missed = fastest > readyLimit || median(rss) >= RSS_TARGET_MB;
  if (args.has('--check') && missed) {
    console.error(
      `\nStart-up check failed: the server's fastest start must be at most ${READY_FACTOR}x the bare Hono server's fastest (${readyLimit.toFixed(0)} ms) and its median idle RSS under ${RSS_TARGET_MB} MB.`,
    );
    process.exit(1);
  }
};

await main();
