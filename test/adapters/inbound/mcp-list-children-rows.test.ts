import { Ajv } from 'ajv';
import { getEncoding } from 'js-tiktoken';
import { beforeAll, describe, expect, it } from 'vitest';
import { callTool, mcpToolList } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { everyone, testGateway } from '../../support/gateway.js';

// files_listChildren's structuredContent a model can afford (issue 41): it was 4.1 times the text's tokens
// (whole ShareFile items: url, Path, Parent, creator...). By default each item there is what its schema
// requires (Id, Name, odata.type) and the table's other columns; verbose: true or output_schemas=full keep
// whole items.

const g = testGateway();
const encoding = getEncoding('o200k_base');
const tokens = (s: string) => encoding.encode(s).length;

const call = async (args: Record<string, unknown>, outputSchemas?: 'full') => {
  const r = await callTool(
    g.executor,
    { name: 'files_listChildren', arguments: args },
    { principal: everyone, requestId: 'list-children-rows' },
    outputSchemas ? { outputSchemas } : {},
  );
  if ('resultType' in r) throw new Error('unexpected input_required');
  expect(r.isError ?? false).toBe(false);
  return { text: (r.content[0] as { text: string }).text, data: r.structuredContent as any };
};

let folder = '';
beforeAll(async () => {
  const made = await g.callTool(
    'files_createFolder',
    { parent_id: 'home', name: 'Rows' },
    { principal: everyone, format: 'json' },
  );
  folder = (made.body as any).data.Id;
  for (let i = 0; i < 60; i++) {
    const w = await g.callTool(
      'files_writeFile',
      { folder_id: folder, file_name: `offer-${String(i).padStart(2, '0')}.txt`, content: `Offer ${i}` },
      { principal: everyone, format: 'json' },
    );
    expect(w.status).toBe(200);
  }
});

describe('files_listChildren table rows in structuredContent', () => {
  it.each([['home'], ['a folder of 60 files']])('%s: at most twice the text tokens', async (which) => {
    const { text, data } = await call({ folder_id: which === 'home' ? 'home' : folder });
    expect(data.items.length).toBeGreaterThan(which === 'home' ? 2 : 50);
    expect(tokens(JSON.stringify(data)) / tokens(text)).toBeLessThanOrEqual(2);
  });

  it('each row: the members its schema requires and the columns the table shows, in the order of the text', async () => {
    const { text, data } = await call({ folder_id: 'home' });
    const first = data.items.find((i: any) => i['odata.type'].endsWith('File'));
    expect(Object.keys(first).sort()).toEqual(['Id', 'Name', 'created', 'odata.type', 'size', 'type']);
    for (const item of data.items) expect(text).toContain(`| ${item.Id} | ${item.Name} | ${item.type} |`);
    expect(data.total_count).toBe(data.items.length);
  });

  it('table rows validate against the outline output schema clients are given', async () => {
    const schema = mcpToolList(g.executor).find((t) => t.name === 'files_listChildren')!.outputSchema!;
    const { data } = await call({ folder_id: folder });
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
  });

  it('verbose: true, or output_schemas=full, gives whole items', async () => {
    const verbose = await call({ folder_id: 'home', verbose: true });
    expect(verbose.data.items[0]).toHaveProperty('Path');
    expect(verbose.data.items[0]).toHaveProperty('url');
    const full = await call({ folder_id: 'home' }, 'full');
    expect(full.data.items[0]).toHaveProperty('Path');
  });
});
