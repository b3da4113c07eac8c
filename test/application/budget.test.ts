import { describe, expect, it } from 'vitest';
import { toCallToolResult } from '../../adapters/inbound/mcp/mcp-tools.js';
import { everyone, post, request, testGateway } from '../support/gateway.js';

// The budget's own rules (row data, the note, the marker) are tested in budget-rows.test.ts.

describe('budgets over HTTP', () => {
  // A configured budget out of the way: max_chars sets each call's.
  const g = testGateway({}, { GATEWAY_OUTPUT_BUDGET_CHARS: '10000000' });

  it('applies max_chars to text and to a JSON list, each with the exact next call', async () => {
    const full = await post(g, '/v1/tools/records/listRecords', { app_id: 3001, limit: 60 });
    expect(full.body.data).toContain('Showing 1-60 of 60.');
    expect(full.body.data.length).toBeGreaterThan(1500);
    const cut = await post(g, '/v1/tools/records/listRecords?max_chars=1500', { app_id: 3001, limit: 60 });
    const text: string = cut.body.data;
    expect(text.length).toBeLessThanOrEqual(1500);
    const ids = text.split('\n').flatMap((l) => /^\| (\d{5}) \|/.exec(l)?.[1] ?? []);
    expect(ids.length).toBeGreaterThan(2);
    expect(ids.length).toBeLessThan(60);
    const rest = /The rest: records_listRecords (\{.*\})\]/.exec(text);
    expect(rest).not.toBeNull();
    const next = await post(g, '/v1/tools/records/listRecords?format=json', JSON.parse(rest![1]!));
    const all = await post(g, '/v1/tools/records/listRecords?format=json', { app_id: 3001, limit: 60 });
    const allIds = all.body.data.records.map((r: any) => String(r.record_id));
    expect(allIds.slice(0, ids.length)).toEqual(ids);
    expect(String(next.body.data.records[0].record_id)).toBe(allIds[ids.length]);
    const json = await post(g, '/v1/tools/records/listRecords?format=json&max_chars=6000', { app_id: 3001, limit: 60 });
    expect(JSON.stringify(json.body.data).length).toBeLessThanOrEqual(6000);
    const jsonIds = json.body.data.records.map((r: any) => String(r.record_id));
    expect(jsonIds.length).toBeGreaterThan(1);
    expect(jsonIds).toEqual(allIds.slice(0, jsonIds.length));
    // the page's own cursor would skip the cut rows: it is null, and `truncated` names the call instead
    expect(json.body.data.cursor).toBeNull();
    expect(json.body.data.truncated).toMatchObject({ shown: jsonIds.length, of: 60 });
    const { tool, arguments: args } = json.body.data.truncated.next;
    expect(tool).toBe('records_listRecords');
    const after = await post(g, '/v1/tools/call?format=json', { name: tool, arguments: args });
    expect(String(after.body.data.records[0].record_id)).toBe(allIds[jsonIds.length]);
  });

  it('gives MCP the same rows in the text and in structuredContent, each within the budget', async () => {
    const tool = g.executor.registry.get('records_listRecords')!;
    const result = await g.executor.run({
      tool,
      args: { app_id: 3001, limit: 60 },
      principal: everyone,
      requestId: 'mcp-budget',
    });
    const answer = toCallToolResult(result, 3000);
    const text = (answer.content[0] as { text: string }).text;
    const structured = answer.structuredContent as any;
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(JSON.stringify(structured).length).toBeLessThanOrEqual(3000);
    const textIds = text.split('\n').flatMap((l) => /^\| (\d{5}) \|/.exec(l)?.[1] ?? []);
    expect(structured.records.map((r: any) => String(r.record_id))).toEqual(textIds);
    expect(structured.truncated.shown).toBe(textIds.length);
    expect(text).toContain(`The rest: records_listRecords ${JSON.stringify(structured.truncated.next.arguments)}`);
  });

  it('refuses a max_chars that is not a number of at least 1000 (room for a header, a row and the next call)', async () => {
    const r = await request(g, 'POST', '/v1/tools/crm/searchContacts?max_chars=999', { body: {} });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('max_chars');
  });
});

describe('continuations of other list tools', () => {
  const g = testGateway({}, { GATEWAY_OUTPUT_BUDGET_CHARS: '10000000' });
  it.each([
    ['files_listChildren', { folder_id: 'home' }, 'skip', (data: any) => data.items.map((i: { Id: string }) => i.Id)],
    [
      'workspaces_getSpaceMembers',
      { space_id: 2001 },
      'offset',
      (data: any) => data.members.map((m: { profile: { user_id: number } }) => String(m.profile.user_id)),
    ],
  ] as const)('%s names the call that returns exactly the rows it cut', async (tool, args, member, ids) => {
    const cut = await g.callTool(tool, args, { principal: everyone, maxChars: 480 });
    const text = String(cut.body.success && cut.body.data);
    const m = /The rest: (\w+) (\{.*\})\]/.exec(text);
    expect(m?.[1]).toBe(tool);
    const next = JSON.parse(m![2]!) as Record<string, unknown>;
    const shown = Number(next[member]);
    expect(shown).toBeGreaterThan(0);
    const all = await g.callTool(tool, args, { principal: everyone, format: 'json' });
    const rest = await g.callTool(tool, next, { principal: everyone, format: 'json' });
    expect(ids(rest.body.success && rest.body.data)).toEqual(ids(all.body.success && all.body.data).slice(shown));
  });
});
