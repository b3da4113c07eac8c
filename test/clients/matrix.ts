// The client matrix (issue 27, "Real clients first"): real MCP clients drive the BUILT server over a real
// socket through the sequence an agent host runs: connect and list the tools, then a success, a tool error,
// a bad argument and an unknown tool. One line per client and step; exits 1 on any failure.
//
//   npm run build && npx tsx test/clients/matrix.ts
//   GATEWAY_ENTRY=/elsewhere/dist/composition/main.js npx tsx test/clients/matrix.ts   (another build)
//   GATEWAY_URL=http://127.0.0.1:8787/mcp GATEWAY_TOKEN=... npx tsx test/clients/matrix.ts   (a running server)
//
// Here the order of the run; report.ts writes the lines, sequence.ts is the steps every client runs,
// clients.ts the clients, server-checks.ts the 401 and conformance checks, server.ts boots the server.
//
// Clients: the official TypeScript SDK v1 (@modelcontextprotocol/sdk) and v2 (@modelcontextprotocol/client,
// both negotiation modes) over Streamable HTTP; the MCP Inspector's CLI (@modelcontextprotocol/inspector-cli,
// one process per step, as a person runs it); mcp-remote (the stdio-to-remote proxy Claude Desktop users
// run), driven over stdio by the v1 SDK's StdioClientTransport; and the official conformance suite's server
// scenarios (its CLI needs Node 22 or later: skipped, with a line saying so, on Node 20). mcp-remote runs
// twice: with a bearer header, and with none, signing in through the gateway's own authorization server in
// a scripted browser (oauth-browser.ts). One line is a fact rather than a check: the 401 an unauthenticated
// MCP request gets. Issue 40: the SDK clients also run a batch as an MCP task (tasks.ts): v1 on 2025-11-25,
// v2 on 2025-11-25 and on 2026-07-28 (where the v2 client refuses a task answer: an INFO line says so, and
// its other task steps run on a task the same caller started over REST).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspector, mcpRemote, mcpRemoteSignedIn, sdkV1, sdkV2 } from './clients.js';
import { oauthHost } from './oauth-hosts.js';
import { failureCount, line } from './report.js';
import { runClient } from './sequence.js';
import { conformance, unauthenticated } from './server-checks.js';
import { runStepUp } from './step-up.js';
import { runTasks, v1Tasks, v2LegacyTasks, v2ModernTasks } from './tasks.js';
import { boot } from './server.js';

const started = Date.now();

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
    await runClient('mcp-remote 0.15.1 (no header: OAuth sign-in)', mcpRemoteSignedIn(url, token, configDir));
    // Issue 37: OAuth clients that sign in with the read scopes of the first challenge, then step up to a
    // write and a delete (a new consent each), as the SDK hosts and mcp-remote do.
    await runStepUp('sdk v2 auto (OAuth step-up)', oauthHost(url, token, 'v2 auto'));
    await runStepUp('sdk v2 legacy (OAuth step-up)', oauthHost(url, token, 'v2 legacy'));
    await runStepUp('sdk v1 (OAuth step-up)', oauthHost(url, token, 'v1'));
    await runStepUp('mcp-remote 0.15.1 (OAuth step-up)', mcpRemoteSignedIn(url, token, join(configDir, 'step-up')));
    // Issue 40: a batch as an MCP task, per client and revision.
    await runTasks('sdk v1 (2025-11-25) tasks', v1Tasks(url, token));
    await runTasks('sdk v2 legacy (2025-11-25) tasks', v2LegacyTasks(url, token));
    const modern = 'sdk v2 auto (2026-07-28) tasks';
    let told = false;
    await runTasks(
      modern,
      v2ModernTasks(url, token, (said) => {
        if (told) return;
        told = true;
        if (said.startsWith('modern era') && said.includes('UNSUPPORTED_RESULT_TYPE'))
          line(
            'INFO',
            modern,
            'task refused',
            `the v2 client refuses the task answer (${said}); the steps here use a task the same caller started over REST`,
          );
        else
          line(
            'FAIL',
            modern,
            'task refused',
            `expected the v2 client to refuse the task answer on 2026-07-28 (docs/clients.md says so); it did: ${said}`,
          );
      }),
    );
    await conformance(url, token);
  } finally {
    server?.kill('SIGTERM');
    rmSync(configDir, { recursive: true, force: true });
  }
  process.stdout.write(
    `${failureCount() ? `${failureCount()} FAILED` : 'all passed'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
  process.exit(failureCount() ? 1 : 0);
};

main().catch((e: unknown) => {
  process.stderr.write(`matrix: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
