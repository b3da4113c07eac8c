import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { post, testGateway } from '../support/gateway.js';

// The "Must show" scenario, over HTTP in memory mode: every byte goes through the gateway's
// own signed upload and download addresses.

const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

const json = async (gateway: ReturnType<typeof testGateway>, tool: string, args: unknown) => {
  const r = await post(gateway, `/v1/tools/files/${tool}?format=json`, args);
  return r;
};

const raw = async (gateway: ReturnType<typeof testGateway>, method: string, url: string, body?: Uint8Array) => {
  const res = await gateway.http.request(local(url), { method, ...(body ? { body } : {}) });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
};

describe('files over HTTP in memory mode', () => {
  const gateway = testGateway();

  it('creates, uploads, downloads, searches, shares, deletes, copies and moves', async () => {
    // A folder.
    const folder = await json(gateway, 'createFolder', { parent_id: 'home', name: 'Scenario' });
    expect(folder.status).toBe(200);
    const folderId: string = folder.body.data.Id;
    expect(folder.body.data['odata.type']).toBe('Files.Api.Models.Folder');
    expect(folder.body.data.Parent.Id).not.toBe('top');

    // A small file, Standard: one POST of the bytes, no bearer token.
    const small = new TextEncoder().encode('Quarterly walkthrough of the marina pier pilings.\n');
    const smallSpec = await json(gateway, 'getUploadUrl', {
      folder_id: folderId,
      file_name: 'pier-notes.txt',
      file_size: small.length,
    });
    expect(smallSpec.body.data).toMatchObject({ Method: 'Standard', IsResume: false, MaxNumberOfThreads: 1 });
    const smallDone = await raw(gateway, 'POST', smallSpec.body.data.ChunkUri, small);
    expect(smallDone.status).toBe(200);
    const smallId: string = JSON.parse(new TextDecoder().decode(smallDone.bytes)).data.Id;

    // A large file, Threaded: chunks with index and byte offset, sent out of order and at most
    // MaxNumberOfThreads at a time, resumed half-way, then FinishUri.
    const big = randomBytes(9 * 1024 * 1024 + 123);
    const bigSpec = (
      await json(gateway, 'getUploadUrl', { folder_id: folderId, file_name: 'survey.bin', file_size: big.length })
    ).body.data;
    expect(bigSpec.Method).toBe('Threaded');
    expect(bigSpec.MaxNumberOfThreads).toBeGreaterThan(1);
    const chunkSize = 2 * 1024 * 1024;
    const chunks = Array.from({ length: Math.ceil(big.length / chunkSize) }, (_, index) => ({
      index,
      offset: index * chunkSize,
    }));
    const send = (spec: { ChunkUri: string }, c: { index: number; offset: number }) =>
      raw(
        gateway,
        'POST',
        `${spec.ChunkUri}&index=${c.index}&byteOffset=${c.offset}`,
        big.subarray(c.offset, c.offset + chunkSize),
      );
    for (const c of [chunks[1]!, chunks[0]!]) expect((await send(bigSpec, c)).status).toBe(200);
    const resumed = (
      await json(gateway, 'getUploadUrl', { folder_id: folderId, file_name: 'survey.bin', file_size: big.length })
    ).body.data;
    expect(resumed).toMatchObject({
      IsResume: true,
      ResumeIndex: 2,
      ResumeOffset: 2 * chunkSize,
      ResumeFileHash: md5(big.subarray(0, 2 * chunkSize)),
    });
    const rest = chunks.slice(2).reverse();
    const statuses = await Promise.all(rest.slice(0, resumed.MaxNumberOfThreads).map((c) => send(resumed, c)));
    expect(statuses.map((s) => s.status)).toEqual(statuses.map(() => 200));
    for (const c of rest.slice(resumed.MaxNumberOfThreads)) expect((await send(resumed, c)).status).toBe(200);
    const finished = await raw(gateway, 'POST', `${resumed.FinishUri}&filehash=${md5(big)}`);
    expect(finished.status).toBe(200);
    const bigId: string = JSON.parse(new TextDecoder().decode(finished.bytes)).data.Id;

    // Download both and compare bytes.
    for (const [id, bytes] of [
      [smallId, small],
      [bigId, big],
    ] as const) {
      const spec = await json(gateway, 'getDownloadUrl', { item_id: id });
      expect(spec.body.data['odata.type']).toBe('Files.Api.Models.DownloadSpecification');
      const got = await raw(gateway, 'GET', spec.body.data.DownloadUrl);
      expect(got.status).toBe(200);
      expect(got.bytes.length).toBe(bytes.length);
      expect(md5(got.bytes)).toBe(md5(bytes));
    }
    const bigItem = await json(gateway, 'getItem', { item_id: bigId });
    expect(bigItem.body.data).toMatchObject({ FileSizeBytes: big.length, MD5: md5(big), Parent: { Id: folderId } });

    // Search finds them: by content and by name.
    const byContent = await json(gateway, 'searchItems', { query: 'pilings' });
    expect(byContent.body.data.results.map((r: { Id: string }) => r.Id)).toContain(smallId);
    expect(byContent.body.data.results[0]).toMatchObject({ Rank: 1, ItemType: 'file', MD5: md5(small) });
    const byName = await json(gateway, 'searchItems', { query: 'survey', folder_id: folderId });
    expect(byName.body.data.results.map((r: { Id: string }) => r.Id)).toEqual([bigId]);

    // A Send share with two downloads allowed.
    const share = (await json(gateway, 'createShare', { share_type: 'Send', items: [smallId], max_downloads: 2 })).body
      .data;
    expect(share).toMatchObject({ ShareType: 'Send', MaxDownloads: 2, TotalDownloads: 0 });
    const page = await raw(gateway, 'GET', share.Uri);
    expect(page.status).toBe(200);
    const listing = JSON.parse(new TextDecoder().decode(page.bytes)).data;
    expect(listing.files.map((f: { Id: string }) => f.Id)).toEqual([smallId]);
    for (let i = 0; i < 2; i++) {
      const d = await raw(gateway, 'GET', listing.files[0].download_url);
      expect(d.status).toBe(200);
      expect(md5(d.bytes)).toBe(md5(small));
    }
    const refused = await raw(gateway, 'GET', listing.files[0].download_url);
    expect(refused.status).toBe(403);
    expect(new TextDecoder().decode(refused.bytes)).toContain('all been used');
    expect((await json(gateway, 'getShare', { share_id: share.Id })).body.data.TotalDownloads).toBe(2);

    // Deleting the share revokes the link at once.
    expect((await json(gateway, 'deleteShare', { share_id: share.Id })).status).toBe(200);
    expect((await raw(gateway, 'GET', share.Uri)).status).toBe(404);
    expect((await raw(gateway, 'GET', listing.files[0].download_url)).status).toBe(404);

    // Deleting the file moves it to the recycle bin.
    const deleted = await json(gateway, 'deleteItem', { item_id: smallId });
    expect(deleted.body.data).toEqual({ message: expect.stringContaining('recycle bin'), single_version: false });
    expect((await json(gateway, 'getItem', { item_id: smallId })).status).toBe(404);
    const inBin = await json(gateway, 'getItem', { item_id: smallId, include_deleted: true });
    expect(inBin.body.data).toMatchObject({ Id: smallId, IsDeleted: true });
    const withDeleted = await json(gateway, 'listChildren', { folder_id: folderId, include_deleted: true });
    expect(withDeleted.body.data.items.map((i: { Id: string }) => i.Id)).toContain(smallId);
    const withoutDeleted = await json(gateway, 'listChildren', { folder_id: folderId });
    expect(withoutDeleted.body.data.items.map((i: { Id: string }) => i.Id)).not.toContain(smallId);

    // Copy and move a folder with children.
    const sub = (await json(gateway, 'createFolder', { parent_id: folderId, name: 'Drawings' })).body.data;
    const target = (await json(gateway, 'createFolder', { parent_id: 'home', name: 'Archive' })).body.data;
    const copy = await json(gateway, 'copyItem', { item_id: folderId, target_folder_id: target.Id });
    expect(copy.status).toBe(200);
    expect(copy.body.data.Id).not.toBe(folderId);
    expect(copy.body.data.Parent.Id).toBe(target.Id);
    const copied = (await json(gateway, 'listChildren', { folder_id: copy.body.data.Id })).body.data.items;
    expect(copied.map((i: { Name: string }) => i.Name).sort()).toEqual(['Drawings', 'survey.bin']);
    expect(copied.map((i: { Id: string }) => i.Id)).not.toContain(sub.Id);
    expect(copied.map((i: { Id: string }) => i.Id)).not.toContain(bigId);
    expect(copied.every((i: { Parent: { Id: string } }) => i.Parent.Id === copy.body.data.Id)).toBe(true);

    const intoSelf = await json(gateway, 'moveItem', { item_id: folderId, target_folder_id: sub.Id });
    expect(intoSelf.status).toBe(400);
    const moved = await json(gateway, 'moveItem', { item_id: folderId, target_folder_id: copy.body.data.Id });
    expect(moved.body.data).toMatchObject({ Id: folderId, Parent: { Id: copy.body.data.Id } });
    const subNow = await json(gateway, 'getItem', { item_id: sub.Id });
    expect(subNow.body.data.Parent.Id).toBe(folderId);
    expect(subNow.body.data.Path).toBe('/root/My Files/Archive/Scenario/Scenario/Drawings');
  });

  it('answers folder listings as tables with ids, sizes and the exact next call', async () => {
    const r = await post(gateway, '/v1/tools/files/listChildren', { folder_id: 'home', top: 2 });
    expect(r.status).toBe(200);
    const text: string = r.body.data;
    expect(text).toMatch(/^## Contents of home \(\d+ items\)/);
    expect(text).toContain('| id | name | type | size | created |');
    const total = Number(/of (\d+)\./.exec(text)![1]);
    expect(text).toContain(`Showing 1-2 of ${total}.`);
    const next = /Next page: files_listChildren (\{.*\})/.exec(text);
    expect(JSON.parse(next![1]!)).toEqual({ folder_id: 'home', top: 2, skip: 2 });
    const second = await post(gateway, '/v1/tools/files/listChildren', JSON.parse(next![1]!));
    expect(second.body.data).toContain(`Showing 3-`);
  });

  it('refuses an oversized upload up front and leaves nothing behind', async () => {
    const small = testGateway();
    const tooBig = await post(small, '/v1/tools/files/getUploadUrl', {
      folder_id: 'home',
      file_name: 'huge.iso',
      file_size: 200 * 1024 * 1024,
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.details).toMatchObject({ parameter: 'file_size', limit_bytes: 104857600 });
  });

  it('serves the signed addresses only as signed and until they expire', async () => {
    const spec = (
      await json(gateway, 'getDownloadUrl', {
        item_id: (await json(gateway, 'searchItems', { query: 'welcome' })).body.data.results[0].Id,
      })
    ).body.data;
    const tampered = spec.DownloadUrl.replace(/sig=./, (m: string) => (m.endsWith('A') ? 'sig=B' : 'sig=A'));
    expect((await raw(gateway, 'GET', tampered)).status).toBe(403);
    gateway.clock.advance(2 * 3600_000);
    expect((await raw(gateway, 'GET', spec.DownloadUrl)).status).toBe(410);
  });
});
