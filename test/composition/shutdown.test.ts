import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process.js';

// The server entry under a real signal. GATEWAY_ENTRY=dist/composition/main.js runs the built server
// (CI does, after the build); by default the sources run through tsx.
const token = 'shutdown-test-token-123';

/** Starts the server entry with a demo token and a delay on every tool call. */
const startServer = (latencyMs: number) =>
  startServerProcess({ GATEWAY_DEMO_TOKEN: token, GATEWAY_SIMULATED_LATENCY_MS: String(latencyMs) }, 20_000);

it('finishes every in-flight request after SIGTERM, then exits 0', async () => {
  const { child, exited, base } = await startServer(700);

  const call = () =>
    fetch(`${base}/v1/tools/crm/getContact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: '{"contact_id":"101"}',
    }).then(async (r) => ({
      status: r.status,
      body: await r.text(),
    }));
  const inFlight = Array.from({ length: 8 }, call);
  await new Promise((r) => setTimeout(r, 250));
  child.kill('SIGTERM');
  const answers = await Promise.all(inFlight);
  expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
  expect(answers.every((a) => a.body.includes('Maria Alvarez'))).toBe(true);
  expect(await exited).toBe(0);
  await expect(call()).rejects.toThrow();
}, 40_000);

it('drains keep-alive connections on SIGTERM: every in-flight request completes and says Connection: close', async () => {
  const { child, exited, base } = await startServer(700);
  const url = new URL(base);
  const connections = 40;
  const agent = new Agent({ keepAlive: true, maxSockets: connections, keepAliveMsecs: 60_000 });
  type Outcome = { status: number; connection: string | undefined; body: string } | { error: string };
  const call = () =>
    new Promise<Outcome>((ok) => {
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/v1/tools/crm/getContact',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () =>
            ok({ status: res.statusCode ?? 0, connection: (res.headers as IncomingHttpHeaders).connection, body }),
          );
          res.on('error', (e) => ok({ error: e.message }));
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => ok({ error: e.code ?? e.message }));
      req.end('{"contact_id":"101"}');
    });

  // Open the connections first (so that they are keep-alive connections that served a request), then
  // put one slow request in flight on each of them and send the signal while they run.
  const warm = await Promise.all(Array.from({ length: connections }, call));
  expect(warm.every((w) => 'status' in w && w.status === 200 && w.connection === 'keep-alive')).toBe(true);
  // Under load: each client sends its next request as soon as an answer arrives. That request must not
  // be reset: either it is answered, or (the connection having been closed as announced) it cannot connect.
  const followUps: Promise<Outcome>[] = [];
  const inFlight = Array.from({ length: connections }, () =>
    call().then((a) => {
      followUps.push(call());
      return a;
    }),
  );
  await new Promise((r) => setTimeout(r, 250));
  child.kill('SIGTERM');
  const answers = await Promise.all(inFlight);
  const errors = answers.filter((a) => 'error' in a);
  expect(errors).toEqual([]);
  for (const a of answers) {
    expect(a).toMatchObject({ status: 200, connection: 'close' });
    expect((a as { body: string }).body).toContain('Maria Alvarez');
  }
  const next = await Promise.all(followUps);
  expect(next.filter((a) => 'error' in a && a.error !== 'ECONNREFUSED')).toEqual([]);
  expect(await exited).toBe(0);
  agent.destroy();
}, 60_000);
