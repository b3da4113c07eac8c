// The hot paths side by side (issue 28): crm_getContact over REST on the built gateway against bare Hono
// answering the same bytes, and MCP tools/call of the same tool, in both protocol eras the gateway serves
// (2025-11-25 after initialize, stateless; 2026-07-28 with the per-request envelope and standard headers),
// against a bare official-SDK v2 server answering the same result (bench/servers/bare-mcp-sdk.mjs).
//
// Every server is its own process pinned to core 1 (`taskset -c 1 node ...`), this process (autocannon, the
// load generator) to core 0; all of them stay up for the whole run and the rounds interleave (gateway, bare,
// gateway, bare ...), so that a slow minute of the VM falls on both. Per server: answers/s and the server's
// CPU time per answer (utime + stime from /proc/<pid>/stat over the round, divided by the answers), which is
// steadier than answers/s when something else shares the machine. The gateway runs in memory mode with
// every feature on (auth, rate limit, metrics, output budget, time limit, logging at info to /dev/null).
//
//   npm run bench:hot-paths                         (builds first)
//   BENCH_SECONDS=5 BENCH_ROUNDS=5 BENCH_CONNECTIONS=50 npx tsx bench/hot-paths.ts   (the current build)
//   BENCH_ONLY=rest|mcp npx tsx bench/hot-paths.ts  (one pair, or the two MCP pairs)
//   BENCH_PROFILE=1 ...                             (the gateway under --cpu-prof, profiles to bench/results/)
//   BENCH_PROFILE=all ...                           (every server, each in bench/results/<server>/)
//   BENCH_GATEWAY_ENV='{"LOG_LEVEL":"warn"}' ...    (the gateway with other settings, to see what a feature costs)
//   BENCH_SDK_SERVER=low-level ...                  (the bare SDK server on the low-level Server, see its file)
//   BENCH_BASELINE=/elsewhere/dist/composition/main.js ...   (another build of the gateway in the same rounds,
//                                                  for a before/after taken under the same conditions)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { startServer, stopServer, type BenchServer } from './server-process.js';

const root = resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const warmSeconds = Number(process.env.BENCH_WARM_SECONDS ?? 2);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const only = process.env.BENCH_ONLY;
const profile = process.env.BENCH_PROFILE === '1' || process.env.BENCH_PROFILE === 'all';
const profileAll = process.env.BENCH_PROFILE === 'all';
const token = 'bench-token-0123456789';
const args = { contact_id: '101' };

const gatewayEntry = process.env.GATEWAY_ENTRY ?? 'dist/composition/main.js';
const baselineEntry = process.env.BENCH_BASELINE;
const gatewayEnv: Record<string, string> = {
  GATEWAY_DEMO_TOKEN: token,
  LOG_LEVEL: 'info',
  RATE_LIMIT_PER_MINUTE: '1000000',
  // Experiments: switch a feature off to see what it costs, e.g. BENCH_GATEWAY_ENV='{"LOG_LEVEL":"warn"}'.
  ...(JSON.parse(process.env.BENCH_GATEWAY_ENV ?? '{}') as Record<string, string>),
};

// Core 0 for the load generator, core 1 for the servers (where taskset exists and there are two cores).
const pinned = spawnSync('taskset', ['-cp', '0', String(process.pid)], { stdio: 'ignore' }).status === 0;
const start = (entry: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<BenchServer> =>
  startServer(entry, env, { nodeArgs, prefix: pinned ? ['taskset', '-c', '1'] : [], timeoutMs: 60_000 });

/** CPU seconds a process has used (utime + stime, in ticks of 1/100 s), where /proc tells. */
const cpuSeconds = (pid: number | undefined): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
};

interface Request {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const json = { 'content-type': 'application/json' };
const bearer = { authorization: `Bearer ${token}` };
const mcpAccept = { accept: 'application/json, text/event-stream' };
const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const rpc = (params: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });

const rest: Request = { path: '/v1/tools/crm/getContact', headers: { ...bearer, ...json }, body: JSON.stringify(args) };
/** A 2025-11-25 client after initialize, stateless: the version header, no session id. */
const legacy: Request = {
  path: '/mcp',
  headers: { ...bearer, ...json, ...mcpAccept, 'mcp-protocol-version': '2025-11-25' },
  body: rpc({ name: 'crm_getContact', arguments: args }),
};
/** A 2026-07-28 client: the envelope in `_meta` and the standard headers. */
const modern: Request = {
  path: '/mcp',
  headers: {
    ...bearer,
    ...json,
    ...mcpAccept,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'crm_getContact',
  },
  body: rpc({ name: 'crm_getContact', arguments: args, _meta: envelope }),
};

const send = async (base: string, r: Request) => {
  const res = await fetch(`${base}${r.path}`, { method: 'POST', headers: r.headers, body: r.body });
  return { status: res.status, text: await res.text() };
};

/** The tool result inside an MCP answer (plain JSON, or the one event of an SSE answer). */
const mcpResult = (text: string): { content: { text: string }[]; structuredContent?: unknown } => {
  const data = text.trimStart().startsWith('{')
    ? text
    : text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5))
        .join('\n');
  const message = JSON.parse(data) as { result?: { content: { text: string }[] } };
  if (!message.result) throw new Error(`not a result: ${text.slice(0, 300)}`);
  return message.result;
};

interface Round {
  readonly rps: number;
  readonly cpuMicros: number | undefined;
  readonly p99: number;
}

const load = async (server: BenchServer, r: Request, duration: number): Promise<Round> => {
  const opts = {
    url: `${server.base}${r.path}`,
    method: 'POST' as const,
    headers: r.headers,
    body: r.body,
    connections,
  };
  const before = cpuSeconds(server.child.pid);
  const res = await autocannon({ ...opts, duration });
  const after = cpuSeconds(server.child.pid);
  if (res.non2xx || res.errors) throw new Error(`${server.base}${r.path}: ${res.non2xx} non-2xx, ${res.errors} errors`);
  const answers = res.requests.total;
  return {
    rps: answers / duration,
    p99: res.latency.p99,
    cpuMicros: before !== undefined && after !== undefined && answers ? ((after - before) * 1e6) / answers : undefined,
  };
};

interface Pair {
  readonly name: string;
  readonly target: number;
  readonly gateway: { readonly server: BenchServer; readonly request: Request };
  readonly bare: { readonly name: string; readonly server: BenchServer; readonly request: Request };
  /** Another build of the gateway (BENCH_BASELINE), measured in the same rounds. */
  readonly baseline?: BenchServer;
}

const median = (xs: readonly number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const main = async () => {
  if (!existsSync(resolve(root, gatewayEntry))) throw new Error(`no build at ${gatewayEntry}: run npm run build first`);
  const results = join(root, 'bench', 'results');
  if (profile) mkdirSync(results, { recursive: true });
  const servers: BenchServer[] = [];
  const up = async (entry: string, env: Record<string, string>, nodeArgs: string[] = []) => {
    const s = await start(entry, env, nodeArgs);
    servers.push(s);
    return s;
  };
  try {
    const profiled = (name: string) =>
      profile && (profileAll || name === 'gateway')
        ? [
            '--cpu-prof',
            '--cpu-prof-dir',
            profileAll ? join(results, name) : results,
            // The bare servers end on SIGTERM without a handler, which writes no profile: exit() does.
            ...(name === 'gateway'
              ? []
              : ['--import', 'data:text/javascript,process.on("SIGTERM",()=>process.exit(0))']),
          ]
        : [];
    const gateway = await up(gatewayEntry, gatewayEnv, profiled('gateway'));
    // What the gateway answers is what the references answer.
    const restAnswer = await send(gateway.base, rest);
    if (restAnswer.status !== 200 || !restAnswer.text.includes('Maria Alvarez'))
      throw new Error(`gateway REST answered ${restAnswer.status}: ${restAnswer.text.slice(0, 300)}`);
    const legacyAnswer = await send(gateway.base, legacy);
    const modernAnswer = await send(gateway.base, modern);
    for (const [era, a] of [
      ['2025-11-25', legacyAnswer],
      ['2026-07-28', modernAnswer],
    ] as const) {
      if (a.status !== 200 || !a.text.includes('Maria Alvarez'))
        throw new Error(`gateway MCP ${era} answered ${a.status}: ${a.text.slice(0, 300)}`);
    }
    const result = mcpResult(legacyAnswer.text);
    const baseline = baselineEntry ? await up(baselineEntry, gatewayEnv, profiled('baseline')) : undefined;

    const pairs: Pair[] = [];
    if (only === undefined || only === 'rest') {
      const hono = await up('bench/servers/bare-hono.mjs', { BENCH_BODY: restAnswer.text }, profiled('bare-hono'));
      pairs.push({
        name: 'REST crm_getContact',
        target: 0.75,
        gateway: { server: gateway, request: rest },
        bare: { name: 'bare Hono', server: hono, request: rest },
        baseline,
      });
    }
    if (only === undefined || only === 'mcp') {
      const sdk = await up(
        'bench/servers/bare-mcp-sdk.mjs',
        { BENCH_RESULT: JSON.stringify(result) },
        profiled('bare-sdk'),
      );
      for (const [era, request] of [
        ['2025-11-25', legacy],
        ['2026-07-28', modern],
      ] as const) {
        const answer = await send(sdk.base, request);
        if (answer.status !== 200 || mcpResult(answer.text).content[0]!.text !== result.content[0]!.text)
          throw new Error(`bare SDK ${era} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
        pairs.push({
          name: `MCP ${era} tools/call`,
          target: 0.9,
          gateway: { server: gateway, request },
          bare: {
            name: process.env.BENCH_SDK_SERVER === 'low-level' ? 'bare SDK v2 (Server)' : 'bare SDK v2',
            server: sdk,
            request,
          },
          baseline,
        });
      }
    }

    // Warm-up: every server on its path, so that the first measured round is not the JIT's.
    for (const p of pairs) {
      await load(p.gateway.server, p.gateway.request, warmSeconds);
      await load(p.bare.server, p.bare.request, warmSeconds);
      if (p.baseline) await load(p.baseline, p.gateway.request, warmSeconds);
    }
    const measured = new Map<string, { gateway: Round[]; bare: Round[]; baseline: Round[] }>(
      pairs.map((p) => [p.name, { gateway: [], bare: [], baseline: [] }]),
    );
    const fmt = (r: Round) =>
      `${r.rps.toFixed(0)} answers/s, ${r.cpuMicros === undefined ? 'n/a' : `${r.cpuMicros.toFixed(1)} µs CPU (${((r.rps * r.cpuMicros) / 1e4).toFixed(0)} % of its core)`}, p99 ${r.p99} ms`;
    for (let round = 1; round <= rounds; round++) {
      for (const p of pairs) {
        const m = measured.get(p.name)!;
        const g = await load(p.gateway.server, p.gateway.request, seconds);
        m.gateway.push(g);
        const b = await load(p.bare.server, p.bare.request, seconds);
        m.bare.push(b);
        process.stderr.write(
          `round ${round} ${p.name}: gateway ${fmt(g)} | ${p.bare.name} ${fmt(b)} | ${(g.rps / b.rps).toFixed(2)}\n`,
        );
        if (p.baseline) {
          const o = await load(p.baseline, p.gateway.request, seconds);
          m.baseline.push(o);
          process.stderr.write(`round ${round} ${p.name}: baseline ${fmt(o)} | ${(o.rps / b.rps).toFixed(2)}\n`);
        }
      }
    }

    console.log(
      `\nHot paths on Node ${process.version}, ${pinned ? 'servers on core 1, load on core 0' : 'not pinned'}, ` +
        `${connections} connections, ${rounds} interleaved rounds of ${seconds} s, medians`,
    );
    console.log(
      '| path | gateway answers/s | reference | reference answers/s | ratio (target) | ratio per round, median (range) | gateway CPU µs/answer | reference CPU µs/answer | CPU ratio |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    let missed = 0;
    const rps = (rs: readonly Round[]) => median(rs.map((r) => r.rps));
    const cpuOf = (rs: readonly Round[]) => median(rs.flatMap((r) => (r.cpuMicros === undefined ? [] : [r.cpuMicros])));
    const cpu = (x: number) => (Number.isNaN(x) ? 'n/a' : x.toFixed(1));
    for (const p of pairs) {
      const m = measured.get(p.name)!;
      const b = rps(m.bare);
      const bc = cpuOf(m.bare);
      const row = (name: string, rs: readonly Round[]) => {
        const g = rps(rs);
        const gc = cpuOf(rs);
        // Each round's ratio against the reference's round right beside it: steadier than the ratio of
        // the medians when the machine's speed drifts during the run.
        const perRound = rs.map((r, i) => r.rps / m.bare[i]!.rps);
        const spread = `${median(perRound).toFixed(2)} (${Math.min(...perRound).toFixed(2)}-${Math.max(...perRound).toFixed(2)})`;
        return `| ${name} | ${g.toFixed(0)} | ${p.bare.name} | ${b.toFixed(0)} | **${(g / b).toFixed(2)}** (${p.target}) | ${spread} | ${cpu(gc)} | ${cpu(bc)} | ${(bc / gc).toFixed(2)} |`;
      };
      if (rps(m.gateway) / b < p.target) missed++;
      console.log(row(p.name, m.gateway));
      if (m.baseline.length) console.log(row(`${p.name} (baseline build)`, m.baseline));
    }
    console.log(
      missed
        ? `\n${missed} of ${pairs.length} below target (ratio of the medians)`
        : '\nevery pair at or above its target (ratio of the medians)',
    );
    // When other work shares the machine the servers are not saturated (answers/s times CPU per answer is
    // well under one core), and answers/s then says more about scheduling than about work done.
    console.log(
      'CPU ratio: reference CPU per answer / gateway CPU per answer, the ratio the answers/s of saturated servers would have',
    );
  } finally {
    await Promise.all(servers.map((s) => stopServer(s.child)));
  }
};

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
