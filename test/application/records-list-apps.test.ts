import { afterAll, describe, expect, it } from 'vitest';
import { DEALS_APP, LEADS_APP, PROPERTIES_APP } from '../../adapters/outbound/memory/demo/records.js';
import type { App } from '../../domain/records/app.js';
import { ok } from '../support/run.js';
import { podioSetup } from './records-podio-gateway.js';
import { setup } from './records-gateway.js';

// Issue 30: records_listApps gives each app's record count (counting them took one call per app), and its
// format=json names each app's id `id`, as the spec's listApps does. In memory the counts are read
// directly; over Podio from its documented GET /item/app/{app_id}/count, one call per app, for at most
// 25 apps, five at a time.

type Call = ReturnType<typeof setup>['call'];

/** Each app's record count as records_listRecords with count_only gives it: what listApps must agree with. */
const countedOneByOne = async (call: Call, ids: readonly number[]) => {
  const out: Record<number, number> = {};
  for (const id of ids) out[id] = (await call('listRecords', { app_id: id, count_only: true })).data.total;
  return out;
};

const listing = async (call: Call) => {
  const r = await call('listApps', { workspace_id: 2001 });
  expect(r.status).toBe(200);
  return r.data.apps as { id: number; name: string; record_count?: number; [k: string]: unknown }[];
};

const extraApp = (app_id: number): App => ({
  app_id,
  space_id: 2001,
  name: `Extra ${app_id}`,
  item_name: 'Extra',
  description: '',
  icon: '',
  fields: [{ field_id: app_id * 10, external_id: 'title', label: 'Title', field_type: 'single_text', required: true }],
});

describe('records_listApps in memory', () => {
  it('gives every app its id as `id` and its record count, equal to a count_only listing', async () => {
    const { call } = setup();
    const apps = await listing(call);
    expect(apps.map((a) => a.id)).toEqual([PROPERTIES_APP, LEADS_APP, DEALS_APP]);
    for (const a of apps) expect(a).not.toHaveProperty('app_id');
    const expected = await countedOneByOne(call, [PROPERTIES_APP, LEADS_APP, DEALS_APP]);
    expect(Object.fromEntries(apps.map((a) => [a.id, a.record_count]))).toEqual(expected);
    expect(Object.values(expected).every((n) => n > 0)).toBe(true);
  });

  it('counts what changes: a new record adds one, a record in the trash is not counted', async () => {
    const { call } = setup();
    const before = (await listing(call)).find((a) => a.id === LEADS_APP)!.record_count!;
    const made = await call('createRecord', { app_id: LEADS_APP, fields: { name: 'Counted' } });
    expect((await listing(call)).find((a) => a.id === LEADS_APP)!.record_count).toBe(before + 1);
    await call('deleteRecord', { record_id: made.data.record_id });
    expect((await listing(call)).find((a) => a.id === LEADS_APP)!.record_count).toBe(before);
  });

  it('shows the counts in a records column of the text table', async () => {
    const { call } = setup();
    const apps = await listing(call);
    const text = (await call('listApps', { workspace_id: 2001 }, 'text')).data as string;
    expect(text).toContain('| id | name | records | workspace_id | description |');
    for (const a of apps) expect(text).toContain(`| ${a.id} | ${a.name} | ${a.record_count} | 2001 |`);
    expect(text).not.toContain('No record count');
  });
});

describe('records_listApps over the Podio stand-in', () => {
  const opened: { close: () => Promise<void> }[] = [];
  const start = async (options: { countedApps?: number } = {}) => {
    const s = await podioSetup(options);
    opened.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of opened) await s.close();
  });
  const countCalls = (server: Awaited<ReturnType<typeof podioSetup>>['server']) =>
    server.apiRequests().filter((r) => /^\/item\/app\/\d+\/count$/.test(r.path));

  it("reads each app's count from GET /item/app/{app_id}/count, one call per app", async () => {
    const { call, server } = await start();
    const apps = await listing(call);
    expect(apps.map((a) => a.id)).toEqual([PROPERTIES_APP, LEADS_APP, DEALS_APP]);
    const memory = setup();
    expect(Object.fromEntries(apps.map((a) => [a.id, a.record_count]))).toEqual(
      await countedOneByOne(memory.call, [PROPERTIES_APP, LEADS_APP, DEALS_APP]),
    );
    expect(countCalls(server).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /item/app/${PROPERTIES_APP}/count`,
      `GET /item/app/${LEADS_APP}/count`,
      `GET /item/app/${DEALS_APP}/count`,
    ]);
    expect(server.violations).toEqual([]);
  });

  it('counts at most the configured number of apps, and the text says how to count the others', async () => {
    const { call, server } = await start({ countedApps: 2 });
    const apps = await listing(call);
    expect(apps.map((a) => a.record_count === undefined)).toEqual([false, false, true]);
    expect(countCalls(server)).toHaveLength(2);
    const text = (await call('listApps', { workspace_id: 2001 }, 'text')).data as string;
    expect(text).toContain(`No record count for 1 app`);
    expect(text).toContain(`records_listRecords {"app_id":${DEALS_APP},"count_only":true}`);
  });

  it('leaves out an app whose count fails, and stops counting at a rate limit', async () => {
    const { server, apps, standIn } = await start();
    server.failNext(403, { error: 'forbidden', error_description: 'No access', error_detail: null });
    const counted = await ok(apps.recordCounts([PROPERTIES_APP, LEADS_APP, DEALS_APP]));
    expect(counted.size).toBe(2);
    expect(server.violations).toEqual([]);

    const extra = [3951, 3952, 3953, 3954, 3955, 3956, 3957];
    for (const id of extra) standIn.addApp(extraApp(id));
    const before = countCalls(server).length;
    server.failNext(420, { error: 'rate_limit', error_description: 'You have hit the rate limit', error_detail: null });
    const limited = await ok(apps.recordCounts(extra));
    // the first five are asked at once; the rate limit stops the rest
    expect(countCalls(server).length - before).toBe(5);
    expect(limited.size).toBe(4);
  });
});
