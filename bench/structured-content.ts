// What a list answer costs a model over MCP (issue 41): the text, and the structuredContent beside it that
// many clients also hand to the model, in tokens (js-tiktoken, o200k_base), for the list tools on the demo
// data: table rows (the default for a list tool with `verbose`: the table's columns plus ids) against whole
// rows (`verbose: true`, or `output_schemas=full`).
//
//   npm run bench:structured
import { getEncoding } from 'js-tiktoken';
import pino from 'pino';
import { callTool } from '../adapters/inbound/mcp/mcp-tools.js';
import { createGateway, principal } from '../composition/gateway.js';

const encoding = getEncoding('o200k_base');
const tokens = (s: string) => encoding.encode(s).length;
const gateway = createGateway({
  env: { GATEWAY_DEMO_TOKEN: 'structured-bench-token-0123', RATE_LIMIT_PER_MINUTE: '1000000' },
  logger: pino({ level: 'silent' }),
});
const caller = { principal: principal('bench', ['*']), requestId: 'bench' };

const CALLS: readonly [string, Record<string, unknown>][] = [
  ['records_listRecords', { app_id: 3001, limit: 100 }],
  ['records_listRecords', { app_id: 3001, limit: 100, field_ids: ['name'] }],
  ['records_filterRecords', { app_id: 3001, limit: 100, filters: [] }],
  ['records_listRecords', { app_id: 3002, limit: 100 }],
  ['crm_searchContacts', { query: 'a' }],
  ['crm_getProperties', {}],
  ['files_listChildren', {}],
  ['files_listShares', {}],
];

const measure = async (name: string, args: Record<string, unknown>, full: boolean) => {
  const r = await callTool(gateway.executor, { name, arguments: args }, caller, full ? { outputSchemas: 'full' } : {});
  if ('resultType' in r) throw new Error(`${name}: input required`);
  const text = (r.content[0] as { text: string }).text;
  if (r.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${text.slice(0, 200)}`);
  return { text: tokens(text), structured: tokens(JSON.stringify(r.structuredContent ?? null)) };
};

console.log('| call | text | structured, default | ratio | structured, whole rows | ratio |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [name, args] of CALLS) {
  const table = await measure(name, args, false);
  const whole = await measure(name, args, true);
  const ratio = (n: number, of: number) => (n / of).toFixed(1);
  console.log(
    `| ${name} ${JSON.stringify(args)} | ${table.text} | ${table.structured} | ${ratio(table.structured, table.text)}x | ${whole.structured} | ${ratio(whole.structured, whole.text)}x |`,
  );
}
process.exit(0);
