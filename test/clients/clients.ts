// The matrix's clients, each opening a Session the shared sequence drives: the TypeScript SDK v1 and v2 over
// Streamable HTTP, the MCP Inspector's CLI (one process per step) and mcp-remote over stdio.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { STEP_TIMEOUT_MS, withTimeout } from './report.js';
import { outcomeOf, type Session } from './sequence.js';

const requireHere = createRequire(import.meta.url);
const INSPECTOR_CLI = join(
  dirname(requireHere.resolve('@modelcontextprotocol/inspector-cli/package.json')),
  'build/cli.js',
);
const MCP_REMOTE = join(dirname(requireHere.resolve('mcp-remote/package.json')), 'dist/proxy.js');

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const sdkV1 = (url: string, token: string) => async (): Promise<Session> => {
  const client = new V1Client({ name: 'matrix-sdk-v1', version: '1.0.0' });
  await client.connect(new V1Transport(new URL(url), { requestInit: { headers: bearer(token) } }));
  return {
    list: async () => (await client.listTools()).tools.map((t) => t.name),
    call: (name, args) => outcomeOf(client.callTool({ name, arguments: args })),
    close: () => client.close(),
  };
};

export const sdkV2 = (url: string, token: string, mode: 'auto' | 'legacy') => async (): Promise<Session> => {
  const client = new V2Client({ name: `matrix-sdk-v2-${mode}`, version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new V2Transport(new URL(url), { requestInit: { headers: bearer(token) } }));
  return {
    list: async () => (await client.listTools()).tools.map((t) => t.name),
    call: (name, args) => outcomeOf(client.callTool({ name, arguments: args })),
    close: () => client.close(),
  };
};

/** Runs a process to its end; stdout and stderr kept apart. */
export const run = (
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
) =>
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
export const inspector = (url: string, token: string) => async (): Promise<Session> => {
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
export const mcpRemote =
  (
    url: string,
    extraArgs: readonly string[],
    configDir: string,
    stderrSink?: (s: string) => void,
    env: Readonly<Record<string, string>> = {},
  ) =>
  async (): Promise<Session> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_REMOTE, url, ...extraArgs],
      // Its OAuth state (client registrations, tokens) goes here rather than to ~/.mcp-auth.
      env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: configDir, ...env },
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

/**
 * mcp-remote given no header, as most users run it: it finds the gateway's authorization server from the
 * 401, registers, and opens a browser at the authorization URL. The "browser" here is oauth-browser.ts (a
 * person signing in with `key` and consenting), started through $BROWSER and an `xdg-open` first on PATH,
 * which is how the `open` package mcp-remote uses finds a browser on Linux.
 */
export const mcpRemoteSignedIn = (url: string, key: string, parentDir: string) => {
  // its own config dir: no state of the header run is shared
  const configDir = join(parentDir, 'oauth');
  const bin = join(configDir, 'bin');
  mkdirSync(bin, { recursive: true });
  const browser = join(bin, 'xdg-open');
  const log = join(configDir, 'browser.log');
  const script = fileURLToPath(new URL('./oauth-browser.ts', import.meta.url));
  writeFileSync(browser, `#!/bin/sh\nexec "${process.execPath}" --import tsx "${script}" "$1" >>"${log}" 2>&1\n`, {
    mode: 0o755,
  });
  let stderr = '';
  const open = mcpRemote(url, ['--transport', 'http-only'], configDir, (s) => (stderr += s), {
    BROWSER: browser,
    PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}`,
    MATRIX_SIGN_IN_KEY: key,
  });
  return async (): Promise<Session> => {
    try {
      return await open();
    } catch (e) {
      const said = stderr
        .split('\n')
        .filter((l) =>
          /Discovered|Registration|Fatal error|Connection error|Received error|oauth-browser|Authorization/.test(l),
        )
        .slice(-6)
        .join(' | ');
      const browsed = existsSync(log)
        ? readFileSync(log, 'utf8').trim().split('\n').slice(-3).join(' | ')
        : 'not opened';
      throw new Error(`${(e as Error).message}${said ? ` | ${said}` : ''} | browser: ${browsed}`, { cause: e });
    }
  };
};
