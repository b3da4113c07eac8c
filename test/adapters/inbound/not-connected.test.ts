import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../support/gateway.js';
import { CLIENT_KINDS, mcpHarness } from './mcp-harness.js';

// A tenant other than "default" never acts through the environment's vendor credentials: they are the
// default tenant's connection. Until the tenant connects the vendor, its tools answer NOT_CONNECTED with
// a link a person can open, the same way over REST, the tool-call form and MCP.

const ACME = 'token-acme-0123456789';
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-not-connected-'));
const h = mcpHarness({
  GATEWAY_DATA_DIR: dataDir,
  CRM_BACKEND: 'hubspot',
  HUBSPOT_ACCESS_TOKEN: 'pat-na1-environment-token',
  HUBSPOT_BASE_URL: 'http://127.0.0.1:9',
  PUBLIC_BASE_URL: 'https://gateway.example',
  GATEWAY_API_KEYS: JSON.stringify([{ name: 'acme-bot', token: ACME, permissions: ['*'], tenant: 'acme' }]),
});
beforeAll(h.start);
afterAll(async () => {
  await h.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

// A link the caller's person opens and signs in on: it names the tenant and the caller in a sealed, expiring ticket.
const CONNECT_URL = /^https:\/\/gateway\.example\/connect\/hubspot\?ticket=[\w.%-]+$/;

describe('NOT_CONNECTED', () => {
  it('answers over REST and the tool-call form with the vendor and the connect link', async () => {
    const rest = await request(h.gateway, 'POST', '/v1/tools/crm/getContact', {
      body: { contact_id: '101' },
      token: ACME,
    });
    expect(rest.status).toBe(409);
    const link = rest.body.error.details.connect_url as string;
    expect(link).toMatch(CONNECT_URL);
    expect(rest.body.error).toEqual({
      code: 'NOT_CONNECTED',
      message: `HubSpot is not connected for this workspace. Ask the user to open ${link} (they sign in to the gateway there; the link works for them only).`,
      details: { vendor: 'hubspot', connect_url: link, connection_status: 'not_connected' },
    });
    const form = await request(h.gateway, 'POST', '/v1/tools/call', {
      body: { name: 'crm_searchContacts', arguments: { query: 'maria' } },
      token: ACME,
    });
    expect(form.status).toBe(409);
    expect(form.body.error.code).toBe('NOT_CONNECTED');
  });

  it('leaves groups in memory mode working for the tenant', async () => {
    const files = await request(h.gateway, 'POST', '/v1/tools/files/listChildren', {
      body: { folder_id: 'home' },
      token: ACME,
    });
    expect(files.status).toBe(200);
  });

  it.each(CLIENT_KINDS)('answers over MCP (%s) as an error result an agent can relay', async (kind) => {
    const client = await h.connect(kind, ACME);
    const r = await client.callTool({ name: 'crm_getContact', arguments: { contact_id: '101' } });
    expect(r.isError).toBe(true);
    const error = r._meta['tool-gateway/error'];
    expect(r.structuredContent).toBeUndefined();
    expect(error.code).toBe('NOT_CONNECTED');
    const link = error.details.connect_url as string;
    expect(link).toMatch(CONNECT_URL);
    expect(r.content[0].text).toContain(`Ask the user to open ${link}`);
  });
});
