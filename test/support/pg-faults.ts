// Tools of the PostgreSQL fault tests (test/adversarial/pg-faults*.test.ts): a session-terminating admin
// client, a TCP proxy that can cut every session, and watches for uncaught exceptions.
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';

/** `url` with these query parameters set (application_name, say), and another host:port when given. */
export const withParams = (url: string, params: Record<string, string>, hostPort?: string): string => {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  if (hostPort) u.host = hostPort;
  return u.toString();
};

/** A client of the test's own, outside the gateway, to terminate the gateway's sessions. */
export const adminClient = async (url: string): Promise<pg.Client> => {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
};

/** Terminates every session of `applicationName` but the caller's; how many it terminated. */
export const terminate = async (admin: pg.Client, applicationName: string): Promise<number> => {
  const { rows } = await admin.query<{ n: number }>(
    `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
       where application_name = $1 and pid <> pg_backend_pid()) t`,
    [applicationName],
  );
  return rows[0]?.n ?? 0;
};

export const until = async (done: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** Captures uncaught exceptions while a test runs (each one would have ended the server process). */
export const uncaughtDuring = () => {
  const seen: Error[] = [];
  const listener = (error: Error) => void seen.push(error);
  process.on('uncaughtException', listener);
  return { seen, stop: () => void process.off('uncaughtException', listener) };
};

/** A TCP proxy in front of PostgreSQL that the test can cut (every session dropped, new ones refused). */
export const tcpProxy = async (target: URL) => {
  const sockets = new Set<Socket>();
  let refusing = false;
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server: Server = createServer((inbound) => {
    track(inbound);
    if (refusing) return void inbound.destroy();
    const outbound = connect(Number(target.port || 5432), target.hostname);
    track(outbound);
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    hostPort: `127.0.0.1:${port}`,
    cut: () => {
      refusing = true;
      for (const s of sockets) s.destroy();
    },
    restore: () => {
      refusing = false;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
};
