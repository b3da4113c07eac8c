import { DEMO_TOKEN } from '../../../support/gateway.js';
import type { Gateway } from '../../../../composition/gateway.js';

/** The capabilities a host that renders MCP Apps declares (the extension with the HTML profile). */
export const UI_CAPABILITIES = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};

/** A raw 2026-07-28 request to /mcp (no socket), with the given client capabilities: the answer's text and JSON. */
export const viewRpc = async (
  gateway: Gateway,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = UI_CAPABILITIES,
  token: string = DEMO_TOKEN,
  query = '',
): Promise<{ raw: string; body: any }> => {
  const res = await gateway.http.fetch(
    new Request(`http://localhost/mcp${query}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(typeof params['name'] === 'string' ? { 'mcp-name': params['name'] } : {}),
        ...(typeof params['uri'] === 'string' ? { 'mcp-name': params['uri'] } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'view-host', version: '1.0.0' },
            'io.modelcontextprotocol/clientCapabilities': capabilities,
          },
        },
      }),
    }),
  );
  const raw = await res.text();
  return { raw, body: JSON.parse(raw) };
};
