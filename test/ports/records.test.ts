import { afterAll, describe, expect, it } from 'vitest';
import { LEADS_APP, seedDemoRecords } from '../../adapters/outbound/memory/demo/records.js';
import { InMemoryPodioAccount } from '../../adapters/outbound/memory/in-memory-podio-account.js';
import { InMemoryRecords } from '../../adapters/outbound/memory/in-memory-records.js';
import { StaticPodioToken } from '../../adapters/outbound/podio/podio-tokens.js';
import { PodioClient } from '../../adapters/outbound/podio/podio-client.js';
import { PodioRecordApps } from '../../adapters/outbound/podio/podio-record-apps.js';
import { PodioRecordComments } from '../../adapters/outbound/podio/podio-record-comments.js';
import { PodioRecordStore } from '../../adapters/outbound/podio/podio-record-store.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { PodioServer } from '../fakes/podio-server.js';
import { servePodioItems } from '../fakes/podio-items.js';
import { err, ok } from '../support/run.js';
import { recordAppsContract } from './record-apps.contract.js';
import { recordCommentsContract } from './record-comments.contract.js';
import { recordStoreContract } from './record-store.contract.js';
import type { RecordsHarness } from './records-harness.js';

const T0 = new Date('2026-11-21T10:00:00.000Z');

const inMemory = async (): Promise<RecordsHarness> => {
  const store = new InMemoryRecords({ clock: new FixedClock(T0), account: InMemoryPodioAccount.withDemoData() });
  seedDemoRecords(store);
  return { apps: store, store, comments: store.commentsPort(), podio: false, close: async () => {} };
};

const servers: PodioServer[] = [];

const podio = async (): Promise<RecordsHarness & { server: PodioServer }> => {
  const clock = new FixedClock(T0);
  const server = await PodioServer.start({ clock });
  servers.push(server);
  servePodioItems(server, clock);
  const client = new PodioClient({
    baseUrl: server.baseUrl,
    auth: new StaticPodioToken(server.issueToken(5001)),
    timeoutMs: 3_000,
    clock,
    rateLimitWaitSeconds: 600,
  });
  const apps = new PodioRecordApps(client);
  return {
    apps,
    store: new PodioRecordStore(client, apps),
    comments: new PodioRecordComments(client),
    podio: true,
    server,
    close: async () => {},
  };
};

for (const [name, start] of [
  ['in memory', inMemory],
  ['Podio (local stand-in)', podio],
] as const) {
  recordAppsContract(name, start);
  recordStoreContract(name, start);
  recordCommentsContract(name, start);
}

describe('Podio (local stand-in): the requests the records adapter sent', () => {
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('used documented endpoints only, with OAuth2 authorisation and documented bodies', () => {
    const requests = servers.flatMap((s) => s.requests);
    expect(servers.flatMap((s) => s.violations)).toEqual([]);
    expect(requests.length).toBeGreaterThan(30);
    expect(requests.every((r) => /^OAuth2 \S+$/.test(String(r.headers['authorization'])))).toBe(true);
    const used = new Set(requests.map((r) => `${r.method} ${r.path.replace(/\/\d+(?=\/|$)/g, '/{id}')}`));
    for (const endpoint of [
      'GET /app/space/{id}/',
      'GET /app/{id}',
      'GET /view/app/{id}/',
      'GET /view/app/{id}/{id}',
      'GET /item/{id}',
      'POST /item/app/{id}/',
      'PUT /item/{id}',
      'DELETE /item/{id}',
      'POST /item/app/{id}/filter/',
      'GET /item/{id}/revision/',
      'GET /item/{id}/revision/{id}/{id}',
      'GET /item/{id}/reference/',
      'GET /item/field/{id}/find',
      'POST /file/v2/',
      'POST /comment/item/{id}/',
      'GET /comment/{id}',
      'GET /comment/item/{id}/',
      'DELETE /comment/{id}',
    ])
      expect(used, endpoint).toContain(endpoint);
  });

  it('uploads files as multipart with the file in "source" and a "filename" field', () => {
    const uploads = servers.flatMap((s) => s.requests).filter((r) => r.method === 'POST' && r.path === '/file/v2/');
    expect(uploads.length).toBeGreaterThan(0);
    for (const u of uploads) {
      expect(String(u.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
      const raw = (u.body as { bytes: Buffer }).bytes.toString('latin1');
      expect(raw).toMatch(/name="source"; filename="[^"]+"/);
      expect(raw).toMatch(/name="filename"\r\n\r\n[^\r]+\r\n/);
    }
  });

  it('sends write flags as query parameters', () => {
    const writes = servers
      .flatMap((s) => s.requests)
      .filter((r) => (r.method === 'POST' && /^\/item\/app\/\d+\/$/.test(r.path)) || r.method === 'PUT');
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((w) => w.query['hook'] !== undefined && w.query['silent'] !== undefined)).toBe(true);
    expect(writes.some((w) => w.query['silent'] === 'true')).toBe(true);
  });

  it("reports Podio's rate limit (HTTP 420) as RateLimited with a retry hint", async () => {
    const h = await podio();
    h.server.failNext(420, {
      error: 'rate_limit',
      error_description: 'You have hit the rate limit. Please wait 300 seconds before trying again',
    });
    const e = await err(h.store.get(70030));
    expect(e).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 600 });
    expect(e.message).toContain('Wait about 10 minutes');
    h.server.failNext(420, { error: 'rate_limit', error_description: 'limit' });
    expect(
      await err(h.store.uploadFile({ name: 'a.txt', mimetype: 'text/plain', content: new Uint8Array([65]) })),
    ).toMatchObject({ _tag: 'RateLimited' });
    expect((await ok(h.store.get(70030))).record_id).toBe(70030);
    expect(h.server.violations).toEqual([]);
  });

  it("reads a view's filters so a listing by view applies them", async () => {
    const h = await podio();
    const views = await ok(h.apps.getViews(LEADS_APP));
    const open = views.find((v) => v.name === 'Open leads')!;
    expect(open.filters).toEqual([
      { field_id: '300102', match_type: 'any', values: [{ value: 1 }, { value: 2 }, { value: 3 }] },
    ]);
    expect(open).toMatchObject({ sort_by: '300110', sort_desc: true });
    expect(await err(h.apps.getView(open.view_id))).toMatchObject({ _tag: 'InvalidInput', parameter: 'app_id' });
    expect(h.server.violations).toEqual([]);
  });
});
