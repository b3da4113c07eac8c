import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_META_KEY } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { CLIENT_KINDS, mcpHarness } from './mcp-harness.js';

// The confirm flow over MCP, with the official clients: the unconfirmed delete is an isError result that
// carries the preview and the token; the same call with the token runs.
const h = mcpHarness({
  GATEWAY_CONFIRM_DESTRUCTIVE: 'true',
  GATEWAY_CONFIRM_SECRET: 'a-confirm-secret-of-at-least-32-characters',
});
beforeAll(h.start);
afterAll(h.stop);

describe.each(CLIENT_KINDS)('confirmed deletes over MCP (%s)', (kind) => {
  const contact = kind.startsWith('v2') ? '104' : '105';

  it('asks for confirmation, then deletes with the token', async () => {
    const client = await h.connect(kind);
    const ask = await client.callTool({ name: 'crm_deleteContact', arguments: { contact_id: contact } });
    expect(ask.isError).toBe(true);
    expect(ask.structuredContent).toBeUndefined();
    expect(ask._meta[ERROR_META_KEY].code).toBe('CONFIRMATION_REQUIRED');
    expect(ask.content[0].text).toContain('Nothing was changed');
    const token = ask._meta[ERROR_META_KEY].details.confirm_token as string;
    expect(ask.content[0].text).toContain(token);
    const still = await client.callTool({ name: 'crm_getContact', arguments: { contact_id: contact } });
    expect(still.isError).not.toBe(true);

    const done = await client.callTool({
      name: 'crm_deleteContact',
      arguments: { contact_id: contact, confirm_token: token },
    });
    expect(done.isError).not.toBe(true);
    const gone = await client.callTool({ name: 'crm_getContact', arguments: { contact_id: contact } });
    expect(gone.isError).toBe(true);
  });

  it('lists dry_run and confirm_token on Destructive tools only', async () => {
    const client = await h.connect(kind);
    const { tools } = await client.listTools();
    const del = tools.find((t: any) => t.name === 'crm_deleteContact');
    expect(Object.keys(del.inputSchema.properties)).toEqual(expect.arrayContaining(['dry_run', 'confirm_token']));
    const read = tools.find((t: any) => t.name === 'crm_getContact');
    expect(read.inputSchema.properties.dry_run).toBeUndefined();
  });
});
