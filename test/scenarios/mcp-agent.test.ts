import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpHarness, type McpCaller } from '../adapters/inbound/mcp-harness.js';

// Agent scenarios: realistic multi-step tasks driven through the official MCP v2 client (2026-07-28),
// using only what the tools answer. Each asserts that the answers carry the facts the task needs, and that
// the task takes no more calls than stated (the follow-up calls the answers name are enough).

const h = mcpHarness({
  GATEWAY_CONFIRM_DESTRUCTIVE: 'true',
  GATEWAY_CONFIRM_SECRET: 'scenario-confirm-secret-of-32-chars!!',
});
beforeAll(h.start);
afterAll(h.stop);

/** A client that counts its tool calls and returns the text and payload of each answer. */
const agent = async () => {
  const client: McpCaller = await h.connect('v2 client, 2026-07-28');
  let calls = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    calls++;
    const r = await client.callTool({ name, arguments: args });
    return {
      text: String(r.content?.[0]?.text ?? ''),
      data: r.structuredContent as any,
      error: r._meta?.['tool-gateway/error'] as any,
      isError: r.isError === true,
    };
  };
  /** The arguments of the call an answer names after `label`, such as "Read one: web_fetch {...}". */
  const named = (text: string, tool: string): Record<string, unknown> => {
    const m = new RegExp(`${tool} (\\{[^\\n]*\\})`).exec(text);
    if (!m) throw new Error(`the answer names no ${tool} call:\n${text}`);
    return JSON.parse(m[1]!) as Record<string, unknown>;
  };
  return { call, named, calls: () => calls };
};

describe('agent scenarios over MCP', () => {
  it("skip-traces the best lead's property and reports who may be called (at most 4 calls)", async () => {
    const a = await agent();
    const leads = await a.call('records_filterRecords', {
      app_id: 3001,
      filters: [{ field_id: 'property', match_type: 'not_empty', values: [] }],
      sort_by: 'score',
      sort_desc: true,
      limit: 1,
      // structuredContent carries what the table shows plus ids (issue 41): the agent names the field it needs
      field_ids: ['property'],
    });
    const lead = leads.data.records[0];
    const property = lead.values.property[0];
    const record = await a.call('records_getRecord', { record_id: property.record_id ?? property.id });
    expect(record.text).toMatch(/\d{5}/); // the location carries its ZIP code
    const street = record.data.fields.find((f: any) => f.external_id === 'address')?.value;
    const zip = /\b(\d{5})\b/.exec(JSON.stringify(record.data.fields))?.[1];
    const traced = await a.call('skiptrace_skipTraceProperty', { street, zip });
    expect(traced.isError).toBe(false);
    expect(traced.text).toContain('OK to call');
    expect(traced.text).toContain(street);
    expect(a.calls()).toBeLessThanOrEqual(4);
  });

  it('shares a folder, checks the share, and deletes it only after confirming (at most 6 calls)', async () => {
    const a = await agent();
    const folder = await a.call('files_createFolder', { parent_id: 'home', name: 'Scenario offers' });
    expect(folder.isError).toBe(false);
    const folderId = folder.data.Id ?? folder.data.item?.Id;
    expect(folderId).toBeTruthy();
    const share = await a.call('files_createShare', { share_type: 'Send', items: [folderId], title: 'Offers' });
    expect(share.isError).toBe(false);
    const shareId = share.data.share?.Id ?? share.data.Id;
    const got = await a.call('files_getShare', { share_id: shareId });
    expect(got.text).toContain('Offers');
    const ask = await a.call('files_deleteItem', { item_id: folderId });
    expect(ask.isError).toBe(true);
    expect(ask.text).toContain('Nothing was changed');
    expect(ask.text).toContain('Scenario offers');
    const token = ask.error.details.confirm_token as string;
    const done = await a.call('files_deleteItem', { item_id: folderId, confirm_token: token });
    expect(done.isError).toBe(false);
    expect(done.text).toMatch(/recycle bin/);
    expect(a.calls()).toBeLessThanOrEqual(6);
  });

  it('creates a record, deletes it, restores it from the call the answer names (at most 4 calls)', async () => {
    const a = await agent();
    const created = await a.call('records_createRecord', {
      app_id: 3001,
      fields: { name: 'Scenario Seller', score: 77 },
    });
    expect(created.isError).toBe(false);
    const id = created.data.record_id;
    const preview = await a.call('records_deleteRecord', { record_id: id, dry_run: true });
    expect(preview.text).toContain('Scenario Seller');
    const deleted = await a.call('records_deleteRecord', { record_id: id, confirm_token: preview.data.confirm_token });
    const restored = await a.call('records_restoreRecord', a.named(deleted.text, 'records_restoreRecord'));
    expect(restored.isError).toBe(false);
    expect(restored.text).toContain('Scenario Seller');
    expect(restored.text).toMatch(/\| Score \| score \(\d+\) \| 77 \|/);
    expect(a.calls()).toBeLessThanOrEqual(4);
  });

  it('researches a company on the web before creating the contact (at most 3 calls)', async () => {
    const a = await agent();
    const found = await a.call('web_search', { query: 'Harbor Lending rate sheet' });
    const page = await a.call('web_fetch', a.named(found.text, 'web_fetch'));
    expect(page.text).toContain('Priya Natarajan');
    const created = await a.call('crm_createContact', {
      values: {
        firstname: 'Priya',
        lastname: 'Natarajan',
        company: 'Harbor Lending',
        email: 'priya.scenario@harborlending.example',
      },
    });
    expect(created.isError).toBe(false);
    expect(a.calls()).toBeLessThanOrEqual(3);
  });
});
