// The MCP reference: the official SDK v2 (@modelcontextprotocol/server) with one tool, crm_getContact,
// answering the recorded result (BENCH_RESULT: the gateway's own CallToolResult, text and structuredContent),
// served stateless over Streamable HTTP the way the gateway serves it: Hono on @hono/node-server, a
// 2026-07-28 request to `createMcpHandler`, a 2025-era one (by the SDK's `isLegacyRequest`) to a fresh
// server on the stateless `WebStandardStreamableHTTPServerTransport` with JSON answers. No authentication,
// no logging, no limits: what the SDK costs by itself. The tool is declared the SDK's usual way
// (`McpServer.registerTool` with a zod input schema, which the SDK checks the arguments against); with
// BENCH_SDK_SERVER=low-level it is the low-level `Server` with a tools/list and a tools/call handler and no
// argument check, as the gateway wires it (the gateway checks arguments itself), the lightest reference.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

const result = JSON.parse(process.env.BENCH_RESULT ?? '{"content":[{"type":"text","text":"ok"}]}');
const inputSchema = z.object({ contact_id: z.string() });

const tool = {
  name: 'crm_getContact',
  description: 'One contact by id.',
  inputSchema: { type: 'object', properties: { contact_id: { type: 'string' } }, required: ['contact_id'] },
};
const factory =
  process.env.BENCH_SDK_SERVER === 'low-level'
    ? () => {
        const server = new Server(
          { name: 'bare-mcp-sdk', version: '1.0.0' },
          { capabilities: { tools: { listChanged: false } } },
        );
        server.setRequestHandler('tools/list', () => ({ tools: [tool] }));
        server.setRequestHandler('tools/call', () => result);
        return server;
      }
    : () => {
        const server = new McpServer({ name: 'bare-mcp-sdk', version: '1.0.0' });
        server.registerTool('crm_getContact', { description: tool.description, inputSchema }, () => result);
        return server;
      };
const modern = createMcpHandler(factory, { legacy: 'reject' });

const legacy = async (request, parsedBody) => {
  const server = factory();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close();
  }
};

// The body is parsed once and handed to the SDK (its documented shortcut), as the gateway does.
const app = new Hono();
app.post('/mcp', async (c) => {
  const parsedBody = await c.req.json();
  return (await isLegacyRequest(c.req.raw, parsedBody))
    ? legacy(c.req.raw, parsedBody)
    : modern.fetch(c.req.raw, { parsedBody });
});
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info) =>
  process.stdout.write(`listening on http://127.0.0.1:${info.port}\n`),
);
