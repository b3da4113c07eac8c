import { spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, testGateway } from '../../support/gateway.js';

// The official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios, 2025-era
// clients) against /mcp. The suite's client sends no credentials, so a loopback proxy adds the demo token
// and passes everything else (Host and Origin included) through unchanged. Scenarios that need features
// the gateway does not offer are listed, with the reason, in test/fixtures/mcp-conformance/; the suite
// fails on any other failure. The suite's command-line tool needs Node 22 or later (fs.globSync).

const [major] = process.versions.node.split('.').map(Number) as [number];
const cli = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');
const baseline = resolve(import.meta.dirname, '../../fixtures/mcp-conformance/expected-failures.yml');

const gateway = testGateway({}, { RATE_LIMIT_PER_MINUTE: '100000' });
let backend: ServerType;
let proxy: Server;
let url = '';

beforeAll(async () => {
  if (major < 22) return;
  await new Promise<void>((ok) => {
    backend = serve({ fetch: gateway.http.fetch, port: 0, hostname: '127.0.0.1', autoCleanupIncoming: false }, () =>
      ok(),
    );
  });
  const target = (backend.address() as AddressInfo).port;
  proxy = createServer((req, res) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: target,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${DEMO_TOKEN}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await new Promise((ok) => proxy?.close(ok) ?? ok(undefined));
  await new Promise((ok) => backend?.close(ok) ?? ok(undefined));
  await gateway.close();
});

const run = (args: readonly string[]) =>
  new Promise<{ code: number | null; out: string }>((ok) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => ok({ code, out }));
  });

describe.skipIf(major < 22)('the official MCP conformance suite', () => {
  it('passes every server scenario that applies to a stateless, tools-only server', async () => {
    const { code, out } = await run(['server', '--url', url, '--expected-failures', baseline]);
    for (const scenario of ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']) {
      expect(out, scenario).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
    }
    expect(code, out.slice(-3000)).toBe(0);
  }, 120_000);
});

if (major < 22) {
  it.skip(`the official MCP conformance suite needs Node 22 or later to run (this is ${process.version})`, () => {});
}
