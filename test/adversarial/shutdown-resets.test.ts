import { Agent, request } from 'node:http';
import { expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process.js';

// Issue 26: a SIGTERM under keep-alive load reset dozens of connections (39 in the report). Node's
// server.close() destroys every idle keep-alive connection at once, and under load a connection is idle
// for the few microseconds between an answer and the client's next request: the request then meets a
// closed socket. Now the listener stops, each answer given while draining says "Connection: close" (so
// the client opens a new connection, which is refused), and an idle connection is closed only once it has
// stayed idle for a while. Refused new connections (ECONNREFUSED) are expected; a reset is not.

const token = 'shutdown-resets-token-0123456789';

interface Tally {
  ok: number;
  refused: number;
  resets: number;
  other: Record<string, number>;
}

/**
 * `clients` loops, each sending a tool call as soon as the previous one is answered, over one keep-alive
 * agent with twice as many sockets as clients (so that some sockets sit idle in the pool, kept alive).
 * Each loop ends on ECONNREFUSED (the listener is gone) or at `until`.
 */
const load = (base: string, clients: number, until: () => boolean) => {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: clients * 2, scheduling: 'fifo' });
  const tally: Tally = { ok: 0, refused: 0, resets: 0, other: {} };
  const once = () =>
    new Promise<'ok' | 'refused' | 'error'>((done) => {
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
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) tally.ok++;
            else tally.other[`status ${res.statusCode}`] = (tally.other[`status ${res.statusCode}`] ?? 0) + 1;
            done('ok');
          });
          res.on('error', () => {
            tally.resets++;
            done('error');
          });
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'ECONNREFUSED') {
          tally.refused++;
          return done('refused');
        }
        if (e.code === 'ECONNRESET' || e.code === 'EPIPE') tally.resets++;
        else tally.other[e.code ?? e.message] = (tally.other[e.code ?? e.message] ?? 0) + 1;
        done('error');
      });
      req.end('{"contact_id":"101"}');
    });
  const loop = async () => {
    while (!until()) if ((await once()) === 'refused') return;
  };
  // Open every socket first, so that half of them wait idle in the pool.
  const warm = Promise.all(Array.from({ length: clients * 2 }, once));
  return { tally, once, agent, run: warm.then(() => Promise.all(Array.from({ length: clients }, loop))) };
};

it('a SIGTERM under keep-alive load resets no connection', async () => {
  const server = await startServerProcess(
    { GATEWAY_DEMO_TOKEN: token, GATEWAY_SIMULATED_LATENCY_MS: '2', RATE_LIMIT_PER_MINUTE: '1000000' },
    20_000,
  );
  let over = false;
  const giveUp = setTimeout(() => (over = true), 15_000);
  const { tally, run, agent } = load(server.base, 40, () => over);
  // Connections kept alive and left idle the whole time: closed by the server a while after the signal.
  const idle = load(server.base, 5, () => true);
  await idle.run;
  await new Promise((r) => setTimeout(r, 1500));
  const before = tally.ok;
  const signalled = performance.now();
  const exitMs = server.exited.then(() => Math.round(performance.now() - signalled));
  server.child.kill('SIGTERM');
  await run;
  clearTimeout(giveUp);
  // Their client, sending again later, finds them closed and the listener gone: refused, never reset.
  await new Promise((r) => setTimeout(r, 1200));
  const later = await Promise.all(Array.from({ length: 10 }, idle.once));
  expect(later).toEqual(Array(10).fill('refused'));
  expect(idle.tally.resets).toBe(0);
  const code = await server.exited;
  console.log(
    `shutdown under load: ${JSON.stringify(tally)}, ${before} answered before SIGTERM, exit after ${await exitMs} ms`,
  );
  expect(before).toBeGreaterThan(100);
  expect(tally.resets).toBe(0);
  expect(tally.other).toEqual({});
  expect(code).toBe(0);
  agent.destroy();
  idle.agent.destroy();
}, 40_000);
