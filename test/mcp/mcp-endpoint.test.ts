import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRM_ALL_TOKEN, DEMO_TOKEN, READER_TOKEN, post, request, testGateway } from '../support/gateway.js';

const gateway = testGateway({}, { RATE_LIMIT_PER_MINUTE: '100000' });
let server: ServerType;
let base: string;
const clients: Client[] = [];

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve({ fetch: gateway.http.fetch, port: 0, hostname: '127.0.0.1', autoCleanupIncoming: false }, () =>
      resolve(),
    );
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await new Promise((resolve) => server.close(resolve));
  await gateway.close();
});

const connect = async (token: string, headers: Record<string, string> = {}): Promise<Client> => {
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
};

const text = (result: unknown): string => {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  expect(content[0]!.type).toBe('text');
  return content[0]!.text!;
};

const jsonOf = (res: Response): Promise<any> => res.json();

/** A raw JSON-RPC POST, as any client (or a client of another revision) would send it. */
const rpc = (body: unknown, headers: Record<string, string> = {}, token: string | null = DEMO_TOKEN) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });

describe('MCP over Streamable HTTP, with the SDK client', () => {
  it('negotiates the newest revision the SDK knows, statelessly (no session id)', async () => {
    const client = await connect(DEMO_TOKEN);
    expect(client.getServerVersion()).toMatchObject({ name: 'tool-gateway' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const res = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect((await jsonOf(res)).result.protocolVersion).toBe('2025-11-25');
  });

  it('lists every tool in the registry order, with the listing schema and explicit annotations', async () => {
    const client = await connect(DEMO_TOKEN);
    const { tools } = await client.listTools();
    const listing = gateway.listTools();
    expect(tools.map((t) => t.name)).toEqual(listing.map((t) => t.name));
    for (const [i, tool] of tools.entries()) {
      const l = listing[i]!;
      expect(tool.title).toBe(l.title);
      expect(tool.description).toBe(l.description);
      expect(tool.inputSchema).toEqual(l.inputSchema);
      const kind = l.annotations[0];
      expect(tool.annotations, tool.name).toEqual({
        title: l.title,
        readOnlyHint: kind === 'Read',
        destructiveHint: kind === 'Destructive',
        idempotentHint: l.annotations.includes('Idempotent'),
        openWorldHint: l.openWorldHint,
      });
    }
    // The same shape as the mcp dialect of the REST listing.
    const dialect = await request(gateway, 'GET', '/v1/tools?dialect=mcp');
    expect(JSON.parse(JSON.stringify(tools))).toEqual(dialect.body.data.tools);
  });

  it('calls a tool: the text as a text block and the JSON payload as structuredContent, equal to REST', async () => {
    const client = await connect(DEMO_TOKEN);
    const args = { query: 'maria', limit: 2 };
    const result = await client.callTool({ name: 'crm_searchContacts', arguments: args });
    const restText = await post(gateway, '/v1/tools/crm/searchContacts', args);
    const restJson = await post(gateway, '/v1/tools/crm/searchContacts?format=json', args);
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe(restText.body.data);
    expect(result.structuredContent).toEqual(restJson.body.data);
  });

  it('reports a bad argument as an isError result with the same actionable message as REST', async () => {
    const client = await connect(DEMO_TOKEN);
    const result = await client.callTool({ name: 'crm_searchContacts', arguments: { limit: 500 } });
    const rest = await post(gateway, '/v1/tools/crm/searchContacts', { limit: 500 });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(rest.body.error.message);
    expect(text(result)).toContain('limit');
    expect(result.structuredContent).toEqual({ error: rest.body.error });
  });

  it('reports a missing permission as an isError result naming the permission', async () => {
    const client = await connect(READER_TOKEN);
    const result = await client.callTool({
      name: 'crm_createContact',
      arguments: { values: { email: 'nobody@example.com' } },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('"crm:write"');
    expect((result.structuredContent as any).error.code).toBe('FORBIDDEN');
    // The same token may still read.
    const read = await client.callTool({ name: 'crm_getContact', arguments: { contact_id: '101' } });
    expect(read.isError).toBeFalsy();
  });

  it('reports a missing record as an isError result, and an unknown tool as a protocol error', async () => {
    const client = await connect(DEMO_TOKEN);
    const missing = await client.callTool({ name: 'crm_getContact', arguments: { contact_id: '999999' } });
    expect(missing.isError).toBe(true);
    expect((missing.structuredContent as any).error.code).toBe('NOT_FOUND');
    const unknown = await client.callTool({ name: 'crm_getContacts', arguments: {} }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(-32602);
    expect((unknown as McpError).message).toContain('getContact');
  });

  it('replays a write called twice with the same idempotency key', async () => {
    const client = await connect(CRM_ALL_TOKEN);
    const call = () =>
      client.callTool({
        name: 'crm_createContact',
        arguments: { values: { email: 'mcp-idem@example.com' } },
        _meta: { idempotency_key: 'mcp-idem-1' },
      });
    const first = await call();
    const second = await call();
    expect(first.isError).toBeFalsy();
    expect(second.structuredContent).toEqual(first.structuredContent);
    const third = await client.callTool({
      name: 'crm_createContact',
      arguments: { values: { email: 'mcp-idem@example.com' } },
    });
    expect((third.structuredContent as any).error.code).toBe('CONFLICT');
  });
});

describe('MCP access control', () => {
  it('answers 401 without a token, naming the protected resource metadata', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, null);
    expect(res.status).toBe(401);
    const metadataUrl = `${gateway.config.publicBaseUrl ?? `http://${gateway.config.host}:${gateway.config.port}`}/.well-known/oauth-protected-resource`;
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const refused = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, 'not-a-token');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await expect(connect('not-a-token')).rejects.toThrow();
  });

  it('publishes RFC 9728 protected resource metadata', async () => {
    const res = await fetch(`${base}/.well-known/oauth-protected-resource`);
    expect(res.status).toBe(200);
    const metadata = await jsonOf(res);
    expect(metadata.resource).toBe(
      gateway.config.publicBaseUrl ?? `http://${gateway.config.host}:${gateway.config.port}`,
    );
    expect(metadata.bearer_methods_supported).toEqual(['header']);
    expect(metadata.scopes_supported).toContain('crm:read');
    const forMcp = await jsonOf(await fetch(`${base}/.well-known/oauth-protected-resource/mcp`));
    expect(forMcp.resource).toBe(`${metadata.resource}/mcp`);
  });

  it('refuses a foreign Origin with 403 and accepts the gateway’s own', async () => {
    const foreign = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    await expect(connect(DEMO_TOKEN, { origin: 'https://evil.example' })).rejects.toThrow();
    // A rebinding page claims a loopback port under its own host name: not the same as the host it reached.
    const rebound = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { origin: 'http://attacker.example:80' },
    );
    expect(rebound.status).toBe(403);
    const own = await connect(DEMO_TOKEN, { origin: base });
    expect((await own.listTools()).tools.length).toBe(gateway.listTools().length);
  });

  it('answers GET and DELETE with 405, as a stateless server', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp`, {
        method,
        headers: { authorization: `Bearer ${DEMO_TOKEN}`, accept: 'text/event-stream' },
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});

describe('protocol revisions', () => {
  const modern = (
    method: string,
    params: Record<string, unknown> = {},
    headers: Record<string, string> = {},
    token: string = DEMO_TOKEN,
  ) =>
    rpc(
      {
        jsonrpc: '2.0',
        id: 7,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'modern-client', version: '1.0.0' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(params['name'] ? { 'mcp-name': String(params['name']) } : {}),
        ...headers,
      },
      token,
    );

  it('the SDK negotiates 2025-11-25 and echoes the older revisions it knows', async () => {
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    for (const version of ['2025-11-25', '2025-06-18']) {
      const res = await rpc({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      expect((await jsonOf(res)).result.protocolVersion).toBe(version);
    }
  });

  it('2026-07-28: server/discover names both revisions, without an initialize handshake', async () => {
    const res = await modern('server/discover');
    expect(res.status).toBe(200);
    const { result } = await jsonOf(res);
    expect(result.resultType).toBe('complete');
    expect(result.supportedVersions).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
    expect(result.capabilities.tools).toBeDefined();
    expect(result.serverInfo.name).toBe('tool-gateway');
    expect(result.ttlMs).toBeGreaterThan(0);
  });

  it('2026-07-28: tools/list and tools/call answer like the 2025 revision, with resultType and cache hints', async () => {
    const client = await connect(DEMO_TOKEN);
    const list = await jsonOf(await modern('tools/list'));
    expect(list.result.resultType).toBe('complete');
    expect(list.result.cacheScope).toBe('public');
    expect(list.result.tools).toEqual(JSON.parse(JSON.stringify((await client.listTools()).tools)));

    const args = { contact_id: '101' };
    const call = await jsonOf(await modern('tools/call', { name: 'crm_getContact', arguments: args }));
    const legacy = await client.callTool({ name: 'crm_getContact', arguments: args });
    expect(call.result.resultType).toBe('complete');
    expect(call.result.content).toEqual(legacy.content);
    expect(call.result.structuredContent).toEqual(legacy.structuredContent);

    const forbidden = await jsonOf(
      await modern('tools/call', { name: 'crm_deleteContact', arguments: args }, {}, READER_TOKEN),
    );
    expect(forbidden.result.isError).toBe(true);
    expect(forbidden.result.content[0].text).toContain('"crm:destructive"');
  });

  it('2026-07-28: refuses an unknown revision and headers that disagree with the body', async () => {
    const unknown = await rpc(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      },
      { 'mcp-protocol-version': '2099-01-01' },
    );
    expect(unknown.status).toBe(400);
    const body = await jsonOf(unknown);
    expect(body.error.code).toBe(-32022);
    expect(body.error.data.supported).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
    const mismatch = await modern('tools/list', {}, { 'mcp-method': 'tools/call' });
    expect(mismatch.status).toBe(400);
    expect((await jsonOf(mismatch)).error.code).toBe(-32001);
    const noToken = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'server/discover' },
      { 'mcp-protocol-version': '2026-07-28' },
      null,
    );
    expect(noToken.status).toBe(401);
  });
});
