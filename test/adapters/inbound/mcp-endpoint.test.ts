import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, READER_TOKEN } from '../../support/gateway.js';
import { MODERN_META, mcpHarness, rpcBody } from './mcp-harness.js';

// The endpoint's HTTP behaviour as raw requests show it: what the gateway does around the SDK (auth,
// Origin, RFC 9728 metadata, methods) and what the SDK answers on the wire for each revision.
const h = mcpHarness();
const { gateway, rpc } = h;
beforeAll(h.start);
afterAll(h.stop);

const publicBase = () => gateway.config.publicBaseUrl ?? `http://${gateway.config.host}:${gateway.config.port}`;

/** A 2026-07-28 request: the `_meta` envelope and the standard headers, as the revision requires. */
const modern = (
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  token: string | null = DEMO_TOKEN,
) =>
  rpc(
    { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: MODERN_META } },
    {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(params['name'] ? { 'mcp-name': String(params['name']) } : {}),
      ...headers,
    },
    token,
  );

/** The same, to another path (a toolset query). */
const modernAt = (path: string, method: string, params: Record<string, unknown> = {}) =>
  h.rpc(
    { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: MODERN_META } },
    {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(params['name'] ? { 'mcp-name': String(params['name']) } : {}),
    },
    DEMO_TOKEN,
    path,
  );

const initialize = (version: string) =>
  rpc({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

describe('MCP access control', () => {
  it('answers 401 without a token, naming the protected resource metadata', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, null);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${publicBase()}/.well-known/oauth-protected-resource/mcp", scope="files:read records:read workspaces:read crm:read web:read"`,
    );
    const refused = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, 'not-a-token');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await modern('server/discover', {}, {}, null)).status).toBe(401);
  });

  it('publishes RFC 9728 protected resource metadata', async () => {
    const res = await fetch(`${h.base()}/.well-known/oauth-protected-resource`);
    expect(res.status).toBe(200);
    const metadata = (await res.json()) as any;
    expect(metadata.resource).toBe(publicBase());
    expect(metadata.bearer_methods_supported).toEqual(['header']);
    expect(metadata.scopes_supported).toContain('crm:read');
    const forMcp = (await (await fetch(`${h.base()}/.well-known/oauth-protected-resource/mcp`)).json()) as any;
    expect(forMcp.resource).toBe(`${metadata.resource}/mcp`);
  });

  it('refuses a foreign Origin (and a rebinding page) with 403', async () => {
    for (const origin of ['https://evil.example', 'http://attacker.example:80']) {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { origin });
      expect(res.status, origin).toBe(403);
    }
    expect((await modern('tools/list', {}, { origin: 'https://evil.example' })).status).toBe(403);
  });

  it('answers GET and DELETE with 405, as a stateless server', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${h.base()}/mcp`, {
        method,
        headers: { authorization: `Bearer ${DEMO_TOKEN}`, accept: 'text/event-stream' },
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('passes the request id through, on SDK answers too', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'x-request-id': 'mcp-req-1' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('mcp-req-1');
  });
});

describe('2025-era requests (the SDK’s stateless legacy serving)', () => {
  it('initialize negotiates 2025-11-25 and echoes the older revisions, without a session id', async () => {
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      const res = await initialize(version);
      expect(res.status, version).toBe(200);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      const { result } = await rpcBody(res);
      expect(result.protocolVersion).toBe(version);
      expect(result.serverInfo.name).toBe('tool-gateway');
      expect(result.capabilities.tools).toBeDefined();
      expect(result.instructions).toContain('<group>_<tool>');
    }
  });

  it('answers a stateless tools/call with no resultType and no cache fields', async () => {
    const res = await rpc(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'crm_getContact', arguments: { contact_id: '101' } },
      },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    const { result } = await rpcBody(res);
    expect(result.content[0].type).toBe('text');
    expect(result.resultType).toBeUndefined();
    const list = (await rpcBody(await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/list' }))).result;
    expect(list.ttlMs).toBeUndefined();
  });
});

describe('2026-07-28 requests (served natively by the SDK)', () => {
  it('server/discover names the revision, the capabilities and a cache hint, with no initialize', async () => {
    const res = await modern('server/discover');
    expect(res.status).toBe(200);
    const { result } = await rpcBody(res);
    expect(result.resultType).toBe('complete');
    // The SDK lists the modern revisions it serves here; 2025-era clients reach the same endpoint by initialize.
    expect(result.supportedVersions).toEqual(['2026-07-28']);
    expect(result.capabilities.tools).toBeDefined();
    expect(result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('tool-gateway');
    expect(result.ttlMs).toBeGreaterThan(0);
  });

  it('tools/list is cacheable per caller: resultType, a private ttl, and a catalogue version per visible list', async () => {
    const list = (await rpcBody(await modern('tools/list'))).result;
    expect(list.resultType).toBe('complete');
    expect(list.cacheScope).toBe('private');
    expect(list.ttlMs).toBe(300_000);
    expect(list.tools.map((t: any) => t.name)).toEqual(gateway.listTools().map((t) => t.name));
    const version = list._meta['tool-gateway/catalogue'];
    expect(version).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await rpcBody(await modern('tools/list'))).result._meta['tool-gateway/catalogue']).toBe(version);
    // A token that may only read CRM contacts and trace skips sees only the tools it may call.
    const reader = (await rpcBody(await modern('tools/list', {}, {}, READER_TOKEN))).result;
    const readable = gateway
      .listTools()
      .filter((t) => t.permission === 'crm:read' || t.permission === 'skiptrace:read')
      .map((t) => t.name);
    expect(readable.length).toBeGreaterThan(0);
    expect(reader.tools.map((t: any) => t.name)).toEqual(readable);
    expect(reader._meta['tool-gateway/catalogue']).not.toBe(version);
  });

  it('limits a connection to toolsets: /mcp?groups= lists and calls only those groups', async () => {
    const path = '/mcp?groups=crm,skiptrace';
    const listed = (await rpcBody(await modernAt(path, 'tools/list'))).result.tools.map((t: any) => t.name);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((n: string) => n.startsWith('crm_') || n.startsWith('skiptrace_'))).toBe(true);
    expect(listed).toContain('crm_getContact');
    const inside = await rpcBody(
      await modernAt(path, 'tools/call', { name: 'crm_getContact', arguments: { contact_id: '101' } }),
    );
    expect(inside.result.isError).not.toBe(true);
    const outside = await rpcBody(await modernAt(path, 'tools/call', { name: 'records_listApps', arguments: {} }));
    expect(outside.error.code).toBe(-32602);
    expect(outside.error.message).toContain('not enabled on this connection');
    const bad = await modernAt('/mcp?groups=crm,nope', 'tools/list');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.message).toContain('"nope" is not a group');
  });

  it('gives outline output schemas by default, full or none with /mcp?output_schemas=', async () => {
    const list = async (query: string) => {
      const r = await rpcBody(await modernAt(`/mcp?groups=records${query}`, 'tools/list'));
      return r.result.tools.find((t: any) => t.name === 'records_getRecordComment');
    };
    const outline = await list('');
    const full = await list('&output_schemas=full');
    const none = await list('&output_schemas=none');
    // the comment's author is an object in the outline; the full schema names its members
    expect(outline.outputSchema.properties.created_by).toEqual({ type: 'object' });
    expect(full.outputSchema.properties.created_by.properties.user_id).toEqual({ type: 'number' });
    expect(none.outputSchema).toBeUndefined();
    expect(none.inputSchema).toEqual(outline.inputSchema);
    const bad = await modernAt('/mcp?output_schemas=everything', 'tools/list');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.message).toContain('"output_schemas" must be one of outline, full, none');
  });

  it('tools/call answers with resultType; failures are isError results, an unknown tool is -32602', async () => {
    const call = (
      await rpcBody(await modern('tools/call', { name: 'crm_getContact', arguments: { contact_id: '101' } }))
    ).result;
    expect(call.resultType).toBe('complete');
    expect(call.structuredContent).toBeDefined();
    const forbidden = await rpcBody(
      await modern('tools/call', { name: 'crm_deleteContact', arguments: { contact_id: '101' } }, {}, READER_TOKEN),
    );
    expect(forbidden.result.isError).toBe(true);
    expect(forbidden.result.content[0].text).toContain('"crm:destructive"');
    const unknown = await rpcBody(await modern('tools/call', { name: 'crm_getContacts', arguments: {} }));
    expect(unknown.error.code).toBe(-32602);
    expect(unknown.error.message).toContain('getContact');
  });

  it('refuses an unknown revision (-32022) and headers that disagree with the body (-32020)', async () => {
    const unknown = await rpc(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/list',
        params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      },
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
    );
    expect(unknown.status).toBe(400);
    const body = await rpcBody(unknown);
    expect(body.error.code).toBe(-32022);
    expect(body.error.data.supported).toContain('2026-07-28');
    const mismatch = await modern('tools/list', {}, { 'mcp-method': 'tools/call' });
    expect(mismatch.status).toBe(400);
    expect((await rpcBody(mismatch)).error.code).toBe(-32020);
  });

  it('refuses an initialize sent under the 2026-07-28 envelope', async () => {
    const res = await modern('initialize', {
      protocolVersion: '2026-07-28',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    const body = await rpcBody(res);
    expect(body.error).toBeDefined();
  });
});
