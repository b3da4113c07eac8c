import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { servedGateway } from '../../support/served-gateway.js';
import { recordsWorld, tableCells } from '../../application/list-tools-world.js';

// GATEWAY_JSON_BUDGET_CHARS reaches the MCP surface (the composition hands it to the MCP handler, which
// hands it to every tools/call): a small JSON budget cuts structuredContent, and the text to the same rows.

const JSON_BUDGET = 20_000;
const w = recordsWorld({ properties: 120, leads: 5, deals: 2 }, { GATEWAY_JSON_BUDGET_CHARS: String(JSON_BUDGET) });
const served = servedGateway(w.g);
let client: Client;

beforeAll(async () => {
  client = await served.mcpClient('json-budget');
});

describe('the configured JSON budget on MCP', () => {
  it('cuts structuredContent within it, the text to the same rows, with the cursor for the rest', async () => {
    await client.listTools();
    const r: any = await client.callTool({ name: 'records_listRecords', arguments: { app_id: 3002, limit: 100 } });
    expect(r.isError ?? false).toBe(false);
    const data = r.structuredContent;
    expect(JSON.stringify(data).length).toBeLessThanOrEqual(JSON_BUDGET);
    // at the default JSON budget (192,000) a page of 100 records is whole: here it is cut
    expect(data.records.length).toBeGreaterThan(0);
    expect(data.records.length).toBeLessThan(100);

    expect(data.cursor).toEqual(expect.any(String));
    expect(tableCells(String(r.content[0].text))).toEqual(data.records.map((x: any) => String(x.record_id)));
  });
});
