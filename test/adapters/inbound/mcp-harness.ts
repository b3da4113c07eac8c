import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEMO_TOKEN, testGateway } from '../../support/gateway.js';

/** What the scenario tests need from a client, whichever SDK and revision it speaks. */
export interface McpCaller {
  readonly era: 'modern' | 'legacy';
  listTools(): Promise<{ tools: any[] }>;
  callTool(params: {
    name: string;
    arguments?: Record<string, unknown>;
    _meta?: Record<string, unknown>;
  }): Promise<any>;
  serverName(): string | undefined;
  close(): Promise<void>;
}

export type ClientKind = 'v2 client, 2026-07-28' | 'v1 client, 2025-11-25';
export const CLIENT_KINDS: readonly ClientKind[] = ['v2 client, 2026-07-28', 'v1 client, 2025-11-25'];

/** A gateway on a real socket (the clients speak real HTTP) and the clients connected to it. */
export const mcpHarness = (env: Record<string, string> = {}) => {
  const gateway = testGateway({}, { RATE_LIMIT_PER_MINUTE: '100000', ...env });
  let server: ServerType | undefined;
  let base = '';
  const open: McpCaller[] = [];

  const start = async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: gateway.http.fetch, port: 0, hostname: '127.0.0.1', autoCleanupIncoming: false }, () =>
        resolve(),
      );
    });
    base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  };

  const stop = async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await new Promise((resolve) => server?.close(resolve));
    await gateway.close();
  };

  /** The official v2 client pinned to 2026-07-28, or the v1 client (2025-11-25 initialize handshake). */
  const connect = async (
    kind: ClientKind,
    token: string = DEMO_TOKEN,
    headers: Record<string, string> = {},
  ): Promise<McpCaller> => {
    const url = new URL(`${base}/mcp`);
    const requestInit = { headers: { authorization: `Bearer ${token}`, ...headers } };
    let caller: McpCaller;
    if (kind === 'v2 client, 2026-07-28') {
      const client = new ModernClient(
        { name: 'gateway-test-v2', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit }));
      if (client.getProtocolEra() !== 'modern')
        throw new Error(`expected the modern era, got ${client.getProtocolEra()}`);
      caller = {
        era: 'modern',
        listTools: () => client.listTools(undefined, { cacheMode: 'bypass' }),
        callTool: (p) => client.callTool(p),
        serverName: () => client.getServerVersion()?.name,
        close: () => client.close(),
      };
    } else {
      const client = new V1Client({ name: 'gateway-test-v1', version: '1.0.0' });
      await client.connect(new V1Transport(url, { requestInit }));
      caller = {
        era: 'legacy',
        listTools: () => client.listTools(),
        callTool: (p) => client.callTool(p),
        serverName: () => client.getServerVersion()?.name,
        close: () => client.close(),
      };
    }
    open.push(caller);
    // As a real client does: tools/list first, so that every call is checked against the tool's outputSchema
    // by the SDK (a client that never listed the tools skips that check, which hid issue 27).
    await caller.listTools();
    return caller;
  };

  /** A raw JSON-RPC POST, as a hand-written client would send it. */
  const rpc = (body: unknown, headers: Record<string, string> = {}, token: string | null = DEMO_TOKEN, path = '/mcp') =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: JSON.stringify(body),
    });

  return { gateway, start, stop, connect, rpc, base: () => base };
};

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-client', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A JSON-RPC answer, whether the SDK sent it as JSON or as one SSE `message` event. */
export const rpcBody = async (res: Response): Promise<any> => {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text);
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter(Boolean);
  return JSON.parse(data[data.length - 1]!);
};

/** The first text block of a tool result. */
export const textOf = (result: any): string => {
  const block = result.content[0];
  if (block.type !== 'text') throw new Error(`expected a text block, got ${block.type}`);
  return block.text as string;
};
