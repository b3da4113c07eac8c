// Checks of the server itself rather than of a client: the 401 a token-less MCP request gets, and the
// official conformance suite's server scenarios.

import { once } from 'node:events';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { run } from './clients.js';
import { line } from './report.js';

const root = resolve(import.meta.dirname, '../..');
const requireHere = createRequire(import.meta.url);
const CONFORMANCE = requireHere.resolve('@modelcontextprotocol/conformance/dist/index.js');
const CONFORMANCE_BASELINE = join(root, 'test/fixtures/mcp-conformance/expected-failures.yml');
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** Check: a token-less MCP request gets 401 with a Bearer challenge naming the resource metadata. */
export const unauthenticated = async (url: string) => {
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
export const conformance = async (url: string, token: string) => {
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
