import { afterAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { READER_TOKEN, testGateway } from '../../../support/gateway.js';
import { UI_EXTENSION, VIEW_MIME_TYPE } from '../../../../adapters/inbound/mcp/view-capability.js';
import { UI_CAPABILITIES, viewRpc } from './view-rpc.js';

// Issue 43: MCP Apps views for a client that declares the extension; every other client unchanged.

const gateway = testGateway();
afterAll(() => gateway.close());

const uiOf = (tools: any[], name: string) => tools.find((t) => t.name === name)?._meta?.ui;

describe('views: metadata', () => {
  it('uses the extension’s own id and MIME type', () => {
    expect(UI_EXTENSION).toBe(EXTENSION_ID);
    expect(VIEW_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
    expect(RESOURCE_URI_META_KEY).toBe('ui/resourceUri');
  });

  it('names a view on the tools that have one, for a client with the extension', async () => {
    const { body } = await viewRpc(gateway, 'tools/list', {});
    const tools = body.result.tools;
    expect(uiOf(tools, 'records_listRecords')).toEqual({ resourceUri: 'ui://tool-gateway/records' });
    expect(uiOf(tools, 'records_filterRecords')).toEqual({ resourceUri: 'ui://tool-gateway/records' });
    expect(uiOf(tools, 'files_getItem')).toEqual({ resourceUri: 'ui://tool-gateway/file' });
    expect(uiOf(tools, 'files_readFile')).toEqual({ resourceUri: 'ui://tool-gateway/file' });
    expect(uiOf(tools, 'skiptrace_skipTraceProperty')).toEqual({ resourceUri: 'ui://tool-gateway/skiptrace' });
    for (const gated of ['crm_deleteContact', 'records_deleteRecord', 'files_deleteItem'])
      expect(uiOf(tools, gated)).toEqual({ resourceUri: 'ui://tool-gateway/approval' });
    // A vendor-backed tool without a view of its own: the connection view (its NOT_CONNECTED gets a card).
    for (const plain of ['crm_getContact', 'crm_createContact', 'files_listChildren', 'records_getRecord'])
      expect(uiOf(tools, plain)).toEqual({ resourceUri: 'ui://tool-gateway/connect' });
    // No vendor, so never NOT_CONNECTED: no view.
    const web = tools.filter((t: any) => t.name.startsWith('web_'));
    expect(web.length).toBeGreaterThan(0);
    for (const t of web) expect(t._meta?.ui).toBeUndefined();
    for (const app of ['views_answerApproval', 'views_recordsPage', 'views_openRecord'])
      expect(uiOf(tools, app)).toEqual({ visibility: ['app'] });
  });

  it('serves each view as text/html;profile=mcp-app with a CSP that allows no outside origin', async () => {
    const { body: list } = await viewRpc(gateway, 'resources/list', {});
    const uris = list.result.resources.map((r: any) => r.uri);
    expect(uris).toEqual([
      'ui://tool-gateway/approval',
      'ui://tool-gateway/records',
      'ui://tool-gateway/file',
      'ui://tool-gateway/skiptrace',
      'ui://tool-gateway/connect',
    ]);
    for (const uri of uris) {
      const { body } = await viewRpc(gateway, 'resources/read', { uri });
      const [content] = body.result.contents;
      expect(content.mimeType).toBe('text/html;profile=mcp-app');
      expect(content._meta.ui.csp).toEqual({
        connectDomains: [],
        resourceDomains: [],
        frameDomains: [],
        baseUriDomains: [],
      });
      const html: string = content.text;
      const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("connect-src 'none'");
      expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
      expect(csp).not.toMatch(/https?:|unsafe-inline|\*/);
      // No tool data in the page: nothing of the demo data, no script or link from elsewhere.
      expect(html).not.toMatch(/Harbor Way|Dana Whitfield|src="http|href="http/);
    }
  });

  it('answers an unknown ui:// resource with a resource-not-found error', async () => {
    const { body } = await viewRpc(gateway, 'resources/read', { uri: 'ui://tool-gateway/nope' });
    // -32002 as asked; the SDK answers it as Invalid params (-32602) on 2026-07-28.
    expect([ProtocolErrorCode.ResourceNotFound, -32602]).toContain(body.error.code);
    expect(body.error.message).toContain('ui://tool-gateway/approval');
  });
});

describe('views: a client without the extension sees today’s answers', () => {
  it('gets a tools/list with no view and no app-only tool, the same list as the view client’s minus those', async () => {
    const plain = await viewRpc(gateway, 'tools/list', {}, {});
    const elicits = await viewRpc(gateway, 'tools/list', {}, { elicitation: {} });
    expect(plain.raw).not.toMatch(/ui:\/\/|views_|"ui"/);
    expect(elicits.raw).toBe(plain.raw);
    const views = await viewRpc(gateway, 'tools/list', {});
    const stripped = views.body.result.tools
      .filter((t: any) => !t.name.startsWith('views_'))
      .map((t: any) => {
        const { ui: _ui, ...meta } = t._meta ?? {};
        const { _meta, ...rest } = t;
        return Object.keys(meta).length ? { ...rest, _meta: meta } : t._meta && !Object.keys(meta).length ? rest : t;
      });
    expect(stripped).toEqual(plain.body.result.tools);
  });

  it('gets a byte-identical tool call answer, and an app-only tool is unknown to it', async () => {
    const call = { name: 'records_listRecords', arguments: { app_id: 3002, limit: 3 } };
    const plain = await viewRpc(gateway, 'tools/call', call, {});
    const views = await viewRpc(gateway, 'tools/call', call);
    expect(views.raw).toBe(plain.raw);
    const gated = await viewRpc(
      gateway,
      'tools/call',
      { name: 'crm_deleteContact', arguments: { contact_id: '102' } },
      {},
    );
    expect(gated.raw).not.toMatch(/approval card|APPROVAL_REQUIRED/);
    const app = await viewRpc(gateway, 'tools/call', { name: 'views_openRecord', arguments: { record_id: 70001 } }, {});
    expect(app.body.error.code).toBe(-32602);
  });

  it('is offered no resources, as before views existed: server/discover names none, resources/list is not a method', async () => {
    const { body: plain } = await viewRpc(gateway, 'server/discover', {}, {});
    expect(plain.result.capabilities.tools).toBeDefined();
    expect(plain.result.capabilities.resources).toBeUndefined();
    const { body: views } = await viewRpc(gateway, 'server/discover', {});
    expect(views.result.capabilities.resources).toEqual({});
    const { body } = await viewRpc(gateway, 'resources/list', {}, {});
    expect(body.error.code).toBe(-32601);
    expect(body.result).toBeUndefined();
  });
});

describe('views: the approval card’s answer and the app-only tools', () => {
  const ask = async (contactId: string) => {
    const { body } = await viewRpc(gateway, 'tools/call', {
      name: 'crm_deleteContact',
      arguments: { contact_id: contactId },
    });
    const error = body.result._meta['tool-gateway/error'];
    expect(body.result.isError).toBe(true);
    expect(error.code).toBe('APPROVAL_REQUIRED');
    expect(body.result.content[0].text).toContain('approval card');
    expect(error.details.tool).toBe('crm_deleteContact');
    return error.details.approval_token as string;
  };
  const answer = (contactId: string, token: string, approved: boolean) =>
    viewRpc(gateway, 'tools/call', {
      name: 'views_answerApproval',
      arguments: { tool: 'crm_deleteContact', arguments: { contact_id: contactId }, approval_token: token, approved },
    });

  it('runs the gated call once on Approve, and the token is single-use', async () => {
    const token = await ask('103');
    const approved = await answer('103', token, true);
    expect(approved.body.result.isError).toBeUndefined();
    expect(approved.body.result.content[0].text).toContain('A person approved this call');
    const again = await answer('103', token, true);
    expect(again.body.result.isError).toBe(true);
  });

  it('changes nothing on Decline', async () => {
    const token = await ask('104');
    const declined = await answer('104', token, false);
    expect(declined.body.result._meta['tool-gateway/error'].code).toBe('APPROVAL_DECLINED');
    const contact = await viewRpc(gateway, 'tools/call', { name: 'crm_getContact', arguments: { contact_id: '104' } });
    expect(contact.body.result.isError).toBeUndefined();
  });

  it('refuses a token for other arguments', async () => {
    const token = await ask('105');
    const other = await answer('101', token, true);
    expect(other.body.result.isError).toBe(true);
  });

  it('shows the card for a gated call made through gateway_callTool in tool-search mode', async () => {
    const search = (method: string, params: Record<string, unknown>) =>
      viewRpc(gateway, method, params, UI_CAPABILITIES, undefined, '?discovery=search');
    const { body: list } = await search('tools/list', {});
    expect(uiOf(list.result.tools, 'gateway_callTool')).toEqual({ resourceUri: 'ui://tool-gateway/approval' });
    expect(uiOf(list.result.tools, 'views_answerApproval')).toEqual({ visibility: ['app'] });
    const inner = { contact_id: '106' };
    const { body } = await search('tools/call', {
      name: 'gateway_callTool',
      arguments: { name: 'crm_deleteContact', arguments: inner },
    });
    const ask = body.result._meta['tool-gateway/error'];
    expect(ask.code).toBe('APPROVAL_REQUIRED');
    const approved = await search('tools/call', {
      name: 'views_answerApproval',
      arguments: {
        tool: 'crm_deleteContact',
        arguments: inner,
        approval_token: ask.details.approval_token,
        approved: true,
      },
    });
    expect(approved.body.result.isError).toBeUndefined();
  });

  it('pages, sorts and opens records through app-only tools, permission-checked', async () => {
    const page = await viewRpc(gateway, 'tools/call', {
      name: 'views_recordsPage',
      arguments: { app_id: 3002, sort_by: 'asking-price', sort_desc: true, limit: 3 },
    });
    const prices = page.body.result.structuredContent.records.map((r: any) => r.values['asking-price']);
    expect(prices).toEqual(['USD 740,000.00', 'USD 710,000.00', 'USD 690,000.00']);
    expect(page.body.result.structuredContent.cursor).toEqual(expect.any(String));
    // A filtered listing keeps its filters when the table sorts it.
    const filtered = await viewRpc(gateway, 'tools/call', {
      name: 'views_recordsPage',
      arguments: {
        app_id: 3002,
        filters: [{ field_id: 'property-type', match_type: 'equal', values: [{ value: 'Condo' }] }],
        sort_by: 'asking-price',
      },
    });
    const types = filtered.body.result.structuredContent.records.map((r: any) => r.values['property-type']);
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['Condo']));
    const open = await viewRpc(gateway, 'tools/call', { name: 'views_openRecord', arguments: { record_id: 70001 } });
    expect(open.body.result.isError).toBeUndefined();
    // The reader key may read CRM contacts, not records: the app-only tools are not listed to it and refused.
    const list = await viewRpc(gateway, 'tools/list', {}, UI_CAPABILITIES, READER_TOKEN);
    expect(list.body.result.tools.map((t: any) => t.name)).not.toContain('views_openRecord');
    const refused = await viewRpc(
      gateway,
      'tools/call',
      { name: 'views_openRecord', arguments: { record_id: 70001 } },
      UI_CAPABILITIES,
      READER_TOKEN,
    );
    expect(refused.body.result.isError).toBe(true);
    expect(refused.body.result._meta['tool-gateway/error'].code).toMatch(/FORBIDDEN|PERMISSION/);
  });
});

describe('views: the file preview’s image (views_fileImage)', () => {
  const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  const write = async (file_name: string, content: string) => {
    const { body } = await viewRpc(gateway, 'tools/call', {
      name: 'files_writeFile',
      arguments: { folder_id: 'home', file_name, content, encoding: 'base64' },
    });
    return body.result.structuredContent.Id as string;
  };
  const image = (item_id: string, token?: string) =>
    viewRpc(gateway, 'tools/call', { name: 'views_fileImage', arguments: { item_id } }, UI_CAPABILITIES, token);

  it('is app-only, listed beside files_readFile, and never a tool of its own to any client', async () => {
    const { body } = await viewRpc(gateway, 'tools/list', {});
    expect(uiOf(body.result.tools, 'views_fileImage')).toEqual({ visibility: ['app'] });
    expect(body.result.tools.map((t: any) => t.name)).not.toContain('files_readImage');
    const plain = await viewRpc(gateway, 'tools/list', {}, {});
    expect(plain.body.result.tools.map((t: any) => t.name)).not.toContain('views_fileImage');
    for (const caps of [{}, UI_CAPABILITIES]) {
      const direct = await viewRpc(
        gateway,
        'tools/call',
        { name: 'files_readImage', arguments: { item_id: 'x' } },
        caps,
      );
      expect(direct.body.error?.code ?? direct.body.result?.isError).toBeTruthy();
    }
  });

  it('gives a PNG’s bytes whole, and refuses a file that is not an image', async () => {
    const id = await write('dot.png', PNG_1X1);
    const ok = await image(id);
    expect(ok.body.result.isError).toBeUndefined();
    expect(ok.body.result.structuredContent).toMatchObject({
      content_type: 'image/png',
      name: 'dot.png',
      data_base64: PNG_1X1,
    });
    const text = await write('note.txt', Buffer.from('hello').toString('base64'));
    const notImage = await image(text);
    expect(notImage.body.result.isError).toBe(true);
    expect(notImage.body.result.content[0].text).toContain('not an image');
  });

  it('needs files:read: a key that may only read CRM contacts is refused', async () => {
    const refused = await image(await write('dot2.png', PNG_1X1), READER_TOKEN);
    expect(refused.body.result.isError).toBe(true);
    expect(refused.body.result._meta['tool-gateway/error'].code).toMatch(/FORBIDDEN|PERMISSION/);
  });
});
