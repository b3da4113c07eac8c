// The server the matrix runs against: the built gateway booted here, or one already running (GATEWAY_URL).

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { withTimeout } from './report.js';

const root = resolve(import.meta.dirname, '../..');

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
export const boot = async (): Promise<{ url: string; token: string; server?: ChildProcess }> => {
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
    // Every client of the matrix registers and signs in from this one address (issue 38's per-address limits).
    OAUTH_REGISTRATIONS_PER_HOUR: '1000',
    OAUTH_TOKEN_REQUESTS_PER_MINUTE: '10000',
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
