import type { McpRequestFacts, TraceCarrier } from '../../../ports/call-observer.js';
import { traceHeaders } from '../http/tool-calls.js';

// What an MCP request tells a trace (issue 39): the W3C headers of the HTTP request (tools/call's `_meta`
// wins over them, mcp-tools.ts), and the MCP semantic conventions' facts of the request: its session,
// protocol version and JSON-RPC id. Cheap to gather; read only by the tracing observer, when tracing is on.

/** The longest session id, protocol version or string request id kept for a span. */
const MAX_FACT = 128;

const short = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_FACT ? value : undefined;

/** The request's JSON-RPC id, when the body is one request with a string or integer id. */
const requestIdOf = (body: unknown): string | number | undefined => {
  const id =
    body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : short(id);
};

/** The trace carrier of an MCP request: its trace headers, if any, and its MCP facts. */
export const mcpTraceOf = (header: (name: string) => string | undefined, body: unknown): TraceCarrier => {
  const sessionId = short(header('mcp-session-id'));
  const protocolVersion = short(header('mcp-protocol-version'));
  const requestId = requestIdOf(body);
  const mcp: McpRequestFacts = {
    ...(sessionId ? { sessionId } : {}),
    ...(protocolVersion ? { protocolVersion } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
  };
  return { ...traceHeaders(header), mcp };
};
