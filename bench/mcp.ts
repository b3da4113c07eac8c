// MCP against REST in one run, on one gateway process: tools/call of crm_getContact and the tool list,
// over REST, over /mcp as a 2026-07-28 client sends them (envelope and standard headers) and as a
// 2025-11-25 client sends them after initialize (stateless: no session id). autocannon drives each in
// turn over loopback; the gateway runs from the sources (tsx) so it measures the working tree, pinned to
// one core with taskset where available. The same tools/call, in both eras, also goes to a bare official
// SDK v2 server answering the gateway's result (bench/servers/bare-mcp-sdk.mjs, its own process on the
// same core), for what the SDK costs by itself; bench/hot-paths.ts compares the two more carefully.
//
//   npm run bench:mcp
//   BENCH_SECONDS=10 BENCH_CONNECTIONS=50 BENCH_ROUNDS=3 npm run bench:mcp
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import { startServer, type BenchServer } from './server-process.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const token = 'bench-token-0123456789';
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const accept = { accept: 'application/json, text/event-stream' };
const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const args = { contact_id: '101' };

interface Target {
  readonly name: string;
  /** The server it goes to: the gateway (default) or the bare SDK server. */
  readonly server?: 'bare';
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** A string the answer must contain (checked once before the load). */
  readonly expect: string;
}

const modernHeaders = (method: string, name?: string) => ({
  ...auth,
  ...accept,
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
});
const legacyHeaders = { ...auth, ...accept, 'mcp-protocol-version': '2025-11-25' };
const rpc = (method: string, params: Record<string, unknown> | undefined) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) });

const targets: readonly Target[] = [
  {
    name: 'REST call',
    method: 'POST',
    path: '/v1/tools/crm/getContact',
    headers: auth,
    body: JSON.stringify(args),
    expect: 'Maria Alvarez',
  },
  {
    name: 'MCP 2026-07-28 tools/call',
    method: 'POST',
    path: '/mcp',
    headers: modernHeaders('tools/call', 'crm_getContact'),
    body: rpc('tools/call', { name: 'crm_getContact', arguments: args, _meta: envelope }),
    expect: 'Maria Alvarez',
  },
  {
    name: 'MCP 2025-11-25 tools/call',
    method: 'POST',
    path: '/mcp',
    headers: legacyHeaders,
    body: rpc('tools/call', { name: 'crm_getContact', arguments: args }),
    expect: 'Maria Alvarez',
  },
  {
    name: 'REST list',
    method: 'GET',
    path: '/v1/tools?dialect=mcp',
    headers: { authorization: auth.authorization },
    expect: 'crm_getContact',
  },
  {
    name: 'MCP 2026-07-28 tools/list',
    method: 'POST',
    path: '/mcp',
    headers: modernHeaders('tools/list'),
    body: rpc('tools/list', { _meta: envelope }),
    expect: 'crm_getContact',
  },
  {
    name: 'MCP 2025-11-25 tools/list',
    method: 'POST',
    path: '/mcp',
    headers: legacyHeaders,
    body: rpc('tools/list', undefined),
    expect: 'crm_getContact',
  },
];

const pin = spawnSync('taskset', ['--version']).status === 0 ? ['taskset', '-c', '0'] : [];
const startGateway = (): Promise<BenchServer> =>
  startServer(
    'composition/main.ts',
    { GATEWAY_DEMO_TOKEN: token, LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '1000000' },
    { nodeArgs: ['--import', 'tsx'], prefix: pin, timeoutMs: 60_000 },
  );

/** The bare SDK server, answering `result` (the gateway's own CallToolResult for the same call). */
const startBare = (result: unknown): Promise<BenchServer> =>
  startServer('bench/servers/bare-mcp-sdk.mjs', { BENCH_RESULT: JSON.stringify(result) }, { prefix: pin });

const bareTargets: readonly Target[] = targets
  .filter((t) => t.name.startsWith('MCP') && t.name.endsWith('tools/call'))
  .map((t) => ({ ...t, name: `bare SDK ${t.name.slice('MCP '.length)}`, server: 'bare' as const }));

/** The result of a tools/call answer, JSON or one SSE event. */
const resultOf = (text: string): unknown => {
  const data = text.trimStart().startsWith('{')
    ? text
    : text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5))
        .join('\n');
  return (JSON.parse(data) as { result: unknown }).result;
};

const load = async (base: string, t: Target) => {
  const opts = {
    url: `${base}${t.path}`,
    method: t.method,
    headers: t.headers,
    ...(t.body ? { body: t.body } : {}),
    connections,
  };
  await autocannon({ ...opts, duration: 1 }); // warm-up
  const r = await autocannon({ ...opts, duration: seconds });
  if (r.non2xx || r.errors) throw new Error(`${t.name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
};

const main = async () => {
  const gateway = await startGateway();
  let bare: BenchServer | undefined;
  try {
    const legacyCall = targets.find((t) => t.name === 'MCP 2025-11-25 tools/call')!;
    const recorded = await fetch(`${gateway.base}${legacyCall.path}`, {
      method: 'POST',
      headers: legacyCall.headers,
      body: legacyCall.body,
    }).then((r) => r.text());
    bare = await startBare(resultOf(recorded));
    const baseOf = (t: Target) => (t.server === 'bare' ? bare!.base : gateway.base);
    const all = [...targets, ...bareTargets];
    for (const t of all) {
      const res = await fetch(`${baseOf(t)}${t.path}`, {
        method: t.method,
        headers: t.headers,
        ...(t.body ? { body: t.body } : {}),
      });
      const text = await res.text();
      if (res.status !== 200 || !text.includes(t.expect))
        throw new Error(`${t.name}: ${res.status} ${text.slice(0, 300)}`);
    }
    const measured = new Map<string, { rps: number[]; p99: number[] }>();
    for (let round = 0; round < rounds; round++) {
      for (const t of all) {
        const r = await load(baseOf(t), t);
        const m = measured.get(t.name) ?? { rps: [], p99: [] };
        m.rps.push(r.rps);
        m.p99.push(r.p99);
        measured.set(t.name, m);
        process.stderr.write(`round ${round + 1} ${t.name}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms\n`);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const rps = (name: string) => median(measured.get(name)!.rps);
    console.log(
      `\nMCP and REST on one gateway process, Node ${process.version}, ${connections} connections, ${seconds} s per run, median of ${rounds} rounds`,
    );
    console.log('| request | req/s | p99 ms | / REST |\n|---|---|---|---|');
    for (const t of all) {
      const rest = rps(t.name.endsWith('list') ? 'REST list' : 'REST call');
      const m = measured.get(t.name)!;
      console.log(`| ${t.name} | ${rps(t.name).toFixed(0)} | ${median(m.p99)} | ${(rps(t.name) / rest).toFixed(2)} |`);
    }
    for (const era of ['2026-07-28', '2025-11-25']) {
      const ratio = rps(`MCP ${era} tools/call`) / rps(`bare SDK ${era} tools/call`);
      console.log(`MCP ${era} tools/call, gateway / bare SDK: ${ratio.toFixed(2)}`);
    }
    console.log('\ntarget: MCP tools/call and tools/list at 0.80 of REST or better');
  } finally {
    gateway.child.kill('SIGTERM');
    bare?.child.kill('SIGTERM');
  }
};

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
