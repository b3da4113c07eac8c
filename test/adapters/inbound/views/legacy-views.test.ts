import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, testGateway } from '../../../support/gateway.js';
import { UI_CAPABILITIES } from './view-rpc.js';

// Issue 43: a 2025-11-25 client declares views at initialize only; the stateless 2025 leg keeps that in the
// session id it gives (tg-views.v.<random>, or a v. segment in an eliciting one), and its later requests
// get views from it.

const gateway = testGateway();
afterAll(() => gateway.close());

const post = async (body: unknown, session?: string) => {
  const res = await gateway.http.fetch(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${DEMO_TOKEN}`,
        ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
      },
      body: JSON.stringify(body),
    }),
  );
  const text = await res.text();
  return { session: res.headers.get('mcp-session-id'), body: text ? JSON.parse(text) : undefined };
};

const initialize = (capabilities: Record<string, unknown>) =>
  post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'legacy-host', version: '1.0.0' } },
  });

describe('views for a 2025-11-25 client', () => {
  it('marks the session of a client that declared views, and only that one', async () => {
    expect((await initialize(UI_CAPABILITIES)).session).toMatch(/^tg-views\.v\.[\w-]{22}$/);
    expect((await initialize({ ...UI_CAPABILITIES, elicitation: {} })).session).toMatch(/^tg-elicit\.v\.[\w-]{22}$/);
    expect((await initialize({ elicitation: {} })).session).toMatch(/^tg-elicit\.[\w-]{22}$/);
    expect((await initialize({})).session).toBeNull();
  });

  it('offers resources only to a client that declared views: initialize, and resources/list on its session', async () => {
    const plain = await initialize({ elicitation: {} });
    expect(plain.body.result.capabilities.tools).toBeDefined();
    expect(plain.body.result.capabilities.resources).toBeUndefined();
    const missing = await post({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: {} }, plain.session!);
    expect(missing.body.error.code).toBe(-32601);
    const views = await initialize(UI_CAPABILITIES);
    expect(views.body.result.capabilities.resources).toEqual({});
    const listed = await post({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: {} }, views.session!);
    expect(listed.body.result.resources.length).toBe(5);
  });

  it('lists views and app-only tools, asks a gated call through the card, and runs it on Approve', async () => {
    const { session } = await initialize(UI_CAPABILITIES);
    const list = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, session!);
    const tools = list.body.result.tools;
    expect(tools.find((t: any) => t.name === 'crm_deleteContact')._meta.ui.resourceUri).toBe(
      'ui://tool-gateway/approval',
    );
    expect(tools.find((t: any) => t.name === 'views_answerApproval')._meta.ui.visibility).toEqual(['app']);
    const args = { contact_id: '107' };
    const ask = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'crm_deleteContact', arguments: args } },
      session!,
    );
    const error = ask.body.result._meta['tool-gateway/error'];
    expect(error.code).toBe('APPROVAL_REQUIRED');
    const approved = await post(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: {
          name: 'views_answerApproval',
          arguments: {
            tool: 'crm_deleteContact',
            arguments: args,
            approval_token: error.details.approval_token,
            approved: true,
          },
        },
      },
      session!,
    );
    expect(approved.body.result.isError).toBeUndefined();
    const read = await post(
      { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'ui://tool-gateway/records' } },
      session!,
    );
    expect(read.body.result.contents[0].mimeType).toBe('text/html;profile=mcp-app');
  });

  it('gives a 2025 client without views the same tools/list as before', async () => {
    const plain = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, 'no-session');
    expect(JSON.stringify(plain.body)).not.toMatch(/ui:\/\/|views_/);
  });
});
