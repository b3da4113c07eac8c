import { describe, expect, it } from 'vitest';
import { toCallToolResult } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { present } from '../../../application/runtime/envelope.js';
import { recordsWorld } from '../../application/list-tools-world.js';

// No REST-only advice on MCP: MCP refuses a `format` parameter, so an answer given there never says
// format=json; it names what MCP gives instead (structuredContent, the cursor, a smaller page). REST keeps its
// advice.

const w = recordsWorld({ properties: 24, leads: 60, deals: 18 });
const result = async (tool: string, args: Record<string, unknown>) => {
  const r = await w.run(tool, args);
  if (!r.ok) throw new Error(r.error.message);
  return r;
};
const mcpText = (r: Awaited<ReturnType<typeof result>>, budget?: number) =>
  (toCallToolResult(r, budget).content[0] as { text: string }).text;
const restText = (r: Awaited<ReturnType<typeof result>>, budget = 12_000) =>
  present(r, 'text', false, { text: budget, json: 16 * budget }).body as { data: string };

describe('advice by surface', () => {
  it('a records table with fields left out: structuredContent on MCP, format=json on REST', async () => {
    const r = await result('records_listRecords', { app_id: 3001, limit: 3 });
    const mcp = mcpText(r);
    expect(mcp).toContain('Fields not shown');
    expect(mcp).toContain('read every field in structuredContent or with records_getRecord');
    expect(mcp).not.toMatch(/format=json|format/);
    expect(restText(r).data).toContain('read every field with format=json or with records_getRecord');
  });

  it('a text cut short: the full value is in structuredContent on MCP; REST says format=json', async () => {
    // an answer that is only text (as a replayed one is), longer than the budget
    const record = await result('records_getRecord', { record_id: 70025 });
    const long = record.text().repeat(4);
    const r = { ...record, presentation: undefined, text: () => long };
    const mcp = mcpText(r, 2000);
    expect(mcp).toMatch(/\[\.\.\. cut: \d+ more characters\. The full value is in structuredContent\.\]$/);
    expect(mcp).not.toContain('format=json');
    expect(restText(r, 2000).data).toMatch(/Ask with format=json for the full value\.\]$/);
  });

  it('a page cut with no call for the rest: structuredContent has every row on MCP; REST says format=json', async () => {
    // as a vendor's page without a continuation: the same answer with no `next`
    const r = { ...(await result('records_listRecords', { app_id: 3001, limit: 60 })), next: undefined };
    const mcp = mcpText(r, 2000);
    expect(mcp).toMatch(/showing \d+ of 60 rows of this answer\. structuredContent has every row of this answer;/);
    expect(mcp).not.toContain('format=json');
    const structured = toCallToolResult(r, 2000).structuredContent as any;
    expect(structured.records).toHaveLength(60);
    expect(restText(r, 2000).data).toContain('or use format=json for all of it.');
  });

  it('a cut page names its continuation on both: the call in the text, and the cursor in structuredContent', async () => {
    const r = await result('records_listRecords', { app_id: 3001, limit: 60 });
    const answer = toCallToolResult(r, 2000);
    const text = (answer.content[0] as { text: string }).text;
    const cursor = (answer.structuredContent as any).cursor;
    expect(cursor).toEqual(expect.any(String));
    expect(text).toContain(`"cursor":"${cursor}"`);
    expect(text).not.toContain('format=json');
  });

  it('no MCP answer of a list tool says format=json, at any budget', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['records_listRecords', { app_id: 3001, limit: 60 }],
      ['records_filterRecords', { app_id: 3002, filters: [] }],
      ['records_getApp', { app_id: 3001 }],
      ['crm_getProperties', { object_type: 'contacts' }],
      ['crm_searchContacts', {}],
      ['records_aggregateRecords', { app_id: 3001, group_by: { field_id: 'property' } }],
    ];
    for (const [tool, args] of calls) {
      const r = await result(tool, args);
      for (const budget of [1000, 3000, 12_000])
        expect(mcpText(r, budget), `${tool} at ${budget}`).not.toContain('format=json');
    }
  });
});
