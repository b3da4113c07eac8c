import { afterAll, describe, expect, it } from 'vitest';
import {
  DEALS_APP,
  LEADS_APP,
  PROPERTIES_APP,
  seedDemoRecords,
} from '../../../adapters/outbound/memory/demo/records.js';
import { InMemoryPodioAccount } from '../../../adapters/outbound/memory/in-memory-podio-account.js';
import { InMemoryRecords } from '../../../adapters/outbound/memory/in-memory-records.js';
import { PodioClient } from '../../../adapters/outbound/podio/podio-client.js';
import { podioActiveProfile } from '../../../adapters/outbound/podio/podio-active-profile.js';
import { PodioRecordApps } from '../../../adapters/outbound/podio/podio-record-apps.js';
import { PodioRecordComments } from '../../../adapters/outbound/podio/podio-record-comments.js';
import { PodioRecordStore } from '../../../adapters/outbound/podio/podio-record-store.js';
import { StaticPodioToken } from '../../../adapters/outbound/podio/podio-tokens.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { ListRecords } from '../../../application/records/list-records.js';
import { validateFields } from '../../../domain/records/field-input.js';
import { TE } from '../../../domain/shared/fp.js';
import { PodioServer } from '../../fakes/podio-server.js';
import { servePodioItems } from '../../fakes/podio-items.js';
import { ok, right } from '../../support/run.js';

// Routes and bodies settled against Podio's documentation and official clients (issue 14): the acting user's
// profile from GET /user/status (podio-php PodioUserStatus::get); links as embeds made by POST /embed/
// (podio-php PodioEmbedItemField); dates as start_date/start_time; a view's records from
// POST /item/app/{app_id}/filter/{view_id}/ (PodioItem::filter_by_view); comments paged with limit/offset;
// DELETE /comment/{id} without hook/silent (PodioComment::delete). The stand-in refuses the other forms.

const servers: PodioServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

const start = async () => {
  const clock = new FixedClock(new Date('2026-11-25T10:00:00.000Z'));
  const server = await PodioServer.start({ clock });
  servers.push(server);
  servePodioItems(server, clock);
  const client = new PodioClient({
    baseUrl: server.baseUrl,
    auth: new StaticPodioToken(server.issueToken(5001)),
    timeoutMs: 3_000,
    clock,
  });
  const apps = new PodioRecordApps(client);
  const store = new PodioRecordStore(client, apps);
  const comments = new PodioRecordComments(client);
  return { server, client, clock, apps, store, comments };
};

const asked = (server: PodioServer) => server.requests.map((r) => `${r.method} ${r.path}`);

describe('Podio routes of the official clients', () => {
  it("reads the acting user's profile id from GET /user/status, once", async () => {
    const { server, client } = await start();
    const profile = podioActiveProfile(client);
    const first = await ok(profile());
    expect(first).toBeGreaterThan(0);
    expect(await ok(profile())).toBe(first);
    expect(asked(server).filter((r) => r.includes('/user/'))).toEqual(['GET /user/status']);
    expect(server.violations).toEqual([]);
  });

  it('writes a link as an embed made by POST /embed/ and a date as start_date/start_time', async () => {
    const { server, apps, store } = await start();
    const app = await ok(apps.getApp(PROPERTIES_APP));
    const fields = right(
      validateFields(
        app,
        {
          address: '12 Elm St',
          listing: [{ url: 'https://listings.example.com/12-elm' }],
          'listed-on': '2026-11-20 09:30:00',
        },
        'create',
      ),
    );
    const record = await ok(store.create(app, fields, { silent: false, hook: true, workflow: true }));
    expect(server.violations).toEqual([]);
    const embedCall = server.requests.find((r) => r.path === '/embed/');
    expect(embedCall?.body).toEqual({ url: 'https://listings.example.com/12-elm' });
    const create = server.requests.find((r) => r.method === 'POST' && r.path === `/item/app/${PROPERTIES_APP}/`);
    const sent = (create?.body as { fields: Record<string, unknown> }).fields;
    expect(sent['300208']).toEqual([{ embed: expect.any(Number) }]);
    expect(sent['300207']).toEqual({ start_date: '2026-11-20', start_time: '09:30:00' });
    expect(record.values[300208]).toEqual([expect.objectContaining({ url: 'https://listings.example.com/12-elm' })]);
    expect(record.values[300207]).toMatchObject({ start: '2026-11-20 09:30:00' });
  });

  it("lists every demo view's records through Podio's filter-by-view, as memory mode lists them", async () => {
    const { server, apps, store, clock } = await start();
    const settings = { timeZone: 'UTC', activeProfileId: () => TE.right(1) };
    const list = new ListRecords(store, apps, settings, clock);
    const memory = new InMemoryRecords({ clock, account: InMemoryPodioAccount.withDemoData() });
    seedDemoRecords(memory);
    const inMemory = new ListRecords(memory, memory, settings, clock);
    const params = { limit: 500, field_types: 'all', verbose: false, count_only: false } as const;
    for (const [appId, viewIds] of [
      [LEADS_APP, [400101, 400102]],
      [DEALS_APP, [400301]],
    ] as const)
      for (const view_id of viewIds) {
        const page = await ok(list.execute({ ...params, app_id: appId, view_id }));
        const expected = await ok(inMemory.execute({ ...params, app_id: appId, view_id }));
        expect(page.total, `view ${view_id}`).toBeGreaterThan(0);
        expect(page.records.map((r) => r.record_id)).toEqual(expected.records.map((r) => r.record_id));
        expect(asked(server)).toContain(`POST /item/app/${appId}/filter/${view_id}/`);
      }
    expect(server.violations).toEqual([]);
  });

  it('pages comments with limit and offset, reads the total only when more follow, and deletes without flags', async () => {
    const { server, comments, apps, store } = await start();
    const leads = await ok(apps.getApp(LEADS_APP));
    const target = await ok(
      store.query(leads, { filters: [], sortDesc: false, offset: 0, limit: 1, countOnly: false }),
    );
    const created = [];
    const id = target.records[0]!.record_id;
    for (let i = 0; i < 5; i++)
      created.push(await ok(comments.create(id, `note ${i}`, [], { silent: false, hook: true, workflow: true })));
    const before = (await ok(comments.list(id, 0, 100))).total;
    const first = await ok(comments.list(id, 0, 2));
    expect(first.comments).toHaveLength(2);
    expect(first.total).toBeGreaterThanOrEqual(3);
    const lists = server.requests.filter((r) => r.path === `/comment/item/${id}/`);
    expect(lists.at(-1)?.query).toEqual({ offset: '0', limit: '3' });
    const last = await ok(comments.list(id, before - 1, 2));
    expect(last).toEqual({ total: before, comments: [expect.objectContaining({ value: 'note 4' })] });
    await ok(comments.delete(created[0]!.comment_id, { silent: true, hook: false }));
    const del = server.requests.find((r) => r.method === 'DELETE' && r.path.startsWith('/comment/'));
    expect(del?.query).toEqual({});
    expect(server.violations).toEqual([]);
  });
});
