import { getToolUiResourceUri, isToolVisibilityAppOnly } from '@modelcontextprotocol/ext-apps/app-bridge';
import { afterAll, describe, expect, it } from 'vitest';
import { READER_TOKEN, testGateway } from '../../../support/gateway.js';
import { legacy, modern } from './no-extension-transcript.js';
import { UI_CAPABILITIES } from './view-rpc.js';

// Issue 43, done when: "tools/list for a client with the extension names a view on the tools above,
// resources/read serves each as text/html;profile=mcp-app, and app-only tools are absent from the model's
// list and refused without permission". Read as a host reads it, with ext-apps' own helpers
// (getToolUiResourceUri, isToolVisibilityAppOnly), on both revisions.

const gateway = testGateway();
afterAll(() => gateway.close());

const APP_ONLY = ['views_answerApproval', 'views_fileImage', 'views_openRecord', 'views_recordsPage'];

/** tools/list and tools/call for a views client of `era`, as `token`. */
const client = async (era: string, token?: string) => {
  if (era === '2026-07-28')
    return (method: string, params: Record<string, unknown>) =>
      modern(gateway, method, params, UI_CAPABILITIES, token).then((a) => JSON.parse(a.raw));
  const ask = await legacy(gateway, UI_CAPABILITIES, token);
  return (method: string, params: Record<string, unknown>) => ask(method, params).then((a) => JSON.parse(a.raw));
};

describe.each(['2026-07-28', '2025-11-25'])('a views client (%s), as its host reads tools/list', (era) => {
  it('the model’s list is the plain client’s, and the app-only tools are only the views’', async () => {
    const tools: any[] = (await (await client(era))('tools/list', {})).result.tools;
    const plain: any[] =
      era === '2026-07-28'
        ? JSON.parse((await modern(gateway, 'tools/list', {})).raw).result.tools
        : JSON.parse((await (await legacy(gateway))('tools/list', {})).raw).result.tools;
    const forModel = tools.filter((t) => !isToolVisibilityAppOnly(t));
    expect(forModel.map((t) => t.name)).toEqual(plain.map((t) => t.name));
    expect(forModel.some((t) => t.name.startsWith('views_'))).toBe(false);
    expect(
      tools
        .filter((t) => isToolVisibilityAppOnly(t))
        .map((t) => t.name)
        .sort(),
    ).toEqual(APP_ONLY);
  });

  it('names a view on every gated tool, the record listings, the file tools and the skip trace', async () => {
    const tools: any[] = (await (await client(era))('tools/list', {})).result.tools;
    const uri = (name: string) => getToolUiResourceUri(tools.find((t) => t.name === name));
    const destructive = tools.filter((t) => t.annotations?.destructiveHint && !isToolVisibilityAppOnly(t));
    // Every Destructive tool of the catalogue (files, records, workspaces, CRM): seven today.
    expect(destructive.length).toBeGreaterThanOrEqual(7);
    for (const t of destructive) expect(uri(t.name), t.name).toBe('ui://tool-gateway/approval');
    expect(uri('skiptrace_skipTraceProperty')).toBe('ui://tool-gateway/skiptrace');
    for (const name of ['records_listRecords', 'records_filterRecords'])
      expect(uri(name)).toBe('ui://tool-gateway/records');
    for (const name of ['files_getItem', 'files_readFile']) expect(uri(name)).toBe('ui://tool-gateway/file');
  });

  it('lists the five views and serves each as text/html;profile=mcp-app', async () => {
    const ask = await client(era);
    const uris: string[] = (await ask('resources/list', {})).result.resources.map((r: any) => r.uri);
    expect(uris.sort()).toEqual(
      ['approval', 'connect', 'file', 'records', 'skiptrace'].map((v) => `ui://tool-gateway/${v}`),
    );
    for (const uri of uris) {
      const [content] = (await ask('resources/read', { uri })).result.contents;
      expect(content.mimeType, uri).toBe('text/html;profile=mcp-app');
      expect(content.text, uri).toMatch(/^<!doctype html>/);
    }
  });

  it('refuses each app-only tool to a caller without the permission of the tool underneath', async () => {
    const reader = await client(era, READER_TOKEN);
    const listed: string[] = (await reader('tools/list', {})).result.tools.map((t: any) => t.name);
    for (const name of APP_ONLY) expect(listed).not.toContain(name);
    const calls: Record<string, Record<string, unknown>> = {
      views_answerApproval: {
        tool: 'crm_deleteContact',
        arguments: { contact_id: '102' },
        approval_token: 'x'.repeat(40),
        approved: true,
      },
      views_recordsPage: { app_id: 3002, sort_by: 'asking-price' },
      views_openRecord: { record_id: 70001 },
      views_fileImage: { item_id: 'fid4a9d210ff841f' },
    };
    for (const name of APP_ONLY) {
      const { result } = await reader('tools/call', { name, arguments: calls[name] });
      expect(result.isError, name).toBe(true);
      expect(result._meta['tool-gateway/error'].code, name).toBe('FORBIDDEN');
    }
    // Contact 102 is still there (the refused approval ran nothing).
    const { result } = await (
      await client(era)
    )('tools/call', {
      name: 'crm_getContact',
      arguments: { contact_id: '102' },
    });
    expect(result.isError).toBeUndefined();
  });
});
