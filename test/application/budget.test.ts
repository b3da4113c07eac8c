import { describe, expect, it } from 'vitest';
import { toCallToolResult } from '../../adapters/inbound/mcp/mcp-tools.js';
import { budgetedPair } from '../../application/runtime/envelope.js';
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
    // the page's own cursor is the continuation (the rows after those shown), and `truncated` names the call
    expect(json.body.data.truncated).toMatchObject({ shown: jsonIds.length, of: 60 });
    const { tool, arguments: args } = json.body.data.truncated.next;
    expect(tool).toBe('records_listRecords');
    expect(json.body.data.cursor).toBe(args.cursor);
    const after = await post(g, '/v1/tools/call?format=json', { name: tool, arguments: args });
    expect(String(after.body.data.records[0].record_id)).toBe(allIds[jsonIds.length]);
    const byCursor = await post(g, '/v1/tools/records/listRecords?format=json', {
      app_id: 3001,
      limit: 60,
      cursor: json.body.data.cursor,
    });
    expect(String(byCursor.body.data.records[0].record_id)).toBe(allIds[jsonIds.length]);
  });

  it('gives format=json the rows the text shows, with its own larger budget', async () => {
    const budgeted = testGateway({}, { GATEWAY_OUTPUT_BUDGET_CHARS: '2000' });
    const text: string = (await post(budgeted, '/v1/tools/records/listRecords', { app_id: 3001, limit: 60 })).body.data;
    const textIds = text.split('\n').flatMap((l) => /^\| (\d{5}) \|/.exec(l)?.[1] ?? []);
    expect(textIds.length).toBeGreaterThan(2);
    expect(textIds.length).toBeLessThan(60);
    const json = await post(budgeted, '/v1/tools/records/listRecords?format=json', { app_id: 3001, limit: 60 });
    // far longer than the text's budget: the JSON's own (16 times it by default) holds these rows
    expect(JSON.stringify(json.body.data).length).toBeGreaterThan(2000);
    expect(json.body.data.records.map((r: any) => String(r.record_id))).toEqual(textIds);
    expect(json.body.data.cursor).toBe(json.body.data.truncated.next.arguments.cursor);
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
    // the text's budget decides where the page is cut; the JSON of those rows has a budget of its own
    expect(JSON.stringify(structured).length).toBeGreaterThan(3000);
    expect(text).toMatch(/\[Output budget of 3000 characters reached: showing \d+ of 60 rows/);
    const textIds = text.split('\n').flatMap((l) => /^\| (\d{5}) \|/.exec(l)?.[1] ?? []);
    expect(structured.records.map((r: any) => String(r.record_id))).toEqual(textIds);
    expect(structured.truncated.shown).toBe(textIds.length);
    expect(text).toContain(`The rest: records_listRecords ${JSON.stringify(structured.truncated.next.arguments)}`);
    expect(structured.cursor).toBe(structured.truncated.next.arguments.cursor);
  });

  it('cuts MCP text and structuredContent to fewer rows where the JSON reaches its own budget first', async () => {
    const tool = g.executor.registry.get('records_listRecords')!;
    const result = await g.executor.run({
      tool,
      args: { app_id: 3001, limit: 60 },
      principal: everyone,
      requestId: 'j',
    });
    if (!result.ok) throw new Error(result.error.message);
    const answer = budgetedPair(result, { text: 12_000, json: 5000 }, 'mcp');
    const text = answer.text;
    const structured = answer.payload as any;
    expect(JSON.stringify(structured).length).toBeLessThanOrEqual(5000);
    const textIds = text.split('\n').flatMap((l) => /^\| (\d{5}) \|/.exec(l)?.[1] ?? []);
    expect(textIds.length).toBeGreaterThan(1);
    expect(structured.records.map((r: any) => String(r.record_id))).toEqual(textIds);
    expect(text).toContain(`[The structured answer's budget reached: showing ${textIds.length} of 60 rows`);
    expect(structured.cursor).toBe(structured.truncated.next.arguments.cursor);
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
