// Throughput and p99 latency of crm_getContact in memory mode, against a bare Hono route and a bare
// node:http server answering the same bytes. Each server runs in its own process under plain node;
// autocannon drives them one after another over loopback.
//
//   npm run bench                      (builds first)
//   BENCH_SECONDS=20 BENCH_CONNECTIONS=100 npm run bench
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import autocannon from 'autocannon';

const root = resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const token = 'bench-token-0123456789';
const path = '/v1/tools/crm/getContact';
const payload = JSON.stringify({ contact_id: '101' });

const start = (script: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; base: string }> =>
  new Promise((ok, fail) => {
    const child = spawn(process.execPath, [script], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) ok({ child, base: m[1]! });
    });
    child.on('exit', (code) => fail(new Error(`${script} exited with ${code}: ${out}`)));
  });

const stop = (child: ChildProcess) =>
  new Promise<void>((ok) => {
    child.removeAllListeners('exit');
    child.on('exit', () => ok());
    child.kill('SIGTERM');
  });

const load = async (base: string) => {
  const opts = {
    url: `${base}${path}`,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: payload,
    connections,
  };
  await autocannon({ ...opts, duration: 2 }); // warm-up
  const r = await autocannon({ ...opts, duration: seconds });
  if (r.non2xx || r.errors) throw new Error(`${base}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
};

const main = async () => {
  const gateway = await start('dist/composition/main.js', {
    PORT: '0',
    GATEWAY_DEMO_TOKEN: token,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const res = await fetch(`${gateway.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: payload,
  });
  const body = await res.text();
  if (res.status !== 200 || !body.includes('Maria Alvarez')) throw new Error(`gateway answered ${res.status}: ${body}`);

  const targets: [string, () => Promise<{ child: ChildProcess; base: string }>][] = [
    [
      'gateway',
      () =>
        start('dist/composition/main.js', {
          PORT: '0',
          GATEWAY_DEMO_TOKEN: token,
          LOG_LEVEL: 'warn',
          RATE_LIMIT_PER_MINUTE: '1000000',
        }),
    ],
    ['bare Hono', () => start('bench/servers/bare-hono.mjs', { BENCH_BODY: body })],
    ['bare node:http', () => start('bench/servers/bare-node.mjs', { BENCH_BODY: body })],
  ];
  await stop(gateway.child);

  const results: Record<string, { rps: number[]; p99: number[] }> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, launch] of targets) {
      const server = await launch();
      const r = await load(server.base);
      await stop(server.child);
      (results[name] ??= { rps: [], p99: [] }).rps.push(r.rps);
      results[name]!.p99.push(r.p99);
      process.stderr.write(`round ${round + 1} ${name}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms\n`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const row = (name: string) => ({ rps: median(results[name]!.rps), p99: median(results[name]!.p99) });
  const g = row('gateway');
  const h = row('bare Hono');
  const n = row('bare node:http');
  console.log(
    `\ncrm_getContact on Node ${process.version} (${process.arch}), ${connections} connections, ${seconds} s per run, median of ${rounds} rounds, response ${Buffer.byteLength(body)} bytes`,
  );
  console.log('| server | req/s | p99 ms |\n|---|---|---|');
  for (const [name, r] of [
    ['gateway', g],
    ['bare Hono', h],
    ['bare node:http', n],
  ] as const)
    console.log(`| ${name} | ${r.rps.toFixed(0)} | ${r.p99} |`);
  console.log(`\ngateway / bare Hono: ${(g.rps / h.rps).toFixed(2)} (target 0.85 or better)`);
  console.log(`bare Hono / node:http: ${(h.rps / n.rps).toFixed(2)}`);
  console.log(`gateway / node:http: ${(g.rps / n.rps).toFixed(2)}`);
};

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
