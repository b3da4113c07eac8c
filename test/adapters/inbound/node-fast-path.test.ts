import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeListener } from '../../../adapters/inbound/http/node-fast-path.js';
import { DEMO_TOKEN, READER_TOKEN, testGateway } from '../../support/gateway.js';

// The tool-call fast path (Node request to Node response, no Hono) must answer exactly as the Hono
// routes do. Two gateways with the same configuration and the same fresh state get the same requests in
// the same order: one served through the fast path, one through @hono/node-server alone.

interface Served {
  readonly base: string;
  readonly server: Server;
  fallbacks: number;
}

const serve = async (fastPath: boolean): Promise<Served> => {
  const gateway = testGateway({}, { GATEWAY_MAX_BODY_BYTES: '2048' });
  const hono = getRequestListener(gateway.http.fetch, { autoCleanupIncoming: false }) as NodeListener;
  const served: Served = { base: '', server: undefined as unknown as Server, fallbacks: 0 };
  const counted: NodeListener = (req, res) => {
    served.fallbacks++;
    hono(req, res);
  };
  const server = createServer(fastPath ? gateway.nodeListener(counted) : counted);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return Object.assign(served, {
    server,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
};

interface Req {
  readonly method?: string;
  readonly path: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

const auth = (token = DEMO_TOKEN) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

const requests: readonly Req[] = [
  { path: '/v1/tools/crm/getContact', body: '{"contact_id":"101"}', headers: auth() },
  { path: '/v1/tools/crm/getContact', body: '{"contact_id":"101"}' },
  { path: '/v1/tools/crm/getContact', body: '{"contact_id":"101"}', headers: auth('wrong-token-0123456789') },
  { path: '/v1/tools/crm/getContact', body: '{"contact_id":', headers: auth() },
  { path: '/v1/tools/crm/getContact', body: JSON.stringify({ contact_id: 'x'.repeat(3000) }), headers: auth() },
  { path: '/v1/tools/crm/getContact?format=json', body: '{"contact_id":"101"}', headers: auth() },
  { path: '/v1/tools/crm/getContact?max_chars=5', body: '{"contact_id":"101"}', headers: auth() },
  { path: '/v1/tools/crm/getContact', body: '{"contact_id":"101","extra":1}', headers: auth() },
  { path: '/v1/tools/crm/getContact', body: '{"contact_id":"999999"}', headers: auth() },
  {
    path: '/v1/tools/call',
    body: '{"name":"crm_searchContacts","arguments":{"query":"maria"}}',
    headers: { ...auth(), 'x-request-id': 'caller-chosen-id-1' },
  },
  { path: '/v1/tools/call', body: '{"name":"crm_getContact","arguments":{},"oops":1}', headers: auth() },
  { path: '/v1/tools/call', body: '{"name":"crm_getContacts","arguments":{}}', headers: auth() },
  {
    path: '/v1/tools/crm/createContact',
    body: '{"values":{"email":"fast.path@example.com","firstname":"Fast"}}',
    headers: { ...auth(), 'idempotency-key': 'fast-path-key-1' },
  },
  {
    path: '/v1/tools/crm/createContact',
    body: '{"values":{"email":"fast.path@example.com","firstname":"Fast"}}',
    headers: { ...auth(), 'idempotency-key': 'fast-path-key-1' },
  },
  {
    path: '/v1/tools/crm/createContact',
    body: '{"values":{"email":"reader@example.com"}}',
    headers: auth(READER_TOKEN),
  },
  { method: 'GET', path: '/v1/tools/crm/getContact', headers: auth() },
  { path: '/v1/tools/crm/getContact/', body: '{"contact_id":"101"}', headers: auth() },
];

/** Status, headers that matter and the body, with generated request ids made comparable. */
const send = async (base: string, r: Req) => {
  const res = await fetch(`${base}${r.path}`, { method: r.method ?? 'POST', headers: r.headers, body: r.body });
  const id = res.headers.get('x-request-id') ?? '';
  const text = (await res.text()).split(id).join('<request-id>');
  const headers: Record<string, string> = {};
  for (const [k, v] of res.headers) if (k !== 'date' && k !== 'x-request-id') headers[k] = v;
  return { status: res.status, headers, body: text, echoedId: id === r.headers?.['x-request-id'] };
};

describe('the tool-call fast path', () => {
  let fast: Served;
  let hono: Served;
  beforeAll(async () => {
    [fast, hono] = await Promise.all([serve(true), serve(false)]);
  });
  afterAll(() => {
    fast.server.close();
    hono.server.close();
  });

  it('answers every request exactly as the Hono routes do, and takes only tool calls itself', async () => {
    const statuses: number[] = [];
    for (const r of requests) {
      const a = await send(fast.base, r);
      const b = await send(hono.base, r);
      expect(a, `${r.method ?? 'POST'} ${r.path} ${r.body ?? ''}`).toEqual(b);
      statuses.push(a.status);
    }
    // The sequence covers answers of every kind, not only successes.
    expect(statuses).toEqual([200, 401, 401, 400, 413, 200, 400, 400, 404, 200, 400, 404, 200, 200, 403, 405, 200]);
    // Only the GET and the odd spelling (trailing slash) went to Hono; every other request to the fast path.
    expect(fast.fallbacks).toBe(2);
    expect(hono.fallbacks).toBe(requests.length * 1);
  });
});
