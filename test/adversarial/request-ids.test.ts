import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, testGateway } from '../support/gateway.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

// Issue 26: answers outside the tool calls had no X-Request-Id (health, metrics, docs, OpenAPI, the
// connection routes, the files data plane, tenant routes), nor had the answers Node gives itself. Every
// answer now carries one: the caller's when it sent a sensible one (as tool calls always did), a new UUID
// otherwise.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Method, path and what else the request carries; every route family of the gateway. */
type Route = [method: string, path: string, init?: RequestInit];
const ROUTES: Route[] = [
  ['GET', '/health'],
  ['HEAD', '/health'],
  ['GET', '/healthz'],
  ['GET', '/readyz'],
  ['GET', '/metrics'],
  ['GET', '/metrics', { headers: { authorization: 'Bearer metrics-token-0123456789' } }],
  ['GET', '/docs'],
  ['GET', '/docs/'],
  ['GET', '/docs/assets/missing.js'],
  ['GET', '/openapi.json'],
  ['GET', '/v1/tools'],
  ['GET', '/v1/tools?groups=crm'],
  ['GET', '/no/such/route'],
  ['POST', '/v1/tools/crm/getContact'],
  [
    'POST',
    '/v1/tools/crm/getContact',
    { body: '{"contact_id":"101"}', headers: { authorization: `Bearer ${DEMO_TOKEN}` } },
  ],
  [
    'POST',
    '/v1/tools/crm/getContact',
    { body: 'x'.repeat(1_100_000), headers: { authorization: `Bearer ${DEMO_TOKEN}` } },
  ],
  ['GET', '/v1/tools/crm/getContact'],
  ['OPTIONS', '/v1/tools/crm/getContact'],
  ['OPTIONS', '/mcp'],
  ['POST', '/mcp'],
  ['GET', '/.well-known/oauth-protected-resource'],
  ['GET', '/v1/connections'],
  ['GET', '/v1/connections', { headers: { authorization: `Bearer ${DEMO_TOKEN}` } }],
  ['GET', '/v1/audit'],
  ['GET', '/connect/hubspot'],
  ['GET', '/oauth/callback'],
  ['GET', '/files/transfer/download/item/1?expires=1&sig=x'],
  ['POST', '/files/transfer/upload/u/chunk?expires=1&sig=x'],
  ['GET', '/files/shares/no-such-share'],
  ['GET', '/files/elsewhere'],
  ['GET', '/t/acme/files/shares/no-such-share'],
  ['GET', '/t/not a tenant/files/x'],
];

describe('every answer carries X-Request-Id', () => {
  const g = testGateway({}, { METRICS_TOKEN: 'metrics-token-0123456789' });

  it.each<Route>(ROUTES)('%s %s', async (method, path, init) => {
    const res = await g.http.request(path, { method, ...init });
    expect(res.headers.get('x-request-id'), `${method} ${path} -> ${res.status}`).toMatch(UUID);
  });

  it.each<Route>(ROUTES)("keeps the caller's id: %s %s", async (method, path, init) => {
    const headers = { ...(init?.headers as Record<string, string> | undefined), 'x-request-id': 'trace-7:a.b_c' };
    const res = await g.http.request(path, { ...init, method, headers });
    expect(res.headers.get('x-request-id'), `${method} ${path} -> ${res.status}`).toBe('trace-7:a.b_c');
  });

  it('replaces an id that is not a sensible one with a new one', async () => {
    for (const given of ['has%20space', 'x'.repeat(129), 'a/b', '']) {
      const res = await g.http.request('/health', { headers: { 'x-request-id': given } });
      expect(res.headers.get('x-request-id'), given).toMatch(UUID);
    }
  });
});

describe('answers Node and the HTTP adapter give themselves', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ GATEWAY_DEMO_TOKEN: DEMO_TOKEN });
  }, 60_000);
  afterAll(() => server?.child.kill('SIGKILL'));

  const raw = (text: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const u = new URL(server.base);
      const socket = connect(Number(u.port), u.hostname, () => socket.write(text));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => {
        answer += d;
        if (/\r\n\r\n[\s\S]*\}$/.test(answer)) socket.end();
      });
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
      setTimeout(() => socket.destroy(), 10_000);
    });

  it.each([
    ['a request line that is not HTTP', 'NOT HTTP AT ALL\r\n\r\n', 400],
    ['an absolute target that is no URL', 'GET http://exa mple/ HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a Host header that makes no URL', 'GET /health HTTP/1.1\r\nHost: a b\r\n\r\n', 400],
    ['headers too large', `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('%s', async (_name, text, status) => {
    const answer = await raw(text);
    const [head, body] = answer.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(head.toLowerCase()).toMatch(/\r\nx-request-id: [0-9a-f-]{36}/);
    expect(JSON.parse(body)).toMatchObject({ success: false, error: { code: expect.any(String) } });
  });

  it('gives the id over a real socket too', async () => {
    for (const path of ['/health', '/docs', '/files/shares/none', '/no/such/route']) {
      const r = await fetch(`${server.base}${path}`);
      expect(r.headers.get('x-request-id'), path).toMatch(UUID);
    }
  });
});
