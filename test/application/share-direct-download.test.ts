import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../adapters/outbound/http/resilience.js';
import { type ShareFileClient } from '../../adapters/outbound/sharefile/sharefile-client.js';
import { ShareFileItemStore } from '../../adapters/outbound/sharefile/sharefile-item-store.js';
import { ShareFileShareStore } from '../../adapters/outbound/sharefile/sharefile-share-store.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { E } from '../../domain/shared/fp.js';
import { ItemStore } from '../../ports/item-store.js';
import { ShareStore } from '../../ports/share-store.js';
import { shareFileTestClient, startShareFileServer, type ShareFileStandIn } from '../fakes/sharefile-server.js';
import { NOW, post, testGateway } from '../support/gateway.js';

// Issue 30: a Send share's answer gives a direct download link (the file itself, several files as one zip)
// as well as its landing page, in the text and in format=json; shares that cannot give one say why. In
// memory mode the link is the gateway's own share page /download; on ShareFile it is the DownloadUrl of
// `Shares(id)/Download?redirect=false`, here answered by the ShareFile stand-in.

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

const memory = () => {
  const gateway = testGateway();
  const call = (tool: string, args: unknown, json = true) =>
    post(gateway, `/v1/tools/files/${tool}${json ? '?format=json' : ''}`, args);
  const get = async (url: string) => {
    const res = await gateway.http.request(local(url));
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  const upload = async (name: string, text: string) => {
    const spec = (await call('getUploadUrl', { folder_id: 'home', file_name: name })).body.data;
    const res = await gateway.http.request(local(spec.ChunkUri), {
      method: 'POST',
      body: new TextEncoder().encode(text),
    });
    return (JSON.parse(await res.text()) as { data: { Id: string } }).data.Id;
  };
  return { gateway, call, get, upload };
};

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const field = (answer: string, label: string) => new RegExp(`\\*\\*${label}:\\*\\* (\\S+)`).exec(answer)?.[1];

describe('a Send share gives a direct download link (memory mode)', () => {
  it('createShare and getShare: the link in the text and the JSON, the landing page kept; following it downloads the file', async () => {
    const { call, get, upload } = memory();
    const file = await upload('offer.txt', 'Offer for 10 Harbor Way');
    const created = await call('createShare', { share_type: 'Send', items: [file], max_downloads: 5 }, false);
    expect(created.status).toBe(200);
    const answer = created.body.data as string;
    const direct = field(answer, 'Direct download');
    const landing = field(answer, 'Landing page');
    expect(direct).toMatch(/^https?:\/\//);
    expect(landing).toMatch(/^https?:\/\//);
    expect(direct).not.toBe(landing);
    expect(answer).toContain('"offer.txt" itself');

    const shareId = /\(id ([^)]+)\)/.exec(answer)![1]!;
    const json = (await call('getShare', { share_id: shareId })).body.data;
    expect(json.Uri).toBe(landing);
    expect(json.download_url).toBe(direct);
    expect(json.download_unavailable).toBeUndefined();

    // the landing page is a JSON listing; the direct link is the file itself, counted as a download
    const page = await get(json.Uri);
    expect(page.headers.get('content-type')).toContain('application/json');
    const got = await get(json.download_url);
    expect(got.status).toBe(200);
    expect(text(got.bytes)).toBe('Offer for 10 Harbor Way');
    expect(got.headers.get('content-disposition')).toContain('offer.txt');
    expect((await call('getShare', { share_id: shareId })).body.data.TotalDownloads).toBe(1);

    const summary = (await call('getShare', { share_id: shareId, summary_only: true })).body.data;
    expect(summary.download_url).toBe(direct);

    // the list names the landing page as such, and where the direct link is
    const listed = (await call('listShares', {}, false)).body.data as string;
    expect(listed).toMatch(/\| landing page \|/);
    expect(listed).toContain("with a Send share's direct download link: files_getShare");
  });

  it('a share of several files gives them as one zip (Files.zip)', async () => {
    const { call, get, upload } = memory();
    const a = await upload('a.txt', 'first');
    const b = await upload('b.txt', 'second');
    const share = (await call('createShare', { share_type: 'Send', items: [a, b] })).body.data;
    const got = await get(share.download_url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/zip');
    expect(got.headers.get('content-disposition')).toContain('Files.zip');
    expect(text(got.bytes.slice(0, 2))).toBe('PK');
    expect(text(got.bytes)).toContain('a.txt');
    expect(text(got.bytes)).toContain('b.txt');
  });

  it('view-only, sign-in and used-up shares give no direct link, and say why; the landing page stays', async () => {
    const { call, get, upload } = memory();
    const file = await upload('plan.txt', 'plan');
    const viewOnly = await call('createShare', { share_type: 'Send', items: [file], is_view_only: true }, false);
    expect(viewOnly.body.data).toMatch(/\*\*Direct download:\*\* none: the share is view-only/);
    expect(field(viewOnly.body.data, 'Landing page')).toMatch(/^https?:\/\//);

    const login = (await call('createShare', { share_type: 'Send', items: [file], require_login: true })).body.data;
    expect(login.download_url).toBeUndefined();
    expect(login.download_unavailable).toContain('sign in');

    const once = (await call('createShare', { share_type: 'Send', items: [file], max_downloads: 1 })).body.data;
    expect((await get(once.download_url)).status).toBe(200);
    const after = (await call('getShare', { share_id: once.Id })).body.data;
    expect(after.download_url).toBeUndefined();
    expect(after.download_unavailable).toContain('downloads are used');
    expect((await get(once.download_url)).status).toBe(403);

    const updated = (await call('updateShare', { share_id: once.Id, max_downloads: 3 })).body.data;
    expect(updated.download_url).toBe(once.download_url);
  });

  it('a Request share has an upload page and no download fields', async () => {
    const { call } = memory();
    const r = await call('createShare', { share_type: 'Request', parent_id: 'home' }, false);
    expect(r.body.data).toMatch(/\*\*Upload page:\*\* https?:\/\//);
    expect(r.body.data).not.toContain('Direct download');
    const json = (await call('getShare', { share_id: /\(id ([^)]+)\)/.exec(r.body.data)![1] })).body.data;
    expect(json.download_url).toBeUndefined();
    expect(json.download_unavailable).toBeUndefined();
  });
});

describe('a Send share gives a direct download link (ShareFile, local stand-in)', () => {
  const clock = new FixedClock(NOW);
  let fake: ShareFileStandIn;
  let client: ShareFileClient;
  let gateway: ReturnType<typeof testGateway>;
  const call = (tool: string, args: unknown, json = true) =>
    post(gateway, `/v1/tools/files/${tool}${json ? '?format=json' : ''}`, args);
  const seed = (name: string, body: string) => {
    const r = fake.items.addFile(fake.items.homeId, name, new TextEncoder().encode(body), { overwrite: false });
    if (E.isLeft(r)) throw new Error(r.left.message);
    return r.right.item.Id;
  };

  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
    client = shareFileTestClient(fake, clock);
    gateway = testGateway({
      clock,
      ports: [
        [ShareStore, new ShareFileShareStore(client)],
        [ItemStore, new ShareFileItemStore({ client, maxUploadBytes: 1024 * 1024 })],
      ],
    });
  });
  afterAll(() => fake.close());

  it('asks Shares(id)/Download with redirect=false and presents its DownloadUrl beside the landing page', async () => {
    const file = seed('lease.txt', 'Lease, 17 Elm St');
    const created = (await call('createShare', { share_type: 'Send', items: [file] })).body.data;
    const asked = fake.requests.filter((r) => r.path === `/sf/v3/Shares(${created.Id})/Download`);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.query.get('redirect')).toBe('false');
    expect(created.download_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(created.download_url).not.toBe(created.Uri);

    const answer = (await call('getShare', { share_id: created.Id }, false)).body.data as string;
    expect(field(answer, 'Direct download')).toBe(created.download_url);
    expect(field(answer, 'Landing page')).toBe(created.Uri);

    const res = await fetch(created.download_url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('Lease, 17 Elm St');
    expect(fake.violations).toEqual([]);
  });

  it('takes the address from a 302 when the provider redirects anyway', async () => {
    const file = seed('deed.txt', 'Deed');
    const share = (await call('createShare', { share_type: 'Send', items: [file] })).body.data;
    fake.redirectDownloads = true;
    try {
      const again = (await call('getShare', { share_id: share.Id })).body.data;
      expect(again.download_url).toBe(share.download_url);
    } finally {
      fake.redirectDownloads = false;
    }
  });

  it('does not ask for a view-only share, and a failed ask leaves the share answer standing', async () => {
    const file = seed('photo.txt', 'photo');
    const before = fake.requests.length;
    const viewOnly = (await call('createShare', { share_type: 'Send', items: [file], is_view_only: true })).body.data;
    expect(fake.requests.slice(before).some((r) => r.path.endsWith('/Download'))).toBe(false);
    expect(viewOnly.download_unavailable).toContain('view-only');

    // ShareFile refuses the Download request (403): the share's answer stands, saying the link is not there now
    const real = new ShareFileShareStore(client);
    const failing: ShareStore = {
      get: (id, o) => real.get(id, o),
      list: (q) => real.list(q),
      create: (n) => real.create(n),
      update: (id, c) => real.update(id, c),
      delete: (id) => real.delete(id),
      downloadLink: (id) => {
        fake.failNext(403, { code: 'Forbidden', message: { lang: 'en-US', value: 'Download not allowed' } });
        return real.downloadLink(id);
      },
    };
    const g = testGateway({ clock, ports: [[ShareStore, failing]] });
    const r = await post(g, '/v1/tools/files/getShare', { share_id: viewOnly.Id });
    expect(r.status).toBe(200);
    const updated = await post(g, '/v1/tools/files/updateShare?format=json', {
      share_id: viewOnly.Id,
      is_view_only: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.download_url).toBeUndefined();
    expect(updated.body.data.download_unavailable).toMatch(/^not available just now \(.+\)/);
    const answer = (await post(g, '/v1/tools/files/getShare', { share_id: viewOnly.Id })).body.data as string;
    expect(answer).toMatch(/\*\*Direct download:\*\* not available just now/);
    expect(field(answer, 'Landing page')).toBe(viewOnly.Uri);
  });
});
