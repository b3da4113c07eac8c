import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UrlFetchGuard } from '../../adapters/outbound/http/url-fetch-guard.js';
import { DEALS_APP, seedDemoRecords } from '../../adapters/outbound/memory/demo/records.js';
import { InMemoryPodioAccount } from '../../adapters/outbound/memory/in-memory-podio-account.js';
import { InMemoryRecords } from '../../adapters/outbound/memory/in-memory-records.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import type { FileValue } from '../../domain/records/values.js';
import { TE } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordComments } from '../../ports/record-comments.js';
import { RecordStore } from '../../ports/record-store.js';
import { RecordsSettings } from '../../ports/records-settings.js';
import { UrlFetcher } from '../../ports/url-fetcher.js';
import { NOW, post, testGateway } from '../support/gateway.js';

/**
 * A refused call changes nothing: no URL is fetched when the call is refused for another reason, and no
 * uploaded file is left behind when a later step fails. Private addresses are allowed here on purpose:
 * the listener stands for a real file host, and what is counted is whether the gateway went there.
 */
describe('refused record calls have no side effects', () => {
  let server: Server;
  let base: string;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/missing.pdf') return void res.writeHead(404).end('no');
      res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  afterEach(() => void hits.splice(0));

  /** A gateway over an in-memory store whose uploaded files are tracked: live = uploaded and not removed. */
  const setup = () => {
    const clock = new FixedClock(NOW);
    const store = new InMemoryRecords({ clock, account: InMemoryPodioAccount.withDemoData() });
    seedDemoRecords(store);
    const live = new Set<number>();
    const tracked: RecordStore = new Proxy(store as unknown as RecordStore, {
      get(target, prop) {
        const value = (target as any)[prop];
        if (typeof value !== 'function') return value;
        if (prop === 'uploadFile')
          return (...a: unknown[]) => TE.map((f: FileValue) => (live.add(f.file_id), f))(value.apply(target, a));
        if (prop === 'deleteFile') return (id: number) => (live.delete(id), value.call(target, id));
        return value.bind(target);
      },
    });
    const fetcher = new UrlFetchGuard({ maxBytes: 1_048_576, timeoutMs: 2_000, allowPrivate: true });
    const g = testGateway({
      clock,
      ports: [
        [RecordApps, store],
        [RecordStore, tracked],
        [RecordComments, store.commentsPort()],
        [RecordsSettings, { timeZone: 'UTC', activeProfileId: () => TE.right(9101) }],
        [UrlFetcher, fetcher],
      ],
    });
    const call = (tool: string, args: unknown) => post(g, `/v1/tools/records/${tool}?format=json`, args);
    return { call, live };
  };

  it('uploadFiles: a bad entry after a URL refuses the call before the URL is fetched', async () => {
    const { call, live } = setup();
    const r = await call('uploadFiles', { files: [{ url: `${base}/a.pdf` }, { content_base64: 'aGk=' }] });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('files[1].name');
    expect(hits).toEqual([]);
    expect(live.size).toBe(0);
  });

  it('uploadFiles: a URL that fails leaves none of the other files stored', async () => {
    const { call, live } = setup();
    const r = await call('uploadFiles', {
      files: [{ content_base64: 'aGk=', name: 'a.txt' }, { url: `${base}/b.pdf` }, { url: `${base}/missing.pdf` }],
    });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('files[2].url');
    expect(live.size).toBe(0);
  });

  it('uploadFiles: the files are stored when every entry is good', async () => {
    const { call, live } = setup();
    const r = await call('uploadFiles', {
      files: [{ content_base64: 'aGk=', name: 'a.txt' }, { url: `${base}/b.pdf` }],
    });
    expect(r.status).toBe(200);
    expect(live.size).toBe(2);
  });

  it('createRecord: an invalid field refuses the call before an attachment URL is fetched', async () => {
    const { call, live } = setup();
    const r = await call('createRecord', {
      app_id: DEALS_APP,
      fields: { title: 'Deal', documents: [`${base}/a.pdf`], amount: 'lots' },
    });
    expect(r.status).toBe(400);
    expect(hits).toEqual([]);
    expect(live.size).toBe(0);
  });

  it('createRecord: a record the store refuses leaves no uploaded attachment behind', async () => {
    const { call, live } = setup();
    const r = await call('createRecord', {
      app_id: DEALS_APP,
      fields: { title: 'Deal', documents: [`${base}/a.pdf`, `${base}/b.pdf`], lead: [99999999] },
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(live.size).toBe(0);
  });

  it('createRecord: a second attachment that fails to download leaves the first one unstored', async () => {
    const { call, live } = setup();
    const r = await call('createRecord', {
      app_id: DEALS_APP,
      fields: { title: 'Deal', documents: [`${base}/a.pdf`, `${base}/missing.pdf`] },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('fields.documents');
    expect(live.size).toBe(0);
  });

  it('updateRecord: a change the store refuses leaves no uploaded attachment behind', async () => {
    const { call, live } = setup();
    const created = await call('createRecord', { app_id: DEALS_APP, fields: { title: 'Deal' } });
    expect(created.status).toBe(200);
    const r = await call('updateRecord', {
      record_id: created.body.data.record_id,
      fields: { documents: [`${base}/a.pdf`], lead: [99999999] },
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(live.size).toBe(0);
  });

  it('createRecord and batchUpdateRecords: more than 10 attachment URLs in one record are refused before any is fetched', async () => {
    const { call, live } = setup();
    const urls = Array.from({ length: 11 }, (_, i) => `${base}/f${i}.pdf`);
    const r = await call('createRecord', { app_id: DEALS_APP, fields: { title: 'Deal', documents: urls } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('at most 10');
    const b = await call('batchUpdateRecords', {
      app_id: DEALS_APP,
      updates: [{ record_id: 1, fields: { documents: urls } }],
    });
    expect(b.status).toBe(400);
    expect(b.body.error.details.errors[0].parameter).toBe('updates[0].fields');
    expect(hits).toEqual([]);
    expect(live.size).toBe(0);
  });

  it('batchCreateRecords: one invalid input refuses the batch before any URL is fetched', async () => {
    const { call, live } = setup();
    const r = await call('batchCreateRecords', {
      app_id: DEALS_APP,
      inputs: [{ fields: { title: 'A', documents: [`${base}/a.pdf`] } }, { fields: { amount: 'lots' } }],
    });
    expect(r.status).toBe(400);
    expect(hits).toEqual([]);
    expect(live.size).toBe(0);
  });

  it('batchCreateRecords and batchUpdateRecords: an item the store refuses keeps no attachment; the good items keep theirs', async () => {
    const { call, live } = setup();
    const r = await call('batchCreateRecords', {
      app_id: DEALS_APP,
      inputs: [
        { fields: { title: 'A', documents: [`${base}/a.pdf`] } },
        { fields: { title: 'B', documents: [`${base}/b.pdf`], lead: [99999999] } },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ successful: 1, failed: 1 });
    expect(live.size).toBe(1);
    const id = r.body.data.items[0].record_id;
    const u = await call('batchUpdateRecords', {
      app_id: DEALS_APP,
      updates: [{ record_id: id, fields: { documents: [`${base}/c.pdf`], lead: [99999999] } }],
    });
    expect(u.body.data).toMatchObject({ successful: 0, failed: 1 });
    expect(live.size).toBe(1);
  });
});
