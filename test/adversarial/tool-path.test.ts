import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, request, testGateway } from '../support/gateway.js';

// Attack: a malformed percent-escape in the tool path (decodeURIComponent threw) answered 500. No
// malformed path may get a 5xx: bad escapes are a 400 that names the path, unknown tools a 404.

const paths = [
  '/v1/tools/%E0%A4%A/x',
  '/v1/tools/crm/%E0%A4%A',
  '/v1/tools/%/x',
  '/v1/tools/crm/%',
  '/v1/tools/%zz/getContact',
  '/v1/tools/crm/get%zzContact',
  '/v1/tools/%C0%AF/x',
  '/v1/tools/%ED%A0%80/x',
  '/v1/tools/%FF%FE/%FF',
  '/v1/tools/crm/getContact%',
  '/v1/tools/crm/getContact%2',
  '/v1/tools/crm/getContact/',
  '/v1/tools/crm%2FgetContact/x',
  '/v1/tools/%00/%00',
  '/v1/tools/crm/%00getContact',
  `/v1/tools/${'a'.repeat(4000)}/${'b'.repeat(4000)}`,
  `/v1/tools/crm/${'%zz'.repeat(1000)}`,
  `/v1/tools/${'%E0%A4'.repeat(500)}/x`,
  '/v1/tools/../../etc/passwd/x',
  '/v1/tools/crm/getContact?%zz=%zz',
  '/v1/tools/%2e%2e/%2e%2e',
];

describe('malformed tool paths', () => {
  const gateway = testGateway();

  it.each(paths)('answers %s without a 5xx (in process)', async (path) => {
    for (const token of [DEMO_TOKEN, null]) {
      const r = await request(gateway, 'POST', path, { rawBody: '{}', token });
      expect(r.status, r.raw.slice(0, 300)).toBeLessThan(500);
      expect(r.body?.success).toBe(false);
    }
  });

  it('names the path in a 400 for a malformed escape', async () => {
    const r = await request(gateway, 'POST', '/v1/tools/%E0%A4%A/x', { rawBody: '{}' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'path' } });
  });

  describe('over a real socket', () => {
    const listener = getRequestListener(gateway.http.fetch);
    const server = createServer((req, res) => void listener(req, res));
    let port = 0;
    beforeAll(async () => {
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

    // Raw paths, sent byte for byte (fetch would normalise them).
    const send = (path: string, method = 'POST') =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path,
            method,
            headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end('{}');
      });

    it.each(paths)('answers %s without a 5xx', async (path) => {
      for (const method of ['POST', 'GET', 'DELETE']) expect(await send(path, method)).toBeLessThan(500);
    });
  });
});
