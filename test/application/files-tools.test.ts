import { describe, expect, it } from 'vitest';
import { InMemoryOutbox } from '../../adapters/outbound/memory/in-memory-outbox.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { ShareNotifier } from '../../ports/share-notifier.js';
import { post, testGateway } from '../support/gateway.js';

const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

const setup = () => {
  const gateway = testGateway();
  const call = (tool: string, args: unknown) => post(gateway, `/v1/tools/files/${tool}?format=json`, args);
  const raw = async (
    method: string,
    url: string,
    body?: Uint8Array | ReadableStream<Uint8Array>,
    headers?: Record<string, string>,
  ) => {
    const init = {
      method,
      ...(body !== undefined ? { body } : {}),
      ...(headers ? { headers } : {}),
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    };
    const res = await gateway.http.request(local(url), init as RequestInit);
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  const upload = async (folder: string, name: string, text: string, extra: Record<string, unknown> = {}) => {
    const spec = (await call('getUploadUrl', { folder_id: folder, file_name: name, ...extra })).body.data;
    const r = await raw('POST', spec.ChunkUri, new TextEncoder().encode(text));
    return JSON.parse(new TextDecoder().decode(r.bytes)).data;
  };
  return { gateway, call, raw, upload };
};

describe('files in memory mode', () => {
  it('rejects an unsupported filter with what is supported', async () => {
    const { call } = setup();
    const r = await call('listChildren', { filter: "substring(Name, 1) eq 'x'" });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('Supported filter');
    expect(r.body.error.details).toMatchObject({ parameter: 'filter' });
    const byType = await call('listChildren', {
      folder_id: 'home',
      filter: "isof('Files.Api.Models.Folder')",
      orderby: 'Name desc',
    });
    expect(byType.body.data.items.map((i: { Name: string }) => i.Name)).toEqual(['Projects', 'Photos', 'Contracts']);
    expect((await call('listChildren', { folder_id: 'box' })).status).toBe(400);
  });

  it('shows the demo tree: top-level containers, a shared folder and a file with two versions', async () => {
    const { call } = setup();
    const top = (await call('getTopLevelFolders', {})).body.data;
    expect(top.folders.map((f: { Name: string }) => f.Name)).toEqual([
      'Home',
      'Favorites',
      'Shared Folders',
      'Connectors',
    ]);
    expect(top.folders[2].Id).toBe('allshared');
    const shared = (await call('listChildren', { folder_id: 'allshared' })).body.data.items;
    expect(shared.map((f: { Name: string }) => f.Name)).toEqual(['Team Shared']);
    const budget = (await call('searchItems', { query: 'budget', item_name_only: true })).body.data.results[0];
    const item = (await call('getItem', { item_id: budget.Id })).body.data;
    expect(item.VersionCount).toBe(2);
  });

  it('overwrite adds a version; single_version removes it; include_all_versions zips both', async () => {
    const { call, raw, upload } = setup();
    const first = await upload('home', 'rates.txt', 'v1 rates');
    const second = await upload('home', 'rates.txt', 'v2 rates, longer', { overwrite: true });
    expect(second).toMatchObject({ Id: first.Id, version: 2 });
    const third = await upload('home', 'rates.txt', 'not overwritten');
    expect(third.Name).toBe('rates (1).txt');
    const zipSpec = (await call('getDownloadUrl', { item_id: first.Id, include_all_versions: true })).body.data;
    const zip = await raw('GET', zipSpec.DownloadUrl);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(zip.bytes.subarray(0, 2)).toString()).toBe('PK');
    expect(Buffer.from(zip.bytes).toString('latin1')).toContain('v2 - rates.txt');
    const del = await call('deleteItem', { item_id: first.Id, single_version: true });
    expect(del.body.data.single_version).toBe(true);
    expect((await call('getItem', { item_id: first.Id })).body.data.FileSizeBytes).toBe('v1 rates'.length);
    const again = await call('deleteItem', { item_id: first.Id, single_version: true });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toContain('no version history');
  });

  it('discards an upload that grows past the limit, leaving nothing behind', async () => {
    const { gateway, call, raw } = setup();
    const spec = (await call('getUploadUrl', { folder_id: 'home', file_name: 'grows.bin' })).body.data;
    const limit = 104857600;
    const r = await raw('POST', `${spec.ChunkUri}&index=0&byteOffset=${limit - 10}`, new Uint8Array(20));
    expect(r.status).toBe(413);
    expect((await raw('POST', spec.FinishUri)).status).toBe(404);
    expect((await call('searchItems', { query: 'grows' })).body.data.total_count).toBe(0);
    expect(gateway.clock).toBeDefined();
  });

  it('start_over drops an unfinished upload; MaxNumberOfThreads is enforced', async () => {
    const { call, raw } = setup();
    const size = 5 * 1024 * 1024;
    const spec = (await call('getUploadUrl', { folder_id: 'home', file_name: 'video.bin', file_size: size })).body.data;
    await raw('POST', `${spec.ChunkUri}&index=0&byteOffset=0`, new Uint8Array(1024));
    expect(
      (await call('getUploadUrl', { folder_id: 'home', file_name: 'video.bin', file_size: size })).body.data
        .ResumeOffset,
    ).toBe(1024);
    const fresh = (
      await call('getUploadUrl', { folder_id: 'home', file_name: 'video.bin', file_size: size, start_over: true })
    ).body.data;
    expect(fresh).toMatchObject({ IsResume: false, ResumeOffset: 0 });
    expect((await raw('POST', spec.FinishUri)).status).toBe(404);

    const controllers: ReadableStreamDefaultController<Uint8Array>[] = [];
    const pending = Array.from({ length: fresh.MaxNumberOfThreads }, (_, i) =>
      raw(
        'POST',
        `${fresh.ChunkUri}&index=${i}&byteOffset=${i * 10}`,
        new ReadableStream<Uint8Array>({ start: (c) => void controllers.push(c) }),
        { 'content-type': 'application/octet-stream' },
      ),
    );
    await new Promise((r) => setTimeout(r, 20));
    const extra = await raw('POST', `${fresh.ChunkUri}&index=9&byteOffset=90`, new Uint8Array(10));
    expect(extra.status).toBe(429);
    for (const c of controllers) {
      c.enqueue(new Uint8Array(10));
      c.close();
    }
    expect((await Promise.all(pending)).map((p) => p.status)).toEqual(pending.map(() => 200));
  });

  it('Send shares: view-only refuses downloads, expiry hides and refuses, notifications land in the outbox', async () => {
    const { gateway, call, raw, upload } = setup();
    const file = await upload('home', 'brochure.txt', 'Harbor Point brochure');
    const viewOnly = (
      await call('createShare', {
        share_type: 'Send',
        items: [file.Id],
        is_view_only: true,
        expiration_days: 2,
        recipients: ['lena@example.com'],
        personal_message: 'Have a look',
        cc_sender: true,
      })
    ).body.data;
    expect(viewOnly.HasSentMessage).toBe(true);
    const listing = JSON.parse(new TextDecoder().decode((await raw('GET', viewOnly.Uri)).bytes)).data;
    expect(listing.files[0].download_url).toBeUndefined();
    expect((await raw('GET', `${viewOnly.Uri}/items/${file.Id}`)).status).toBe(403);

    const sent = await call('sendShareNotification', { share_id: viewOnly.Id, recipients: ['max@example.com'] });
    expect(sent.body.data).toEqual({
      message: expect.stringContaining('1 recipient'),
      recipients: ['max@example.com'],
    });

    gateway.clock.advance(3 * 86_400_000);
    expect((await raw('GET', viewOnly.Uri)).status).toBe(410);
    const active = (await call('listShares', {})).body.data;
    expect(active.shares.map((s: { Id: string }) => s.Id)).not.toContain(viewOnly.Id);
    const all = (await call('listShares', { include_expired: true })).body.data;
    expect(all.shares.map((s: { Id: string }) => s.Id)).toContain(viewOnly.Id);
    expect(
      (await call('sendShareNotification', { share_id: viewOnly.Id, recipients: ['max@example.com'] })).status,
    ).toBe(400);
  });

  it('Request shares accept uploads into their folder until deleted', async () => {
    const { call, raw } = setup();
    const folder = (await call('createFolder', { parent_id: 'home', name: 'Inbox' })).body.data;
    const share = (await call('createShare', { share_type: 'Request', parent_id: folder.Id })).body.data;
    const up = await raw(
      'POST',
      `${share.Uri}/upload?name=${encodeURIComponent('w9 form.txt')}`,
      new TextEncoder().encode('tax form'),
    );
    expect(up.status).toBe(201);
    expect(
      (await call('listChildren', { folder_id: folder.Id })).body.data.items.map((i: { Name: string }) => i.Name),
    ).toEqual(['w9 form.txt']);
    expect((await raw('GET', `${share.Uri}/items/x`)).status).toBe(400);
    await call('deleteShare', { share_id: share.Id });
    expect((await raw('POST', `${share.Uri}/upload?name=late.txt`, new TextEncoder().encode('late'))).status).toBe(404);
  });

  it('writes e-mails to the outbox port', async () => {
    const sender = { name: 'Dana Whitfield', email: 'dana@example.com' };
    const box = new InMemoryOutbox(new FixedClock(new Date('2026-11-21T10:00:00Z')), sender);
    const g = testGateway({ ports: [[ShareNotifier, box]] });
    const file = (await post(g, '/v1/tools/files/searchItems?format=json', { query: 'welcome' })).body.data.results[0];
    const share = (
      await post(g, '/v1/tools/files/createShare?format=json', {
        share_type: 'Send',
        items: [file.Id],
        recipients: ['lena@example.com'],
        personal_message: 'See attached',
        cc_sender: true,
      })
    ).body.data;
    expect(box.messages).toHaveLength(1);
    expect(box.messages[0]).toMatchObject({
      to: ['lena@example.com'],
      cc: ['dana@example.com'],
      shareId: share.Id,
      shareUri: share.Uri,
    });
    expect(box.messages[0]!.body).toContain('See attached');
  });
});

describe("a folder's next steps", () => {
  it('name files_writeFile first, and a call to it from the hint writes into the new folder', async () => {
    const gateway = testGateway();
    const text = (await post(gateway, '/v1/tools/files/createFolder', { parent_id: 'home', name: 'Notes' })).body
      .data as string;
    const hint = /files_writeFile (\{[^\n]+\})/.exec(text);
    expect(hint, text).not.toBeNull();
    expect(text.indexOf('files_writeFile')).toBeLessThan(text.indexOf('files_getUploadUrl'));
    const given = JSON.parse(hint![1]!) as Record<string, string>;
    const args: Record<string, string> = { ...given, file_name: 'a.txt', content: 'hello' };
    const written = await post(gateway, '/v1/tools/files/writeFile?format=json', args);
    expect(written.status).toBe(200);
    const folder = (await post(gateway, '/v1/tools/files/getItem', { item_id: args['folder_id'] })).body.data as string;
    expect(folder).toContain('files_writeFile');
  });
});
