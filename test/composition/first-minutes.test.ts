import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process.js';

const entry = process.env['GATEWAY_ENTRY'];
const { DATABASE_URL: _omitted, ...withoutDatabase } = process.env;

/** Runs the server entry to its end with `env`; its exit code and everything it printed. */
const runToExit = (env: Record<string, string>) =>
  new Promise<{ code: number | null; out: string }>((done) => {
    const child = spawn(process.execPath, entry ? [entry] : ['--import', 'tsx', 'composition/main.ts'], {
      cwd: resolve(import.meta.dirname, '../..'),
      // As `npm start` runs on a fresh machine: memory mode, not the PostgreSQL the tests were given.
      env: { ...withoutDatabase, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(guard);
      done({ code, out });
    });
  });

// Issue 27, first minutes: the banner names the MCP address, the reference page and where connecting a
// client is explained; a port that is taken is one line naming PORT, not a JSON stack trace.

it('names the MCP URL and /docs in the banner, and a taken port in one line that names PORT', async () => {
  const first = await startServerProcess({ GATEWAY_DEMO_TOKEN: 'first-minutes-token-0123' }, 30_000);
  try {
    const banner = first.output();
    expect(banner).toContain(`MCP: ${first.base}/mcp`);
    expect(banner).toContain(`${first.base}/docs`);
    expect(banner).toContain('"Connect a client"');
    const port = new URL(first.base).port;
    // A data folder of its own: this is about the port, not about two processes on one folder (not supported:
    // operations.md).
    const second = await runToExit({ PORT: port, GATEWAY_DATA_DIR: mkdtempSync(`${tmpdir()}/first-minutes-`) });
    expect(second.code).toBe(1);
    // One line of the gateway's own; a warning Node itself prints for the process is not the gateway's answer.
    const own = second.out
      .trim()
      .split('\n')
      .filter((l) => !/^\(node:\d+\) |^\(Use `node --trace-warnings/.test(l));
    expect(own, second.out).toHaveLength(1);
    expect(second.out).toMatch(new RegExp(`Port ${port} is already in use.*set PORT`));
    expect(second.out).not.toMatch(/\bat .+:\d+:\d+|"level"/);
  } finally {
    first.child.kill('SIGTERM');
    await first.exited;
  }
}, 60_000);
