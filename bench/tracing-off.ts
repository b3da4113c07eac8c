// What tracing costs when it is off (issue 39): the work a call does for tracing with no OTEL_* variable set.
// Two loops in one process, no network beyond loopback: (1) REST tool calls through the gateway's Hono app in
// memory mode (`g.http.fetch`, no socket), (2) vendor HTTP calls through createVendorHttp to a loopback
// server (where the vendor-span hooks run; the loopback server's work is in the same process). Prints the
// median CPU µs per call over rounds. Compare two builds by
// running this file in each tree, interleaved (docs/benchmarks.md "Tracing off").
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createVendorHttp } from '../adapters/outbound/http/vendor-http.js';
import { createGateway } from '../composition/gateway.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
const REST_CALLS = Number(process.env['BENCH_REST_CALLS'] ?? 3000);
const VENDOR_CALLS = Number(process.env['BENCH_VENDOR_CALLS'] ?? 2000);
const TOKEN = 'tracing-off-bench-token-0123456789';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const g = createGateway({
  env: { GATEWAY_DEMO_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: '1000000', GATEWAY_DATA_DIR: '/tmp/tracing-off-bench' },
  logger: pino({ level: 'silent' }),
});
const restCall = async (): Promise<void> => {
  const res = await g.http.fetch(
    new Request('http://127.0.0.1/v1/tools/crm/getContact', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"contact_id":"101"}',
    }),
  );
  if (res.status !== 200) throw new Error(`REST call answered ${res.status}`);
  await res.arrayBuffer();
};

const server = createServer((_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end('{"ok":true}');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const http = createVendorHttp({
  vendor: 'Bench',
  baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  timeoutMs: 5000,
});

/** CPU time (user + system, µs) per call: less disturbed than wall time by other work on the machine. */
const timed = async (n: number, one: () => Promise<unknown>): Promise<number> => {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await one();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
};

await timed(300, restCall);
await timed(300, () => http.get('/things/1'));
const rest: number[] = [];
const vendor: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  rest.push(await timed(REST_CALLS, restCall));
  vendor.push(await timed(VENDOR_CALLS, () => http.get('/things/1')));
}
console.log(JSON.stringify({ restCpuUs: median(rest), vendorCpuUs: median(vendor), rounds: ROUNDS }));
await g.close();
server.close();
