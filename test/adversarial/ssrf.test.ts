import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from '../../adapters/outbound/http/address-policy.js';
import { systemResolve } from '../../adapters/outbound/http/pinned-lookup.js';
import { UrlFetchGuard } from '../../adapters/outbound/http/url-fetch-guard.js';
import { DEALS_APP } from '../../adapters/outbound/memory/demo/records.js';
import type { Gateway } from '../../composition/gateway.js';
import { UrlFetcher } from '../../ports/url-fetcher.js';
import { post, testGateway } from '../support/gateway.js';

/**
 * SSRF through attachment URLs, replayed against the gateway's HTTP surface. A listener on the loopback
 * interface (IPv4 and IPv6) stands for an internal service: whatever form a caller writes its address in,
 * however the name resolves, wherever a redirect points, it must receive no connection at all, and
 * every call must get a 400 naming the URL parameter.
 */
const started = async (server: Server, host: string): Promise<number> => {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
};
const stop = async (server: Server) => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
};

describe('SSRF: no attachment URL reaches an internal listener', () => {
  let sink: Server;
  let port: number;
  const reached = { connections: 0, requests: 0 };
  beforeAll(async () => {
    sink = createServer((_, res) => (reached.requests++, res.end('internal secret')));
    sink.on('connection', () => reached.connections++);
    port = await started(sink, '::'); // dual stack: 127.0.0.1, ::1 and ::ffff:127.0.0.1 all land here
  });
  afterAll(() => stop(sink));

  const forms = (p: number): string[] => [
    `http://127.0.0.1:${p}/a.pdf`,
    `http://localhost:${p}/a.pdf`,
    `http://[::1]:${p}/a.pdf`,
    `http://[::ffff:127.0.0.1]:${p}/a.pdf`,
    `http://[::ffff:7f00:1]:${p}/a.pdf`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/a.pdf`,
    `http://[::ffff:0:127.0.0.1]:${p}/a.pdf`,
    `http://[::127.0.0.1]:${p}/a.pdf`,
    `http://[64:ff9b::127.0.0.1]:${p}/a.pdf`,
    `http://[2002:7f00:1::]:${p}/a.pdf`,
    `http://0.0.0.0:${p}/a.pdf`,
    `http://[::]:${p}/a.pdf`,
    `http://2130706433:${p}/a.pdf`,
    `http://0x7f.1:${p}/a.pdf`,
    `http://017700000001:${p}/a.pdf`,
    `http://127.1:${p}/a.pdf`,
    `http://127.0.0.1.:${p}/a.pdf`,
    `http://127。0。0。1:${p}/a.pdf`,
  ];

  describe('the gateway as configured (memory mode, default guard)', () => {
    let g: Gateway;
    let dealId: number;
    beforeAll(async () => {
      g = testGateway();
      const created = await post(g, '/v1/tools/records/createRecord?format=json', {
        app_id: DEALS_APP,
        fields: { title: 'Target' },
      });
      expect(created.status).toBe(200);
      dealId = created.body.data.record_id;
    });

    it('refuses every loopback form in records_uploadFiles', async () => {
      for (const url of forms(port)) {
        const r = await post(g, '/v1/tools/records/uploadFiles?format=json', { files: [{ url }] });
        expect({
          url,
          status: r.status,
          code: r.body?.error?.code,
          parameter: r.body?.error?.details?.parameter,
        }).toEqual({ url, status: 400, code: 'INVALID_PARAMETER', parameter: 'files[0].url' });
      }
      expect(reached).toEqual({ connections: 0, requests: 0 });
    });

    it('refuses every loopback form as an attachment of records_createRecord, records_updateRecord and records_batchCreateRecords', async () => {
      for (const url of forms(port)) {
        const c = await post(g, '/v1/tools/records/createRecord?format=json', {
          app_id: DEALS_APP,
          fields: { title: 'Deal', documents: [url] },
        });
        expect({ url, status: c.status, parameter: c.body?.error?.details?.parameter }).toEqual({
          url,
          status: 400,
          parameter: 'fields.documents',
        });
        const u = await post(g, '/v1/tools/records/updateRecord?format=json', {
          record_id: dealId,
          fields: { documents: [url] },
        });
        expect({ url, status: u.status, parameter: u.body?.error?.details?.parameter }).toEqual({
          url,
          status: 400,
          parameter: 'fields.documents',
        });
        const b = await post(g, '/v1/tools/records/batchCreateRecords?format=json', {
          app_id: DEALS_APP,
          inputs: [{ fields: { title: 'Deal', documents: [url] } }],
        });
        expect(b.body.data).toMatchObject({ successful: 0, failed: 1 });
      }
      expect(reached).toEqual({ connections: 0, requests: 0 });
    });
  });

  it('DNS rebinding: a name that is public when checked and loopback when connecting never reaches the listener', async () => {
    // The first answer is public (what a check sees), every later one is loopback (what a second,
    // unchecked resolution would see). `localhost` makes an unpinned fetch really land on the listener.
    const asked: string[] = [];
    const rebinding = async (host: string) => (
      asked.push(host),
      asked.length === 1 ? ['93.184.216.34'] : ['127.0.0.1']
    );
    const g = testGateway({
      ports: [
        [
          UrlFetcher,
          new UrlFetchGuard({ maxBytes: 1_048_576, timeoutMs: 2_000, allowPrivate: false, resolve: rebinding }),
        ],
      ],
    });
    const r = await post(g, '/v1/tools/records/uploadFiles?format=json', {
      files: [{ url: `http://localhost:${port}/a.pdf` }],
    });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('files[0].url');
    expect(r.body.error.message).toContain('127.0.0.1 is loopback');
    expect(asked.length).toBe(2); // the connection resolved again, and checked what it resolved
    expect(reached).toEqual({ connections: 0, requests: 0 });
  });

  describe('redirects', () => {
    let redirector: Server;
    let g: Gateway;
    let origin: string;
    const served: string[] = [];
    beforeAll(async () => {
      // 127.0.0.2 stands for a public file host: the address policy lets exactly that address through,
      // everything else is judged by the real policy. The sink stays on 127.0.0.1 / ::1.
      redirector = createServer((req, res) => {
        served.push(req.url ?? '');
        if (req.url === '/file.pdf')
          return void res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1');
        const to = decodeURIComponent((req.url ?? '').replace(/^\/to\//, ''));
        res.writeHead(302, { location: to }).end();
      });
      const rport = await started(redirector, '127.0.0.2');
      origin = `http://files.example.test:${rport}`;
      const resolve = async (host: string) => (host === 'files.example.test' ? ['127.0.0.2'] : systemResolve(host));
      const addressPolicy = (ip: string) => (ip === '127.0.0.2' ? { allowed: true as const } : classifyAddress(ip));
      g = testGateway({
        ports: [
          [
            UrlFetcher,
            new UrlFetchGuard({ maxBytes: 1_048_576, timeoutMs: 2_000, allowPrivate: false, resolve, addressPolicy }),
          ],
        ],
      });
    });
    afterAll(() => stop(redirector));

    it('fetches from the stand-in public host (control: the setup does reach an allowed host)', async () => {
      const r = await post(g, '/v1/tools/records/uploadFiles?format=json', { files: [{ url: `${origin}/file.pdf` }] });
      expect(r.status).toBe(200);
      expect(r.body.data.files[0]).toMatchObject({ name: 'file.pdf', size: 6 });
    });

    it('refuses a redirect from the allowed host to any loopback form', async () => {
      const targets = [
        `http://127.0.0.1:${port}/a.pdf`,
        `http://[::ffff:7f00:1]:${port}/a.pdf`,
        `http://localhost:${port}/a.pdf`,
        `http://[::1]:${port}/a.pdf`,
        `http://2130706433:${port}/a.pdf`,
      ];
      for (const target of targets) {
        const url = `${origin}/to/${encodeURIComponent(target)}`;
        const r = await post(g, '/v1/tools/records/uploadFiles?format=json', { files: [{ url }] });
        expect({ target, status: r.status, parameter: r.body?.error?.details?.parameter }).toEqual({
          target,
          status: 400,
          parameter: 'files[0].url',
        });
        expect(r.body.error.message).toContain('redirects to');
      }
      expect(served.filter((u) => u.startsWith('/to/')).length).toBe(targets.length);
      expect(reached).toEqual({ connections: 0, requests: 0 });
    });

    it('refuses a chain of more than 3 redirects', async () => {
      const hop = (to: string) => `${origin}/to/${encodeURIComponent(to)}`;
      const r = await post(g, '/v1/tools/records/uploadFiles?format=json', {
        files: [{ url: hop(hop(hop(hop(`${origin}/file.pdf`)))) }],
      });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain('redirects more than 3 times');
    });
  });
});
