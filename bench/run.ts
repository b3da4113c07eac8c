// Throughput and p99 latency of crm_getContact in memory mode, against a bare Hono route and a bare
// node:http server answering the same bytes. Each server runs in its own process under plain node;
// autocannon drives them one after another over loopback. The gateway runs with every feature on (auth,
// rate limit, metrics, output budget, time limit) and logs at info to /dev/null, so logging is counted.
//
//   npm run bench                      (builds first)
//   BENCH_SECONDS=20 BENCH_CONNECTIONS=100 BENCH_ROUNDS=5 npm run bench
//   npm run bench -- --profile         (the gateway runs under --cpu-prof; profiles go to bench/results/)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { formatSummary, readProfile } from './profile-summary.js';
import { startServer, stopServer, type BenchServer } from './server-process.js';

const root = resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const profile = process.argv.includes('--profile');
const results = join(root, 'bench', 'results');
const token = 'bench-token-0123456789';
const path = '/v1/tools/crm/getContact';
const payload = JSON.stringify({ contact_id: '101' });

const gatewayEnv = {
  GATEWAY_DEMO_TOKEN: token,
  LOG_LEVEL: 'info',
  RATE_LIMIT_PER_MINUTE: '1000000',
};

type Server = BenchServer;
// With taskset (Linux), each server runs on core 0 and this process (autocannon) on core 1, so that the
// load generator and the server never take turns on one core: without it, time the server spends waiting
// for the core shows up in its profile as time in writev.
const pinned = spawnSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' }).status === 0;
const start = (script: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Server> =>
  startServer(script, env, { nodeArgs, prefix: pinned ? ['taskset', '-c', '0'] : [] });
const stop = stopServer;

/** CPU seconds a process has used (user + system), where /proc tells (Linux); undefined elsewhere. */
const cpuSeconds = (pid: number | undefined): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime, in ticks of 1/100 s
  } catch {
    return undefined;
  }
};

const load = async (base: string, pid: number | undefined) => {
  const opts = {
    url: `${base}${path}`,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: payload,
    connections,
  };
  await autocannon({ ...opts, duration: 2 }); // warm-up
  const cpuBefore = cpuSeconds(pid);
  const r = await autocannon({ ...opts, duration: seconds });
  const cpuAfter = cpuSeconds(pid);
  if (r.non2xx || r.errors) throw new Error(`${base}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  // Server CPU time per answer: steadier than req/s when other work shares the machine.
  const cpuMicros =
    cpuBefore !== undefined && cpuAfter !== undefined && r.requests.total
      ? ((cpuAfter - cpuBefore) * 1e6) / r.requests.total
      : undefined;
  return { rps: r.requests.average, p99: r.latency.p99, cpuMicros };
};

const profilesSince = (since: number): string[] =>
  readdirSync(results)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(results, f))
    .filter((f) => statSync(f).mtimeMs >= since);

const main = async () => {
  const first = await start('dist/composition/main.js', gatewayEnv);
  const res = await fetch(`${first.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: payload,
  });
  const body = await res.text();
  await stop(first.child);
  if (res.status !== 200 || !body.includes('Maria Alvarez')) throw new Error(`gateway answered ${res.status}: ${body}`);

  if (profile) mkdirSync(results, { recursive: true });
  const profiledSince = Date.now();
  const profilerArgs = profile ? ['--cpu-prof', '--cpu-prof-dir', results] : [];
  const targets: [string, () => Promise<Server>][] = [
    ['gateway', () => start('dist/composition/main.js', gatewayEnv, profilerArgs)],
    ['bare Hono', () => start('bench/servers/bare-hono.mjs', { BENCH_BODY: body })],
    ['bare node:http', () => start('bench/servers/bare-node.mjs', { BENCH_BODY: body })],
  ];

  const measured: Record<string, { rps: number[]; p99: number[]; cpu: number[] }> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, launch] of targets) {
      const server = await launch();
      const r = await load(server.base, server.child.pid);
      await stop(server.child);
      const m = (measured[name] ??= { rps: [], p99: [], cpu: [] });
      m.rps.push(r.rps);
      m.p99.push(r.p99);
      if (r.cpuMicros !== undefined) m.cpu.push(r.cpuMicros);
      const cpu = r.cpuMicros === undefined ? '' : `, ${r.cpuMicros.toFixed(0)} µs CPU per answer`;
      process.stderr.write(`round ${round + 1} ${name}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms${cpu}\n`);
    }
  }
  const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : NaN);
  const row = (name: string) => {
    const m = measured[name]!;
    return { rps: median(m.rps), p99: median(m.p99), cpu: median(m.cpu) };
  };
  const g = row('gateway');
  const h = row('bare Hono');
  const n = row('bare node:http');
  console.log(
    `\ncrm_getContact on Node ${process.version} (${process.arch}), ${connections} connections, ${seconds} s per run, median of ${rounds} rounds, response ${Buffer.byteLength(body)} bytes`,
  );
  console.log('| server | req/s | p99 ms | server CPU µs per answer |\n|---|---|---|---|');
  for (const [name, r] of [
    ['gateway', g],
    ['bare Hono', h],
    ['bare node:http', n],
  ] as const)
    console.log(`| ${name} | ${r.rps.toFixed(0)} | ${r.p99} | ${Number.isNaN(r.cpu) ? 'n/a' : r.cpu.toFixed(0)} |`);
  console.log(
    `\ngateway / bare Hono: ${(g.rps / h.rps).toFixed(2)} (target 0.6 or better)${profile ? ' (profiled: the profiler slows the gateway a little)' : ''}`,
  );
  console.log(`bare Hono / node:http: ${(h.rps / n.rps).toFixed(2)}`);
  console.log(`gateway / node:http: ${(g.rps / n.rps).toFixed(2)}`);

  if (profile) {
    const files = profilesSince(profiledSince);
    console.log(`\nCPU profiles of the gateway (${files.length}): ${files.join(', ')}\n`);
    console.log(formatSummary(files.map(readProfile)));
  }
};

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
