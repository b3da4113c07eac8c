import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { servedGateway } from '../support/served-gateway.js';
import { recordsWorld, tableCells, textContinuation } from '../application/list-tools-world.js';

// The long-list task of issue 30: an agent reads every record of a 305-record app through the official MCP
// client (2026-07-28) at the default budgets. Measured before budgets cut by text: 9 to 20 calls, pages of 7
// to 38 rows, and a client that followed structuredContent.cursor stopped after 38 rows.

const RECORDS = 305;
const w = recordsWorld({ properties: RECORDS, leads: 10, deals: 2 }, { RATE_LIMIT_PER_MINUTE: '100000' });
const served = servedGateway(w.g);
let client: Client;

beforeAll(async () => {
  client = await served.mcpClient('long-list', { versionNegotiation: { mode: { pin: '2026-07-28' } } });
});

type Args = Record<string, unknown>;

/** Reads the whole app, following `next` from each answer; the ids seen and each page's row count. */
const read = async (
  tool: string,
  args: Args,
  next: (answer: { text: string; data: any }, args: Args) => Args | undefined,
) => {
  const ids: string[] = [];
  const pages: number[] = [];
  let call: Args | undefined = args;
  while (call && pages.length < 50) {
    const r: any = await client.callTool({ name: tool, arguments: call });
    expect(r.isError ?? false).toBe(false);
    const answer = { text: String(r.content[0].text), data: r.structuredContent };
    expect(answer.text.length).toBeLessThanOrEqual(12_000);
    // the text and structuredContent carry the same rows
    const shown = answer.data.records.map((x: any) => String(x.record_id));
    expect(tableCells(answer.text)).toEqual(shown);
    ids.push(...shown);
    pages.push(shown.length);
    call = next(answer, call);
  }
  return { ids, pages };
};

const byCursor = (a: { data: any }, args: Args) => (a.data.cursor ? { ...args, cursor: a.data.cursor } : undefined);
const byText = (a: { text: string }) => textContinuation(a.text)?.[1];

describe('a 305-record app read through MCP at the default budgets', () => {
  it('lists the tools first, as a client does', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['records_listRecords', 'records_filterRecords']));
  });

  for (const [how, next] of [
    ['structuredContent.cursor', byCursor],
    ['the text', byText],
  ] as const) {
    it(`records_listRecords with the largest page: every record in at most 3 calls, following ${how}`, async () => {
      const { ids, pages } = await read('records_listRecords', { app_id: 3002, limit: 500 }, next);
      expect(new Set(ids).size).toBe(RECORDS);
      expect(ids.length).toBe(RECORDS);
      expect(pages.length).toBeLessThanOrEqual(3);
    });

    it(`records_filterRecords at the default page size: whole pages of 100 (4 calls, the fewest), following ${how}`, async () => {
      const { ids, pages } = await read('records_filterRecords', { app_id: 3002, filters: [] }, next);
      expect(new Set(ids).size).toBe(RECORDS);
      expect(ids.length).toBe(RECORDS);
      // the default page size is honoured: its text fits the budget, so no page is cut
      expect(pages).toEqual([100, 100, 100, 5]);
    });
  }
});
