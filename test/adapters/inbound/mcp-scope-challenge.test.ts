import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READER_TOKEN } from '../../support/gateway.js';
import { MODERN_META, mcpHarness, rpcBody } from './mcp-harness.js';

// Step-up authorization on /mcp (MCP authorization, "scope challenge"): an OAuth access token whose scope
// lacks what a tool needs gets 403 with error="insufficient_scope" and the scope to ask for; a credential
// that cannot be re-authorized (an API key) gets the tool's own isError answer instead.

const SECRET = 'a-shared-secret-of-at-least-32-characters!';
const h = mcpHarness({ JWT_SECRET: SECRET, JWT_AUDIENCE: 'tool-gateway' });
beforeAll(h.start);
afterAll(h.stop);

const jwt = (scope: string) =>
  new SignJWT({ sub: 'agent-7', aud: 'tool-gateway', scope })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));

const call = (name: string, args: Record<string, unknown>, token: string) =>
  h.rpc(
    { jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name, arguments: args, _meta: MODERN_META } },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    token,
  );

describe('MCP scope challenge', () => {
  it('answers 403 insufficient_scope, naming the missing scope, to an OAuth token', async () => {
    const token = await jwt('crm:read');
    const allowed = await call('crm_getContact', { contact_id: '101' }, token);
    expect(allowed.status).toBe(200);

    const denied = await call('crm_deleteContact', { contact_id: '101' }, token);
    expect(denied.status).toBe(403);
    const challenge = denied.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="crm:destructive"');
    expect(challenge).toMatch(/resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/);
    const body = (await denied.json()) as any;
    expect(body.id).toBe(42);
    expect(body.error.message).toContain('crm:destructive');

    // Nothing was deleted: the contact is still there for a token that may read it.
    const still = await call('crm_getContact', { contact_id: '101' }, token);
    expect(((await still.json()) as any).result.isError).not.toBe(true);
  });

  it('gives an API key the tool error instead (it cannot be re-authorized)', async () => {
    const res = await call('crm_deleteContact', { contact_id: '101' }, READER_TOKEN);
    expect(res.status).toBe(200);
    expect(res.headers.get('www-authenticate')).toBeNull();
    const body = (await res.json()) as any;
    expect(body.result.isError).toBe(true);
    expect(body.result.content[0].text).toContain('crm:destructive');
  });

  it('tells a 2026-07-28 client not to keep the tools list of a token that may still step up (issue 37)', async () => {
    const list = async (token: string) =>
      (
        await rpcBody(
          await h.rpc(
            { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: MODERN_META } },
            { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
            token,
          ),
        )
      ).result;
    // A read-only OAuth token: after a step-up the list grows, and no notification could say so.
    const reader = await list(await jwt('crm:read'));
    expect(reader.tools.map((t: { name: string }) => t.name)).toContain('crm_getContact');
    expect(reader.ttlMs).toBe(0);
    // A token holding every permission has nothing to step up to: its list is kept as usual.
    expect((await list(await jwt('*'))).ttlMs).toBe(300_000);
    // An API key cannot step up: its list is kept as usual.
    expect((await list(READER_TOKEN)).ttlMs).toBe(300_000);
    // A 2025-era client gets no cache fields at all.
    const legacy = await rpcBody(
      await h.rpc(
        { jsonrpc: '2.0', id: 8, method: 'tools/list' },
        { 'mcp-protocol-version': '2025-11-25' },
        await jwt('crm:read'),
      ),
    );
    expect(legacy.result.ttlMs).toBeUndefined();
  });
});
