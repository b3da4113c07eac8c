import { leanSchema } from '../../../adapters/inbound/dialects/tool-dialects.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRM_ALL_TOKEN, DEMO_TOKEN, READER_TOKEN, post, request } from '../../support/gateway.js';
import { CLIENT_KINDS, mcpHarness, textOf } from './mcp-harness.js';
import { ERROR_META_KEY } from '../../../adapters/inbound/mcp/mcp-tools.js';

// The MCP scenarios, run by real clients of both revisions against /mcp on a socket: the official v2
// client pinned to 2026-07-28 and the v1 client speaking 2025-11-25 (initialize, no session id).
describe.each(CLIENT_KINDS)('MCP scenarios with the %s', (kind) => {
  const tag = kind.slice(0, 2);
  const h = mcpHarness();
  const { gateway } = h;
  beforeAll(h.start);
  afterAll(h.stop);

  it('connects statelessly and names the server', async () => {
    const client = await h.connect(kind);
    expect(client.era).toBe(kind.startsWith('v2') ? 'modern' : 'legacy');
    expect(client.serverName()).toBe('tool-gateway');
  });

  it('lists every tool in the registry order, with the listing schema and explicit annotations', async () => {
    const client = await h.connect(kind);
    const { tools } = await client.listTools();
    const listing = gateway.listTools();
    expect(tools.map((t) => t.name)).toEqual(listing.map((t) => t.name));
    for (const [i, tool] of tools.entries()) {
      const l = listing[i]!;
      expect(tool.title).toBe(l.title);
      expect(tool.description).toBe(l.description);
      expect(tool.inputSchema).toEqual(leanSchema(l.inputSchema));
      const first = l.annotations[0];
      expect(tool.annotations, tool.name).toEqual({
        ...(first === 'Read'
          ? { readOnlyHint: true }
          : { destructiveHint: first === 'Destructive', idempotentHint: l.annotations.includes('Idempotent') }),
        ...(l.openWorldHint ? {} : { openWorldHint: false }),
      });
    }
    // The same tools as the mcp dialect of the REST listing.
    const dialect = await request(gateway, 'GET', '/v1/tools?dialect=mcp');
    // 2026-07-28 has no `execution` member (tasks are an extension there: issue 40); the SDK leaves it out
    const dialectTools = (dialect.body.data.tools as Record<string, unknown>[]).map(({ execution, ...t }) =>
      kind.startsWith('v2') ? t : { ...t, ...(execution ? { execution } : {}) },
    );
    expect(JSON.parse(JSON.stringify(tools))).toEqual(dialectTools);
  });

  it('calls a tool: the text as a text block and the JSON payload as structuredContent, equal to REST', async () => {
    const client = await h.connect(kind);
    const args = { query: 'maria', limit: 2 };
    const result = await client.callTool({ name: 'crm_searchContacts', arguments: args });
    const restText = await post(gateway, '/v1/tools/crm/searchContacts', args);
    const restJson = await post(gateway, '/v1/tools/crm/searchContacts?format=json', args);
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(restText.body.data);
    expect(result.structuredContent).toEqual(restJson.body.data);
  });

  it('reports a bad argument as an isError result with the same actionable message as REST', async () => {
    const client = await h.connect(kind);
    const result = await client.callTool({ name: 'crm_searchContacts', arguments: { limit: 500 } });
    const rest = await post(gateway, '/v1/tools/crm/searchContacts', { limit: 500 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(rest.body.error.message);
    expect(textOf(result)).toContain('limit');
    // No structuredContent on an error (it would fail the outputSchema); the envelope is in _meta.
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta[ERROR_META_KEY]).toEqual(rest.body.error);
  });

  it('reports a missing permission as an isError result naming the permission; the token may still read', async () => {
    const client = await h.connect(kind, READER_TOKEN);
    const result = await client.callTool({
      name: 'crm_createContact',
      arguments: { values: { email: 'nobody@example.com' } },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('"crm:write"');
    expect(result._meta[ERROR_META_KEY].code).toBe('FORBIDDEN');
    const read = await client.callTool({ name: 'crm_getContact', arguments: { contact_id: '101' } });
    expect(read.isError).toBeFalsy();
  });

  it('reports a missing record as an isError result, and an unknown tool as a -32602 protocol error', async () => {
    const client = await h.connect(kind);
    const missing = await client.callTool({ name: 'crm_getContact', arguments: { contact_id: '999999' } });
    expect(missing.isError).toBe(true);
    expect(missing._meta[ERROR_META_KEY].code).toBe('NOT_FOUND');
    const unknown = await client.callTool({ name: 'crm_getContacts', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e as { code?: unknown; message?: string },
    );
    expect(unknown?.code).toBe(-32602);
    expect(unknown?.message).toContain('Did you mean "crm_getContact"?');
    expect(unknown?.message).toContain('crm_searchContacts');
    expect(unknown?.message).not.toMatch(/-32602.*-32602/);
  });

  it('replays a write called twice with the same idempotency key in _meta', async () => {
    const client = await h.connect(kind, CRM_ALL_TOKEN);
    const email = `mcp-idem-${tag}@example.com`;
    const call = () =>
      client.callTool({
        name: 'crm_createContact',
        arguments: { values: { email } },
        _meta: { idempotency_key: `mcp-idem-${tag}` },
      });
    const first = await call();
    const second = await call();
    expect(first.isError, textOf(first)).toBeFalsy();
    expect(second.structuredContent).toEqual(first.structuredContent);
    const third = await client.callTool({ name: 'crm_createContact', arguments: { values: { email } } });
    expect(third._meta[ERROR_META_KEY].code).toBe('CONFLICT');
  });

  it('replays a write called twice with the same Idempotency-Key header', async () => {
    const client = await h.connect(kind, CRM_ALL_TOKEN, { 'idempotency-key': `mcp-hdr-${tag}` });
    const email = `mcp-hdr-${tag}@example.com`;
    const first = await client.callTool({ name: 'crm_createContact', arguments: { values: { email } } });
    const second = await client.callTool({ name: 'crm_createContact', arguments: { values: { email } } });
    expect(first.isError, textOf(first)).toBeFalsy();
    expect(second.structuredContent).toEqual(first.structuredContent);
  });

  it('is refused without a valid token (401 naming the protected resource metadata)', async () => {
    await expect(h.connect(kind, 'not-a-token')).rejects.toThrow();
    const res = await h.rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, 'not-a-token');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata="');
  });

  it('is refused from a foreign Origin and served from the gateway’s own', async () => {
    await expect(h.connect(kind, DEMO_TOKEN, { origin: 'https://evil.example' })).rejects.toThrow();
    const own = await h.connect(kind, DEMO_TOKEN, { origin: h.base() });
    expect((await own.listTools()).tools.length).toBe(gateway.listTools().length);
  });
});
