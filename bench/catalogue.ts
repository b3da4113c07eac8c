// The tool catalogue's size in tokens, counted with a real tokenizer (js-tiktoken, o200k_base, the
// encoding of current OpenAI models; Anthropic's and Google's tokenizers differ by some percent).
// - What the model reads, on which the target is set: each tool's name, description and input schema.
//   MCP hosts hand the model only these (Claude Code, for one, keeps title, annotations and outputSchema for
//   itself: anthropics/claude-code issues 54197 and 90150 ask for the output schema to reach the model).
// - MCP tools/list as it goes over the wire: also the title, the hints and the outline output schemas
//   (with the full output schemas, and with none).
// - Per group, for a read-only token, and in each REST dialect.
//
//   npm run bench:catalogue
import { getEncoding } from 'js-tiktoken';
import pino from 'pino';
import { mcpToolList } from '../adapters/inbound/mcp/mcp-tools.js';
import { DIALECTS, toDialect } from '../adapters/inbound/dialects/tool-dialects.js';
import { GROUPS } from '../application/runtime/define-tool.js';
import { visibleTools } from '../application/runtime/toolsets.js';
import { createGateway, principal } from '../composition/gateway.js';

const TARGET = 11_000;
const encoding = getEncoding('o200k_base');
const tokens = (value: unknown) => encoding.encode(JSON.stringify(value)).length;

const gateway = createGateway({
  env: { GATEWAY_DEMO_TOKEN: 'catalogue-bench-token-0123' },
  logger: pino({ level: 'silent' }),
});
const all = mcpToolList(gateway.executor);
const withFull = mcpToolList(gateway.executor, 'full');
const withNone = mcpToolList(gateway.executor, 'none');
const byName = new Map(all.map((t) => [t.name, t]));
const listOf = (names: readonly string[]) => ({ tools: names.map((n) => byName.get(n)!) });
const full = tokens({ tools: all });
const read = tokens({
  tools: all.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
});

console.log(`Tool catalogue, ${all.length} tools (o200k_base tokens)`);
console.log(`what the model reads (name, description, input schema): ${read} tokens`);
console.log(`  target: under ${TARGET} tokens: ${read < TARGET ? 'met' : 'NOT met'}`);
console.log(
  `MCP tools/list on the wire (also title, hints, outline outputSchema): ${full} tokens, ${Buffer.byteLength(JSON.stringify({ tools: all }))} bytes`,
);
console.log(`  with output_schemas=full: ${tokens({ tools: withFull })} tokens`);
console.log(`  with output_schemas=none: ${tokens({ tools: withNone })} tokens`);
console.log(`  of which the outputSchemas (outline, the default): ${full - tokens({ tools: withNone })} tokens\n`);
console.log('| listing | tools | tokens |\n|---|---|---|');
for (const g of GROUPS) {
  const names = visibleTools(gateway.executor.registry, undefined, [g]).map((t) => t.name);
  if (names.length) console.log(`| /mcp?groups=${g} | ${names.length} | ${tokens(listOf(names))} |`);
}
const reader = principal(
  'reader',
  GROUPS.map((g) => `${g}:read`),
);
const readable = visibleTools(gateway.executor.registry, reader, undefined).map((t) => t.name);
console.log(`| a token with every :read permission | ${readable.length} | ${tokens(listOf(readable))} |`);
for (const d of DIALECTS) {
  console.log(`| GET /v1/tools?dialect=${d} | ${all.length} | ${tokens(toDialect(gateway.listTools(), d))} |`);
}
await gateway.close();
