import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { classifyTransfer } from '../../adapters/inbound/http/transfer-guard.js';
import { createGateway } from '../../composition/gateway.js';
import { NOW, request } from '../support/gateway.js';

// Issue 26: the files data plane (signed upload and download addresses, share pages: no bearer token)
// had no rate limit and no access log, so one leaked or guessed address could be hammered unseen. Each
// request now counts against its link and its tenant (429 with Retry-After past either), and each gets
// one log line: method, kind of address (never the address, which holds ids and the signature),
// status, bytes, duration, tenant and request id.

const ADMIN = 'transfer-admin-token-0123456789';
const ACME = 'transfer-acme-token-0123456789';

const gateway = (env: Record<string, string> = {}) => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const g = createGateway({
    env: {
      GATEWAY_API_KEYS: JSON.stringify([
        { name: 'admin', token: ADMIN, permissions: ['*'] },
        { name: 'acme-bot', token: ACME, permissions: ['*'], tenant: 'acme' },
      ]),
      ...env,
    },
    logger: pino({ level: 'info' }, sink),
    overrides: { clock: new FixedClock(NOW) },
  });
  return { g, lines: () => lines.filter((l) => l['msg'] === 'file transfer') };
};

type G = ReturnType<typeof gateway>['g'];

const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** A signed download address of a demo file, as the tenant of `token` gets it. */
const downloadLink = async (g: G, token: string, name: string): Promise<string> => {
  const folder = await request(g, 'POST', '/v1/tools/files/createFolder?format=json', {
    body: { parent_id: 'home', name: `Limits ${name}` },
    token,
  });
  const spec = await request(g, 'POST', '/v1/tools/files/getUploadUrl?format=json', {
    body: { folder_id: folder.body.data.Id, file_name: `${name}.txt` },
    token,
  });
  const uploaded = await g.http.request(local(spec.body.data.ChunkUri), { method: 'POST', body: `text of ${name}` });
  expect(uploaded.status).toBe(200);
  const item = ((await uploaded.json()) as { data: { Id: string } }).data.Id;
  const link = await request(g, 'POST', '/v1/tools/files/getDownloadUrl?format=json', {
    body: { item_id: item },
    token,
  });
  return local(link.body.data.DownloadUrl as string);
};

describe('the files data plane', () => {
  it('limits requests to one link, with 429 and Retry-After, while other links still answer', async () => {
    const { g } = gateway({ RATE_LIMIT_FILE_LINK_PER_MINUTE: '3', RATE_LIMIT_FILE_TENANT_PER_MINUTE: '1000' });
    const first = await downloadLink(g, ADMIN, 'first');
    const second = await downloadLink(g, ADMIN, 'second');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await g.http.request(first)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await g.http.request(first);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await refused.json()).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMITED', details: { scope: 'link', limit: 3 } },
    });
    expect((await g.http.request(second)).status).toBe(200);
    // A guessed address (a bad signature) counts against its link too.
    const forged = first.replace(/sig=[^&]+/, 'sig=forged');
    expect((await g.http.request(forged)).status).toBe(429);
  });

  it("limits one tenant's data plane as a whole, and each tenant apart", async () => {
    const { g } = gateway({ RATE_LIMIT_FILE_LINK_PER_MINUTE: '1000', RATE_LIMIT_FILE_TENANT_PER_MINUTE: '4' });
    const links = [await downloadLink(g, ACME, 'a'), await downloadLink(g, ACME, 'b')];
    expect(links[0]).toMatch(/^\/t\/acme\/files\/transfer\/download\//);
    // The two uploads above used two of the tenant's four.
    const statuses = [];
    for (const link of [...links, ...links]) statuses.push((await g.http.request(link)).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    const refused = await g.http.request(links[0]!);
    expect(await refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED', details: { scope: 'tenant' } } });
    // The default tenant has its own allowance.
    expect((await g.http.request(await downloadLink(g, ADMIN, 'c'))).status).toBe(200);
  });

  it('logs one line per request, without the address or its signature', async () => {
    const { g, lines } = gateway();
    const link = await downloadLink(g, ACME, 'logged');
    const before = lines().length;
    const res = await g.http.request(link, { headers: { 'x-request-id': 'trace-42' } });
    const body = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('trace-42');
    const logged = lines().slice(before);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      requestId: 'trace-42',
      tenant: 'acme',
      method: 'GET',
      route: 'download',
      status: 200,
      bytesOut: Buffer.byteLength(body),
    });
    expect(typeof logged[0]!['durationMs']).toBe('number');
    const text = JSON.stringify(logged);
    const sig = new URL(link, 'http://x').searchParams.get('sig')!;
    expect(text).not.toContain(sig);
    expect(text).not.toContain('/files/transfer');
    // The uploads made for the link were logged too, with the bytes they sent.
    expect(lines().find((l) => l['route'] === 'upload-chunk')).toMatchObject({ status: 200, method: 'POST' });
    // Refusals are logged as well.
    const bad = await g.http.request(link.replace(/sig=[^&]+/, 'sig=forged'));
    expect(bad.status).toBe(403);
    expect(lines().at(-1)).toMatchObject({ route: 'download', status: 403, tenant: 'acme' });
  });

  it('tells the kinds of address apart', () => {
    expect(classifyTransfer('/files/transfer/upload/u1/chunk')).toEqual({ route: 'upload-chunk', link: 'upload:u1' });
    expect(classifyTransfer('/files/transfer/upload/u1/finish')).toEqual({ route: 'upload-finish', link: 'upload:u1' });
    expect(classifyTransfer('/files/transfer/download/i9/all')).toEqual({ route: 'download', link: 'download:i9' });
    expect(classifyTransfer('/files/shares/s1')).toEqual({ route: 'share', link: 'share:s1' });
    expect(classifyTransfer('/files/shares/s1/items/i2')).toEqual({ route: 'share-item', link: 'share:s1' });
    expect(classifyTransfer('/files/shares/s1/upload')).toEqual({ route: 'share-upload', link: 'share:s1' });
    expect(classifyTransfer('/files/elsewhere')).toEqual({ route: 'other' });
  });
});
