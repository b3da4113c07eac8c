import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNonPublicAddress, UrlFetchGuard } from '../../adapters/outbound/http/url-fetch-guard.js';
import { listenOnLoopback, loopbackUrl } from '../fakes/listen.js';

const noNetwork = async (): Promise<readonly string[]> => {
  throw new Error('resolver must not be used');
};

describe('URL fetch guard', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 1_000);
      if (req.url === '/big') return void res.end(Buffer.alloc(4_096, 1));
      if (req.url === '/redirect') return void res.writeHead(302, { location: '/file.pdf' }).end();
      res.writeHead(200, { 'content-type': 'application/pdf; charset=binary' }).end(Buffer.from('%PDF-1'));
    });
    await listenOnLoopback(server);
    base = loopbackUrl(server);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const guard = (o: Partial<ConstructorParameters<typeof UrlFetchGuard>[0]> = {}) => new UrlFetchGuard({ maxBytes: 1_024, timeoutMs: 300, allowPrivate: false, resolve: noNetwork, ...o });

  it.each([
    ['loopback', 'http://127.0.0.1/a.pdf'],
    ['IPv6 loopback', 'http://[::1]/a.pdf'],
    ['private 10/8', 'http://10.1.2.3/a.pdf'],
    ['private 192.168/16', 'https://192.168.0.10/a.pdf'],
    ['private 172.16/12', 'http://172.20.0.1/a.pdf'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data'],
  ])('refuses %s addresses', async (_, url) => {
    const r = await guard().fetch(url)();
    expect(r._tag).toBe('Left');
    if (r._tag === 'Left') expect(r.left.message).toContain('loopback, private or link-local');
  });

  it('refuses a host name that resolves to a private address', async () => {
    const r = await guard({ resolve: async () => ['93.184.216.34', '10.0.0.5'] }).fetch('https://files.example.com/a.pdf')();
    expect(r._tag === 'Left' && r.left.message).toContain('loopback, private or link-local');
  });

  it.each(['file:///etc/passwd', 'ftp://files.example.com/a.pdf', 'gopher://x', 'not a url'])('refuses %s', async (url) => {
    const r = await guard().fetch(url)();
    expect(r._tag === 'Left' && r.left).toMatchObject({ _tag: 'InvalidInput' });
    expect(r._tag === 'Left' && r.left.message).toMatch(/Only http and https|is not a URL/);
  });

  it('lets a public-looking address through the check (resolved by the injected resolver, nothing fetched)', async () => {
    const asked: string[] = [];
    const checked = await guard({ resolve: async (host) => (asked.push(host), ['93.184.216.34']) }).check('https://files.example.com/a.pdf');
    expect(checked._tag).toBe('Right');
    expect(asked).toEqual(['files.example.com']);
    expect(isNonPublicAddress('93.184.216.34')).toBe(false);
    expect(isNonPublicAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isNonPublicAddress('fd00::1')).toBe(true);
  });

  it('downloads a file when private addresses are allowed, following a redirect', async () => {
    const r = await guard({ allowPrivate: true }).fetch(`${base}/redirect`)();
    expect(r).toMatchObject({ _tag: 'Right', right: { name: 'file.pdf', mimetype: 'application/pdf' } });
    expect(r._tag === 'Right' && Buffer.from(r.right.content).toString()).toBe('%PDF-1');
  });

  it('refuses a file larger than the limit', async () => {
    const r = await guard({ allowPrivate: true }).fetch(`${base}/big`)();
    expect(r._tag === 'Left' && r.left.message).toContain('is larger than');
  });

  it('gives up on a host that is too slow', async () => {
    const r = await guard({ allowPrivate: true, timeoutMs: 100 }).fetch(`${base}/slow`)();
    expect(r._tag === 'Left' && r.left.message).toContain('did not deliver the file within 100 ms');
  });
});
