import { Ajv } from 'ajv';
import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import { callTool, mcpToolList } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { everyone } from '../../support/gateway.js';
import { recordsWorld, tableCells } from '../../application/list-tools-world.js';

// structuredContent a model can afford (issue 41): a list tool with a `verbose` parameter gives, by default,
// its rows in structuredContent as the table shows them plus their ids, at most about twice the text's tokens
// (it was nine to ten times: 100 rows of records_listRecords, 3,730 tokens of text and 34,161 structured).
// The whole rows stay one argument away (`verbose: true`), and with `output_schemas=full`.

const w = recordsWorld({ properties: 24, leads: 120, deals: 18 });
const encoding = getEncoding('o200k_base');
const tokens = (s: string) => encoding.encode(s).length;

const call = async (name: string, args: Record<string, unknown>, outputSchemas?: 'full') => {
  const r = await callTool(
    w.g.executor,
    { name, arguments: args },
    { principal: everyone, requestId: 'table-rows' },
    outputSchemas ? { outputSchemas } : {},
  );
  if ('resultType' in r) throw new Error('unexpected input_required');
  return { text: (r.content[0] as { text: string }).text, data: r.structuredContent as any };
};

describe('table rows in structuredContent', () => {
  it('a page of 100 records: structured rows carry the table and the ids, within about twice the text', async () => {
    const { text, data } = await call('records_listRecords', { app_id: 3001, limit: 100 });
    // the text budget keeps the rows that fit (93 here), and structuredContent the same rows
    expect(data.records.length).toBeGreaterThan(80);
    const ratio = tokens(JSON.stringify(data)) / tokens(text);
    expect(ratio).toBeLessThanOrEqual(2);
    // the same rows as the text, in order, with their ids
    expect(data.records.map((r: any) => String(r.record_id))).toEqual(tableCells(text));
    const first = data.records[0];
    expect(first).toEqual({ record_id: expect.any(Number), title: expect.any(String), values: expect.any(Object) });
    // the fields the table shows, as it words them
    expect(Object.keys(first.values)).toEqual(['status', 'source', 'motivation', 'email', 'phone', 'owner']);
    expect(text).toContain(`| ${first.record_id} | ${first.title} | ${first.values.status} |`);
    expect(data.total).toBeGreaterThanOrEqual(100);
  });

  it('the text names verbose: true for the fields left out, not structuredContent', async () => {
    const { text } = await call('records_listRecords', { app_id: 3001, limit: 5 });
    expect(text).toContain('Fields not shown');
    expect(text).toContain('read every field with verbose: true or with records_getRecord');
    expect(text).not.toContain('in structuredContent or');
  });

  it('verbose: true, or output_schemas=full, gives whole records', async () => {
    const verbose = await call('records_listRecords', { app_id: 3002, limit: 3, verbose: true });
    expect(verbose.data.records[0].fields).toEqual(expect.any(Array));
    const full = await call('records_listRecords', { app_id: 3002, limit: 3 }, 'full');
    expect(full.data.records[0].fields).toEqual(expect.any(Array));
    expect(full.text).toContain('Showing 1-3');
  });

  it('a list without a verbose parameter keeps whole rows', async () => {
    const { data } = await call('records_listRecordComments', { record_id: 70001 }).catch(() => ({ data: undefined }));
    if (data?.comments?.length) expect(Object.keys(data.comments[0])).toContain('comment_id');
    const props = await call('crm_getProperties', {});
    expect(props.data.properties[0]).toHaveProperty('name');
    expect(props.data.properties[0]).toHaveProperty('type');
  });

  it('table rows validate against the outline output schema clients are given', async () => {
    const schema = mcpToolList(w.g.executor).find((t) => t.name === 'records_filterRecords')!.outputSchema!;
    const { text, data } = await call('records_filterRecords', { app_id: 3001, limit: 20, filters: [] });
    expect(data, text).toBeDefined();
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
  });

  it("a relation keeps its records' ids", async () => {
    const { data } = await call('records_listRecords', { app_id: 3001, limit: 5, field_ids: ['property'] });
    const withProperty = data.records.find((r: any) => r.values?.property?.length);
    expect(withProperty.values.property[0]).toEqual({ record_id: expect.any(Number), title: expect.any(String) });
  });
});
