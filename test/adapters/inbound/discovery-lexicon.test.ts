import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { createToolFinder } from '../../../application/runtime/discovery-answers.js';
import { loadLexicon } from '../../../application/runtime/lexicon.js';
import { ERROR_META_KEY } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { DEMO_TOKEN, post, testGateway } from '../../support/gateway.js';
import { servedGateway } from '../../support/served-gateway.js';

// Issue 41, the seventh round: the general lexicon (lexicon.ts, read on first use, never at start) serves
// REST's find and the suggestions for a name that is no tool (gateway_callTool, gateway_describeTool, a direct
// call in search mode) as it serves MCP's find. "junk" and "whip up" are verbs only the lexicon knows.

const gateway = testGateway();
const served = servedGateway(gateway);
const registry = gateway.executor.registry;

const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name);

describe('the finder with and without the lexicon', () => {
  it('suggests by the meaning of a name\'s verb ("crm_junkContact": delete)', async () => {
    const finder = createToolFinder();
    expect(finder.suggest(registry.tools, 'crm_junkContact')[0]).not.toBe('crm_deleteContact');
    expect(finder.suggest(registry.tools, 'crm_junkContact', {}, registry, await loadLexicon())[0]).toBe(
      'crm_deleteContact',
    );
    expect((await finder.suggestLoading(registry.tools, 'crm_junkContact'))[0]).toBe('crm_deleteContact');
  });

  it("reads a name's own words as a command: camelCase split, the group after them", () => {
    // a word list's verb: no lexicon needed ("scrap": delete); the group first had read as the command's verb
    expect(createToolFinder().suggest(registry.tools, 'records_scrapRecord')[0]).toBe('records_deleteRecord');
  });
});

describe('REST', () => {
  it('finds with the lexicon ("Whip up a new folder": createFolder)', async () => {
    const finder = createToolFinder();
    const without = finder.find(registry.tools, { query: 'Whip up a new folder', limit: 3 });
    expect('status' in without ? [] : names(without.payload.tools as Array<{ name: string }>)[0]).not.toBe(
      'files_createFolder',
    );
    const found = await post(gateway, '/v1/tools/gateway/findTools?format=json', { query: 'Whip up a new folder' });
    expect(found.status).toBe(200);
    expect(names(found.body.data.tools)[0]).toBe('files_createFolder');
  });

  it('suggests by meaning through the lexicon for callTool and describeTool', async () => {
    const called = await post(gateway, '/v1/tools/gateway/callTool', {
      name: 'crm_junkContact',
      arguments: { contact_id: '101' },
    });
    expect(called.status).toBe(404);
    expect(called.body.error.details.did_you_mean).toContain('crm_deleteContact');
    const described = await post(gateway, '/v1/tools/gateway/describeTool', { name: 'crm_junkContact' });
    expect(described.status).toBe(404);
    expect(described.body.error.details.did_you_mean).toContain('crm_deleteContact');
    // a known name is described as before
    const known = await post(gateway, '/v1/tools/gateway/describeTool?format=json', { name: 'crm_deleteContact' });
    expect(known.body.data.tool.name).toBe('crm_deleteContact');
  });
});

describe('MCP in search mode', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'lexicon-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${served.base()}/mcp?discovery=search`), {
        requestInit: { headers: { authorization: `Bearer ${DEMO_TOKEN}` } },
      }),
    );
    served.open.push(client);
  });

  it('suggests by meaning through the lexicon for callTool, describeTool and a direct call', async () => {
    const meant = (result: any): string[] => result._meta[ERROR_META_KEY].details.did_you_mean;
    const viaCall: any = await client.callTool({
      name: 'gateway_callTool',
      arguments: { name: 'crm_junkContact', arguments: { contact_id: '101' } },
    });
    expect(viaCall.isError).toBe(true);
    expect(meant(viaCall)).toContain('crm_deleteContact');
    const direct: any = await client.callTool({ name: 'crm_junkContact', arguments: { contact_id: '101' } });
    expect(meant(direct)).toContain('crm_deleteContact');
    const described: any = await client.callTool({
      name: 'gateway_describeTool',
      arguments: { name: 'crm_junkContact' },
    });
    expect(meant(described)).toContain('crm_deleteContact');
  });
});
