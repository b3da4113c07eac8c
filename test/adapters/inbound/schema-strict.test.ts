import { Ajv } from 'ajv';
import { afterAll, expect, it } from 'vitest';
import { mcpToolList } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { testGateway } from '../../support/gateway.js';

// Every tool's input schema, as MCP clients receive it, compiles in Ajv's strict mode (no unknown keywords,
// no union types, no ignored keywords): what strict MCP clients and validators require.

const g = testGateway();
afterAll(() => g.close());

it('compiles every MCP input schema in Ajv strict mode', () => {
  const tools = mcpToolList(g.executor);
  expect(tools.length).toBeGreaterThan(50);
  const failures = tools.flatMap((t) => {
    try {
      new Ajv({ strict: true }).compile(t.inputSchema as object);
      return [];
    } catch (e) {
      return [`${t.name}: ${(e as Error).message}`];
    }
  });
  expect(failures).toEqual([]);
});
