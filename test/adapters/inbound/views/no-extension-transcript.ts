import { DEMO_TOKEN } from '../../../support/gateway.js';
import type { Gateway } from '../../../../composition/gateway.js';

// Issue 43: what a client WITHOUT the MCP Apps extension is answered, byte for byte, on both revisions: the
// transcript no-extension.test.ts holds to a committed snapshot (checked against the answers before the
// views, see there). Only values that are random by design are replaced (approval tokens, connect tickets,
// request UUIDs), each by a placeholder, so that everything else is compared as sent.

/**
 * The tool calls of the transcript: tools with a view for views clients (a listing, a file, a plain read) and
 * the gated ones (run at once for a client that cannot ask a person, so each revision deletes a contact of
 * its own).
 */
export const calls = (contactToDelete: string): ReadonlyArray<{ name: string; arguments: Record<string, unknown> }> => [
  { name: 'records_listRecords', arguments: { app_id: 3002, limit: 3 } },
  { name: 'records_filterRecords', arguments: { app_id: 3002, filters: [], sort_by: 'asking-price', limit: 2 } },
  { name: 'files_getItem', arguments: { item_id: 'fid4a9d210ff841f' } },
  { name: 'files_readFile', arguments: { item_id: 'fid4a9d210ff841f' } },
  { name: 'crm_getContact', arguments: { contact_id: '101' } },
  { name: 'crm_deleteContact', arguments: { contact_id: contactToDelete } },
  {
    name: 'skiptrace_skipTraceProperty',
    arguments: { street: '10 Harbor Way', city: 'Boston', state: 'MA', zip: '02110', purpose: 'seller outreach' },
  },
];

/** Random by design: the approval token of an ask, the sealed ticket of a connect link, a request's UUID. */
export const normalise = (raw: string): string =>
  raw
    .replace(/("approval_token\\?":\\?")[^"\\]+/g, '$1<approval-token>')
    .replace(/(approval_token[=:] ?)[\w.~-]{20,}/g, '$1<approval-token>')
    .replace(/(ticket=)[\w.~%-]+/g, '$1<ticket>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>');

const post = async (
  gateway: Gateway,
  token: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ raw: string; session: string | null }> => {
  const res = await gateway.http.fetch(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  );
  return { raw: normalise(await res.text()), session: res.headers.get('mcp-session-id') };
};

/** A 2026-07-28 request with the client's capabilities in its envelope (none of the UI extension). */
export const modern = (
  gateway: Gateway,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = {},
  token = DEMO_TOKEN,
) =>
  post(
    gateway,
    token,
    {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof params['name'] === 'string' ? { 'mcp-name': params['name'] } : {}),
      ...(typeof params['uri'] === 'string' ? { 'mcp-name': params['uri'] } : {}),
    },
    {
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'plain-client', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    },
  );

/**
 * A 2025-11-25 client: initialize with `capabilities`, then each request with the session id it was given
 * (none for a client that declared nothing: the stateless leg gives none).
 */
export const legacy = async (gateway: Gateway, capabilities: Record<string, unknown> = {}, token = DEMO_TOKEN) => {
  const init = await post(
    gateway,
    token,
    {},
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'plain-client', version: '1.0.0' } },
    },
  );
  const session = init.session;
  return (method: string, params: Record<string, unknown>) =>
    post(
      gateway,
      token,
      { 'mcp-protocol-version': '2025-11-25', ...(session ? { 'mcp-session-id': session } : {}) },
      { jsonrpc: '2.0', id: 1, method, params },
    );
};

/**
 * The transcript of a client without the extension: tools/list and each call of CALLS on both revisions
 * (demo key, memory mode), and a vendor-backed call without a connection (`hub`, as `hubToken`).
 */
export const transcript = async (gateway: Gateway, hub: Gateway, hubToken: string): Promise<Record<string, string>> => {
  const out: Record<string, string> = {};
  const old = await legacy(gateway);
  out['2026-07-28 tools/list'] = (await modern(gateway, 'tools/list', {})).raw;
  out['2025-11-25 tools/list'] = (await old('tools/list', {})).raw;
  for (const call of calls('102'))
    out[`2026-07-28 tools/call ${call.name}`] = (await modern(gateway, 'tools/call', call)).raw;
  for (const call of calls('103')) out[`2025-11-25 tools/call ${call.name}`] = (await old('tools/call', call)).raw;
  const notConnected = { name: 'crm_getContact', arguments: { contact_id: '101' } };
  out['2026-07-28 tools/call crm_getContact, not connected'] = (
    await modern(hub, 'tools/call', notConnected, {}, hubToken)
  ).raw;
  out['2025-11-25 tools/call crm_getContact, not connected'] = (
    await (
      await legacy(hub, {}, hubToken)
    )('tools/call', notConnected)
  ).raw;
  return out;
};
