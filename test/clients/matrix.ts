// The client matrix (issue 27, "Real clients first"): real MCP clients drive the BUILT server over a real
// socket through the sequence an agent host runs: connect and list the tools, then a success, a tool error,
// a bad argument and an unknown tool. One line per client and step; exits 1 on any failure.
//
//   npm run build && npx tsx test/clients/matrix.ts
//   GATEWAY_ENTRY=/elsewhere/dist/composition/main.js npx tsx test/clients/matrix.ts   (another build)
//   GATEWAY_URL=http://127.0.0.1:8787/mcp GATEWAY_TOKEN=... npx tsx test/clients/matrix.ts   (a running server)
//
// Clients: the official TypeScript SDK v1 (@modelcontextprotocol/sdk) and v2 (@modelcontextprotocol/client,
// both negotiation modes) over Streamable HTTP; the MCP Inspector's CLI (@modelcontextprotocol/inspector-cli,
// one process per step, as a person runs it); mcp-remote (the stdio-to-remote proxy Claude Desktop users
// run), driven over stdio by the v1 SDK's StdioClientTransport; and the official conformance suite's server
// scenarios (its CLI needs Node 22 or later: skipped, with a line saying so, on Node 20). Two lines are
// facts rather than checks: the 401 an unauthenticated MCP request gets, and what mcp-remote does without
// a header (the gateway has no OAuth authorization server yet).

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const root = resolve(import.meta.dirname, '../..');
const requireHere = createRequire(import.meta.url);
const INSPECTOR_CLI = join(
  dirname(requireHere.resolve('@modelcontextprotocol/inspector-cli/package.json')),
  'build/cli.js',
);
const MCP_REMOTE = join(dirname(requireHere.resolve('mcp-remote/package.json')), 'dist/proxy.js');
const CONFORMANCE = requireHere.resolve('@modelcontextprotocol/conformance/dist/index.js');
const CONFORMANCE_BASELINE = join(root, 'test/fixtures/mcp-conformance/expected-failures.yml');
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const STEP_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------------------------- reporting

let failures = 0;
const started = Date.now();

const line = (
  verdict: 'PASS' | 'FAIL' | 'SKIP' | 'INFO',
  client: string,
  step: string,
  detail: string,
  ms?: number,
  max = 220,
) => {
  if (verdict === 'FAIL') failures++;
  const time = ms === undefined ? '' : ` (${ms} ms)`;
  process.stdout.write(`${verdict}  ${client.padEnd(30)} ${step.padEnd(14)} ${oneLine(detail, max)}${time}\n`);
};

const oneLine = (s: string, max = 220) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${what}: no answer within ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(timer), ok(v)),
      (e: unknown) => (clearTimeout(timer), fail(e instanceof Error ? e : new Error(String(e)))),
    );
  });

// ------------------------------------------------------------------------------------ the shared sequence

/** What a client made of a tools/call: a result (maybe isError) or a thrown error. */
type Outcome = { kind: 'result'; isError: boolean; text: string } | { kind: 'thrown'; message: string };

interface Session {
  list(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<Outcome>;
  close(): Promise<void>;
}

const textOf = (result: any): string =>
  ((result?.content ?? []) as { type: string; text?: string }[])
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('\n');

const outcomeOf = (p: Promise<any>): Promise<Outcome> =>
  p.then(
    (result) => ({ kind: 'result', isError: result?.isError === true, text: textOf(result) }),
    (e: unknown) => ({ kind: 'thrown', message: e instanceof Error ? e.message : String(e) }),
  );

const describeOutcome = (o: Outcome) =>
  o.kind === 'thrown' ? `threw: ${o.message}` : `${o.isError ? 'isError result' : 'result'}: ${o.text}`;

interface Check {
  step: string;
  tool: string;
  args: Record<string, unknown>;
  /** Undefined when the outcome is what a model should get; otherwise why not. */
  judge(o: Outcome): string | undefined;
}

const UNKNOWN_TOOL = 'crm_getContacts';

const CHECKS: readonly Check[] = [
  {
    step: 'success',
    tool: 'crm_getContact',
    args: { contact_id: '101' },
    judge: (o) =>
      o.kind === 'result' && !o.isError && o.text.includes('Maria Alvarez')
        ? undefined
        : 'expected a result whose text names Maria Alvarez',
  },
  {
    step: 'tool error',
    tool: 'crm_getContact',
    args: { contact_id: '999999' },
    judge: (o) =>
      o.kind === 'result' && o.isError && o.text.includes('NOT_FOUND') && o.text.includes('No contact with id 999999')
        ? undefined
        : 'expected an isError result carrying the NOT_FOUND message',
  },
  {
    step: 'bad argument',
    tool: 'crm_getContact',
    args: { contact_id: true },
    judge: (o) =>
      o.kind === 'result' && o.isError && o.text.includes('INVALID_PARAMETER') && o.text.includes('contact_id')
        ? undefined
        : 'expected an isError result carrying the INVALID_PARAMETER message naming contact_id',
  },
  {
    step: 'unknown tool',
    tool: UNKNOWN_TOOL,
    args: { contact_id: '101' },
    judge: (o) =>
      (o.kind === 'thrown' ? o.message : o.isError ? o.text : '').includes(UNKNOWN_TOOL)
        ? undefined
        : `expected an error naming ${UNKNOWN_TOOL}`,
  },
];

/** Connects, lists, runs every check; one line each. A client that cannot connect fails every step. */
const runClient = async (client: string, open: () => Promise<Session>) => {
  let session: Session | undefined;
  let t = Date.now();
  try {
    session = await withTimeout(open(), STEP_TIMEOUT_MS, 'connect');
    const names = await withTimeout(session.list(), STEP_TIMEOUT_MS, 'tools/list');
    if (names.includes('crm_getContact')) line('PASS', client, 'tools/list', `${names.length} tools`, Date.now() - t);
    else line('FAIL', client, 'tools/list', `crm_getContact not listed (${names.length} tools)`, Date.now() - t);
  } catch (e) {
    line('FAIL', client, 'tools/list', `could not connect and list: ${(e as Error).message}`, Date.now() - t);
    for (const c of CHECKS) line('FAIL', client, c.step, 'not run: the client did not connect');
    await session?.close().catch(() => undefined);
    return;
  }
  for (const c of CHECKS) {
    t = Date.now();
    const o = await withTimeout(session.call(c.tool, c.args), STEP_TIMEOUT_MS, c.step).catch((e: Error): Outcome => ({
      kind: 'thrown',
      message: e.message,
    }));
    const problem = c.judge(o);
    line(
      problem ? 'FAIL' : 'PASS',
      client,
      c.step,
      `${problem ? `${problem}; ` : ''}${describeOutcome(o)}`,
      Date.now() - t,
    );
  }
  await session.close().catch(() => undefined);
};

// ------------------------------------------------------------------------------------------------ clients

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const sdkV1 = (url: string, token: string) => async (): Promise<Session> => {
  const client = new V1Client({ name: 'matrix-sdk-v1', version: '1.0.0' });
  await client.connect(new V1Transport(new URL(url), { requestInit: { headers: bearer(token) } }));
  return {
    list: async () => (await client.listTools()).tools.map((t) => t.name),
    call: (name, args) => outcomeOf(client.callTool({ name, arguments: args })),
    close: () => client.close(),
  };
};

const sdkV2 = (url: string, token: string, mode: 'auto' | 'legacy') => async (): Promise<Session> => {
  const client = new V2Client({ name: `matrix-sdk-v2-${mode}`, version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new V2Transport(new URL(url), { requestInit: { headers: bearer(token) } }));
  return {
    list: async () => (await client.listTools()).tools.map((t) => t.name),
    call: (name, args) => outcomeOf(client.callTool({ name, arguments: args })),
    close: () => client.close(),
  };
};

/** Runs a process to its end; stdout and stderr kept apart. */
const run = (command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  new Promise<{ code: number | null; out: string; err: string }>((ok) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS * 4);
    child.on('close', (code) => (clearTimeout(timer), ok({ code, out, err })));
  });

/**
 * The Inspector's CLI exactly as a person runs it (`mcp-inspector-cli --cli URL --transport http --method ...
 * --header "Authorization: Bearer ..."`), a new process per step. `--tool-arg k=v` JSON-parses v, so
 * contact_id=true sends a boolean. The cwd is the CLI's own build folder: 1.0.3 looks for its package.json
 * at ../package.json relative to the *working directory* and fails to start elsewhere (upstream issue
 * modelcontextprotocol/inspector#1503; the CLI in the full @modelcontextprotocol/inspector package has the
 * mirror-image problem).
 */
const inspector = (url: string, token: string) => async (): Promise<Session> => {
  const invoke = (method: string[]) =>
    run(
      process.execPath,
      [INSPECTOR_CLI, '--cli', url, '--transport', 'http', ...method, '--header', `Authorization: Bearer ${token}`],
      { cwd: dirname(INSPECTOR_CLI) },
    );
  // The CLI's three-line deprecation notice on stderr ("@modelcontextprotocol/inspector v1 is deprecated").
  const deprecation = /\n?⚠️[^\n]*\n(?: {4}[^\n]*\n)*/g;
  return {
    list: async () => {
      const { code, out, err } = await invoke(['--method', 'tools/list']);
      if (code !== 0) throw new Error(`exit ${code}: ${err.replace(deprecation, '')}`);
      return (JSON.parse(out) as { tools: { name: string }[] }).tools.map((t) => t.name);
    },
    call: async (name, args) => {
      const pairs = Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${String(v)}`]);
      const { code, out, err } = await invoke(['--method', 'tools/call', '--tool-name', name, ...pairs]);
      if (code !== 0) return { kind: 'thrown', message: `exit ${code}: ${(out + err).replace(deprecation, '')}` };
      return outcomeOf(Promise.resolve(JSON.parse(out)));
    },
    close: async () => undefined,
  };
};

/**
 * mcp-remote as Claude Desktop starts it (command + args), spoken to over stdio by the v1 SDK. mcp-remote
 * passes the messages through, so the validation of results is this v1 client's, as it is the host's.
 */
const mcpRemote =
  (url: string, extraArgs: readonly string[], configDir: string, stderrSink?: (s: string) => void) =>
  async (): Promise<Session> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_REMOTE, url, ...extraArgs],
      // Its OAuth state (client registrations, tokens) goes here rather than to ~/.mcp-auth.
      env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: configDir },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => stderrSink?.(d.toString()));
    const client = new V1Client({ name: 'matrix-mcp-remote', version: '1.0.0' });
    try {
      await withTimeout(client.connect(transport), 20_000, 'connect');
    } catch (e) {
      await transport.close().catch(() => undefined); // never leave the proxy process behind
      throw e;
    }
    return {
      list: async () => (await client.listTools()).tools.map((t) => t.name),
      call: (name, args) => outcomeOf(client.callTool({ name, arguments: args })),
      close: () => client.close(),
    };
  };

/** Fact, not check: what mcp-remote does when it is given no header (the gateway has no OAuth server yet). */
const mcpRemoteWithoutHeader = async (url: string, configDir: string) => {
  const client = 'mcp-remote (no header)';
  let stderr = '';
  const t = Date.now();
  try {
    const session = await mcpRemote(url, [], configDir, (s) => (stderr += s))();
    line('INFO', client, 'connect', 'connected without a token (unexpected)', Date.now() - t);
    await session.close().catch(() => undefined);
  } catch (e) {
    const said = stderr
      .split('\n')
      .filter((l) => /Discovered|Dynamic Client Registration|Fatal error|Connection error|Received error/.test(l))
      .map((l) => l.replace(/^(\[\d+\]\s*)+/, '').replace(/(\(HTTP \d+\)):.*/, '$1'));
    line('INFO', client, 'connect', `fails: ${(e as Error).message} | ${said.join(' | ')}`, Date.now() - t, 600);
  }
};

/** Check: a token-less MCP request gets 401 with a Bearer challenge naming the resource metadata. */
const unauthenticated = async (url: string) => {
  const t = Date.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'matrix', version: '1' } },
    }),
  });
  const challenge = res.headers.get('www-authenticate') ?? '';
  const ok = res.status === 401 && /^Bearer\b.*resource_metadata="[^"]+"/.test(challenge);
  line(ok ? 'PASS' : 'FAIL', 'http, no token', '401', `${res.status} WWW-Authenticate: ${challenge}`, Date.now() - t);
};

/**
 * The conformance suite's server scenarios. Its client sends no credentials, so a loopback proxy adds the
 * token and passes everything else (Host and Origin included) through, as test/adapters/inbound/
 * mcp-conformance.test.ts does in process.
 */
const conformance = async (url: string, token: string) => {
  if (NODE_MAJOR < 22) {
    line('SKIP', 'conformance suite', 'server', `its CLI needs Node 22+ (fs.globSync); this is ${process.version}`);
    return;
  }
  const target = new URL(url);
  const proxy = createHttpServer((req, res) => {
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  const via = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${target.pathname}`;
  const t = Date.now();
  const { code, out, err } = await run(process.execPath, [
    CONFORMANCE,
    'server',
    '--url',
    via,
    '--expected-failures',
    CONFORMANCE_BASELINE,
  ]);
  proxy.close();
  const text = out + err;
  const passed = [...text.matchAll(/✓ ([\w-]+): [1-9]\d* passed, 0 failed/g)].map((m) => m[1]);
  const required = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
  const missing = required.filter((s) => !passed.includes(s));
  if (code === 0 && missing.length === 0)
    line(
      'PASS',
      'conformance suite',
      'server',
      `${passed.length} scenarios passed, the rest as baselined`,
      Date.now() - t,
    );
  else
    line(
      'FAIL',
      'conformance suite',
      'server',
      `exit ${code}${missing.length ? `, not passed: ${missing.join(', ')}` : ''}: ${text.slice(-600)}`,
      Date.now() - t,
    );
};

// ----------------------------------------------------------------------------------------- the server

const freePort = async (): Promise<number> => {
  const probe = createNetServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((ok) => probe.close(ok));
  return port;
};

/**
 * Boots the built server as CI's smoke test does (memory mode, a demo token, plain node), on a port chosen
 * here rather than PORT=0: with PORT=0 the links the gateway hands out (the 401's resource_metadata, the
 * protected-resource metadata) say port 0, and mcp-remote's OAuth discovery would follow them to nowhere.
 */
const boot = async (): Promise<{ url: string; token: string; server?: ChildProcess }> => {
  if (process.env['GATEWAY_URL']) {
    const token = process.env['GATEWAY_TOKEN'];
    if (!token) throw new Error('GATEWAY_URL needs GATEWAY_TOKEN (a token with crm:read)');
    return { url: process.env['GATEWAY_URL'], token };
  }
  const entry = resolve(process.env['GATEWAY_ENTRY'] ?? join(root, 'dist/composition/main.js'));
  const token = `matrix-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(await freePort()),
    GATEWAY_DEMO_TOKEN: token,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000',
  };
  delete env['DATABASE_URL'];
  delete env['PUBLIC_BASE_URL'];
  const server = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const base = await withTimeout(
    new Promise<string>((ok, fail) => {
      const look = (d: Buffer) => {
        log += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(log);
        if (m?.[1]) ok(m[1]);
      };
      server.stdout.on('data', look);
      server.stderr.on('data', look);
      server.on('exit', (code) => fail(new Error(`the server exited (${code}) during start-up:\n${log}`)));
    }),
    30_000,
    `booting ${entry}`,
  );
  return { url: `${base}/mcp`, token, server };
};

// ------------------------------------------------------------------------------------------------- main

const main = async () => {
  const { url, token, server } = await boot();
  process.stdout.write(`client matrix on Node ${process.version} against ${url}\n`);
  const configDir = mkdtempSync(join(tmpdir(), 'matrix-mcp-remote-'));
  try {
    await unauthenticated(url);
    await runClient('sdk v1 (2025-11-25)', sdkV1(url, token));
    await runClient('sdk v2 auto (2026-07-28)', sdkV2(url, token, 'auto'));
    await runClient('sdk v2 legacy (initialize)', sdkV2(url, token, 'legacy'));
    await runClient('inspector-cli 1.0.3', inspector(url, token));
    await runClient(
      'mcp-remote 0.15.1 (--transport http-only --header)',
      mcpRemote(url, ['--transport', 'http-only', '--header', `Authorization: Bearer ${token}`], configDir),
    );
    await mcpRemoteWithoutHeader(url, configDir);
    await conformance(url, token);
  } finally {
    server?.kill('SIGTERM');
    rmSync(configDir, { recursive: true, force: true });
  }
  process.stdout.write(
    `${failures ? `${failures} FAILED` : 'all passed'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
  process.exit(failures ? 1 : 0);
};

main().catch((e: unknown) => {
  process.stderr.write(`matrix: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
