import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../../support/gateway.js';
import { recordsWorld, tableCells } from '../../application/list-tools-world.js';

// GATEWAY_JSON_BUDGET_CHARS reaches the MCP surface (the composition hands it to the MCP handler, which
// hands it to every tools/call): a small JSON budget cuts structuredContent, and the text to the same rows.

const JSON_BUDGET = 20_000;
const w = recordsWorld({ properties: 120, leads: 5, deals: 2 }, { GATEWAY_JSON_BUDGET_CHARS: String(JSON_BUDGET) });
let server: ServerType | undefined;
let client: Client;

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve({ fetch: w.g.http.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  const url = new URL(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/mcp`);
  client = new Client({ name: 'json-budget', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${DEMO_TOKEN}` } } }),
  );
});

afterAll(async () => {
  await client?.close();
  await new Promise((resolve) => server?.close(resolve));
  await w.g.close();
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
