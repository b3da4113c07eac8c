import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from '../../../adapters/outbound/http/address-policy.js';
import { AddressRefused, checkedLookup } from '../../../adapters/outbound/http/pinned-lookup.js';
import { fileNameOf, isNonPublicAddress, UrlFetchGuard } from '../../../adapters/outbound/http/url-fetch-guard.js';
import { listenOnLoopback, loopbackUrl } from '../../fakes/listen.js';

const noNetwork = async (): Promise<readonly string[]> => {
  throw new Error('resolver must not be used');
};

// A generous default time: the first fetch loads undici (on first use), which takes a few hundred ms on a
// busy machine; the time-limit test sets its own 100 ms.
const guard = (o: Partial<ConstructorParameters<typeof UrlFetchGuard>[0]> = {}) =>
  new UrlFetchGuard({ maxBytes: 1_024, timeoutMs: 5_000, allowPrivate: false, resolve: noNetwork, ...o });

/** URL forms a caller can write, each refused before any socket opens (IP literals need no resolver). */
const REFUSED_URLS: readonly (readonly [string, string])[] = [
  ['IPv4 loopback', 'http://127.0.0.1/a.pdf'],
  ['short IPv4 loopback', 'http://127.1/'],
  ['decimal IPv4 loopback', 'http://2130706433/'],
  ['hex-part IPv4 loopback', 'http://0x7f.1/'],
  ['hex IPv4 loopback', 'http://0x7f000001/'],
  ['octal IPv4 loopback', 'http://017700000001/'],
  ['octal-part IPv4 loopback', 'http://0177.0.0.1/'],
  ['zero-padded IPv4 loopback', 'http://127.000.000.001/'],
  ['hex dotted IPv4 loopback', 'http://0x7f.0x0.0x0.0x1/'],
  ['trailing-dot IPv4 loopback', 'http://127.0.0.1./'],
  ['full-width IPv4 loopback', 'http://127。0。0。1/'],
  ['enclosed-digit IPv4 loopback', 'http://①②⑦.0.0.1/'],
  ['other loopback 127/8', 'http://127.0.0.2/'],
  ['IPv4 unspecified', 'http://0.0.0.0/'],
  ['single zero', 'http://0/'],
  ['IPv6 unspecified', 'http://[::]/'],
  ['IPv6 loopback', 'http://[::1]/a.pdf'],
  ['IPv6 loopback, long form', 'http://[0:0:0:0:0:0:0:1]/'],
  ['IPv4-mapped loopback, dotted', 'http://[::ffff:127.0.0.1]/'],
  ['IPv4-mapped loopback, hex', 'http://[::ffff:7f00:1]/'],
  ['IPv4-mapped loopback, long form', 'http://[0:0:0:0:0:ffff:127.0.0.1]/'],
  ['IPv4-mapped loopback with port', 'https://[::ffff:127.0.0.1]:8443/'],
  ['IPv4-mapped cloud metadata', 'http://[::ffff:169.254.169.254]/'],
  ['IPv4-mapped cloud metadata, hex', 'http://[::ffff:a9fe:a9fe]/'],
  ['IPv4-mapped private', 'http://[::ffff:10.0.0.1]/'],
  ['IPv4-compatible loopback', 'http://[::127.0.0.1]/'],
  ['IPv4-compatible public (deprecated form)', 'http://[::8.8.8.8]/'],
  ['SIIT-translated loopback', 'http://[::ffff:0:127.0.0.1]/'],
  ['NAT64 loopback', 'http://[64:ff9b::127.0.0.1]/'],
  ['NAT64 cloud metadata', 'http://[64:ff9b::a9fe:a9fe]/'],
  ['local-use NAT64', 'http://[64:ff9b:1::808:808]/'],
  ['6to4 loopback', 'http://[2002:7f00:1::]/'],
  ['6to4 cloud metadata', 'http://[2002:a9fe:a9fe::1]/'],
  ['Teredo with loopback client', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/'],
  ['IPv6 site-local', 'http://[fec0::1]/'],
  ['IPv6 link-local', 'http://[fe80::1]/'],
  ['IPv6 link-local with zone', 'http://[fe80::1%25eth0]/'],
  ['IPv6 unique-local fc00', 'http://[fc00::1]/'],
  ['IPv6 unique-local fd', 'http://[fd12:3456::1]/'],
  ['IPv6 multicast', 'http://[ff02::1]/'],
  ['IPv6 documentation', 'http://[2001:db8::1]/'],
  ['IPv6 discard', 'http://[100::1]/'],
  ['IPv6 benchmarking', 'http://[2001:2::1]/'],
  ['IPv6 segment routing', 'http://[5f00::1]/'],
  ['IPv6 outside 2000::/3', 'http://[4000::1]/'],
  ['private 10/8', 'http://10.1.2.3/a.pdf'],
  ['private 172.16/12', 'http://172.20.0.1/a.pdf'],
  ['private 172.31 edge', 'http://172.31.255.255/'],
  ['private 192.168/16', 'https://192.168.0.10/a.pdf'],
  ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data'],
  ['carrier-grade NAT', 'http://100.64.0.1/'],
  ['benchmarking 198.18/15', 'http://198.18.0.1/'],
  ['benchmarking 198.19 edge', 'http://198.19.255.254/'],
  ['IETF protocol assignments 192.0.0/24', 'http://192.0.0.8/'],
  ['documentation 192.0.2/24', 'http://192.0.2.1/'],
  ['documentation 198.51.100/24', 'http://198.51.100.1/'],
  ['documentation 203.0.113/24', 'http://203.0.113.1/'],
  ['6to4 relay anycast', 'http://192.88.99.1/'],
  ['multicast', 'http://224.0.0.1/'],
  ['multicast SSDP', 'http://239.255.255.250/'],
  ['reserved 240/4', 'http://240.0.0.1/'],
  ['broadcast', 'http://255.255.255.255/'],
  ['file scheme', 'file:///etc/passwd'],
  ['ftp scheme', 'ftp://files.example.com/a.pdf'],
  ['gopher scheme', 'gopher://x'],
  ['data scheme', 'data:text/plain,hello'],
  ['not a URL', 'not a url'],
  ['credentials in the URL', 'http://user:pass@8.8.8.8/'],
];

const ALLOWED_URLS: readonly (readonly [string, string])[] = [
  ['public IPv4', 'http://8.8.8.8/a.pdf'],
  ['public IPv4 with https and port', 'https://1.1.1.1:8443/a.pdf'],
  ['public IPv4, decimal', 'http://134744072/'],
  ['public IPv4 (example.com)', 'http://93.184.216.34/'],
  ['public IPv6', 'http://[2606:4700:4700::1111]/'],
  ['public IPv6 (Google DNS)', 'https://[2001:4860:4860::8888]:443/'],
  ['IPv4-mapped public', 'http://[::ffff:8.8.8.8]/'],
  ['NAT64 public', 'http://[64:ff9b::808:808]/'],
  ['6to4 public', 'http://[2002:808:808::1]/'],
];

describe('URL fetch guard: the address table', () => {
  it.each(REFUSED_URLS)('refuses %s (%s)', async (_, url) => {
    const r = await guard().check(url);
    expect(r._tag).toBe('Left');
    if (r._tag === 'Left') expect(r.left).toMatchObject({ _tag: 'InvalidInput', parameter: 'url' });
  });

  it.each(ALLOWED_URLS)('lets %s through the check (%s)', async (_, url) => {
    expect((await guard().check(url))._tag).toBe('Right');
  });

  it('holds at least 60 forms', () => expect(REFUSED_URLS.length + ALLOWED_URLS.length).toBeGreaterThanOrEqual(60));

  it.each([
    ['127.0.0.1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::127.0.0.1', false],
    ['64:ff9b::7f00:1', false],
    ['2002:7f00:1::', false],
    ['2001:0:808:808:8000:63bf:80ff:fffe', false],
    ['fe80::1%eth0', false],
    ['fd00::1', false],
    ['not-an-ip', false],
    ['93.184.216.34', true],
    ['2606:4700:4700::1111', true],
    ['2001:0:808:808::f7f7:f7f7', true],
  ] as const)('classifies the address %s (allowed: %s)', (ip, allowed) => {
    expect(classifyAddress(ip).allowed).toBe(allowed);
    expect(isNonPublicAddress(ip)).toBe(!allowed);
  });

  it('names the refused address and its range in the message', async () => {
    const r = await guard().check('http://[::ffff:7f00:1]:9/');
    expect(r._tag === 'Left' && r.left.message).toContain('127.0.0.1 (loopback)');
  });
});

describe('URL fetch guard: host names', () => {
  it('refuses localhost (system resolver)', async () => {
    const r = await guard({ resolve: undefined }).check('http://localhost:9/');
    expect(r._tag === 'Left' && r.left.message).toContain('loopback');
  });

  it.each([
    ['a public and a private address', ['93.184.216.34', '10.0.0.5']],
    ['an IPv4-mapped loopback', ['::ffff:7f00:1']],
    ['a NAT64 metadata address', ['64:ff9b::a9fe:a9fe']],
    ['no address at all', []],
  ])('refuses a name that resolves to %s', async (_, addresses) => {
    const r = await guard({ resolve: async () => addresses }).check('https://files.example.com/a.pdf');
    expect(r).toMatchObject({ _tag: 'Left', left: { _tag: 'InvalidInput', parameter: 'url' } });
  });

  it('says a name does not resolve', async () => {
    const r = await guard().check('https://files.example.com/a.pdf');
    expect(r._tag === 'Left' && r.left.message).toContain('could not be resolved');
  });

  it('lets a name with only public addresses through the check (nothing fetched)', async () => {
    const asked: string[] = [];
    const checked = await guard({
      resolve: async (host) => (asked.push(host), ['93.184.216.34', '2606:4700:4700::1111']),
    }).check('https://files.example.com/a.pdf');
    expect(checked._tag).toBe('Right');
    expect(asked).toEqual(['files.example.com']);
  });

  it('the connection lookup refuses what it resolves, and hands the socket only checked addresses', async () => {
    const answers = [['93.184.216.34'], ['93.184.216.34', '127.0.0.1']];
    const lookup = checkedLookup(async () => answers.shift() ?? [], classifyAddress) as unknown as (
      h: string,
      o: object,
      cb: (...a: unknown[]) => void,
    ) => void;
    const call = (options: object) =>
      new Promise<unknown[]>((resolve) => lookup('files.example.com', options, (...a) => resolve(a)));
    expect(await call({ all: true })).toEqual([null, [{ address: '93.184.216.34', family: 4 }]]);
    const [err] = await call({ all: true });
    expect(err).toBeInstanceOf(AddressRefused);
  });
});

describe('URL fetch guard: downloads', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 1_000);
      if (req.url === '/big') return void res.end(Buffer.alloc(4_096, 1));
      if (req.url === '/big-chunked') return void (res.write(Buffer.alloc(800, 1)), res.end(Buffer.alloc(800, 1)));
      if (req.url === '/redirect') return void res.writeHead(302, { location: '/file.pdf' }).end();
      if (req.url?.startsWith('/loop'))
        return void res.writeHead(302, { location: `/loop${Number(req.url.slice(5) || 0) + 1}` }).end();
      if (req.url === '/missing') return void res.writeHead(404).end('no');
      res.writeHead(200, { 'content-type': 'application/pdf; charset=binary' }).end(Buffer.from('%PDF-1'));
    });
    await listenOnLoopback(server);
    base = loopbackUrl(server);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('downloads a file when private addresses are allowed, following a redirect', async () => {
    const r = await guard({ allowPrivate: true }).fetch(`${base}/redirect`)();
    expect(r).toMatchObject({ _tag: 'Right', right: { name: 'file.pdf', mimetype: 'application/pdf' } });
    expect(r._tag === 'Right' && Buffer.from(r.right.content).toString()).toBe('%PDF-1');
  });

  it('answers status, final URL, headers and body through the general method', async () => {
    const r = await guard({ allowPrivate: true }).get(`${base}/redirect`)();
    expect(r).toMatchObject({
      _tag: 'Right',
      right: { status: 200, url: `${base}/file.pdf`, headers: { 'content-type': 'application/pdf; charset=binary' } },
    });
    const missing = await guard({ allowPrivate: true }).get(`${base}/missing`)();
    expect(missing).toMatchObject({ _tag: 'Right', right: { status: 404 } });
    expect((await guard({ allowPrivate: true }).fetch(`${base}/missing`)())._tag).toBe('Left');
  });

  it('stops after 3 redirects by default, and after maxRedirects when given', async () => {
    const r = await guard({ allowPrivate: true }).fetch(`${base}/loop0`)();
    expect(r._tag === 'Left' && r.left.message).toContain('redirects more than 3 times');
    const five = await guard({ allowPrivate: true, maxRedirects: 5 }).fetch(`${base}/loop0`)();
    expect(five._tag === 'Left' && five.left.message).toContain('redirects more than 5 times');
  });

  it('refuses a file larger than the limit, declared or streamed', async () => {
    const r = await guard({ allowPrivate: true }).fetch(`${base}/big`)();
    expect(r._tag === 'Left' && r.left.message).toContain('is larger than');
    const chunked = await guard({ allowPrivate: true }).fetch(`${base}/big-chunked`)();
    expect(chunked._tag === 'Left' && chunked.left.message).toContain('is larger than');
    const smaller = await guard({ allowPrivate: true }).get(`${base}/file.pdf`, { maxBytes: 3 })();
    expect(smaller._tag === 'Left' && smaller.left.message).toContain('is larger than');
  });

  it('gives up on a host that is too slow', async () => {
    const r = await guard({ allowPrivate: true, timeoutMs: 100 }).fetch(`${base}/slow`)();
    expect(r._tag === 'Left' && r.left.message).toContain('did not deliver the file within 100 ms');
  });

  it('names a file after the URL, keeping a malformed escape as written', () => {
    expect(fileNameOf(new URL('http://x/a/Offer%20v2.pdf'))).toBe('Offer v2.pdf');
    expect(fileNameOf(new URL('http://x/a/%E0%A4%A.pdf'))).toBe('%E0%A4%A.pdf');
    expect(fileNameOf(new URL('http://x/a/..%2F..%2Fetc'))).toBe('.._.._etc');
    expect(fileNameOf(new URL('http://x/'))).toBe('download');
  });
});
