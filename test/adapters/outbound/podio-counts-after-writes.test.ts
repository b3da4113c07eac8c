import { afterAll, describe, expect, it } from 'vitest';
import { PROPERTIES_APP } from '../../../adapters/outbound/memory/demo/records.js';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { PodioClient } from '../../../adapters/outbound/podio/podio-client.js';
import { PodioRecordApps } from '../../../adapters/outbound/podio/podio-record-apps.js';
import { PodioRecordStore } from '../../../adapters/outbound/podio/podio-record-store.js';
import { StaticPodioToken } from '../../../adapters/outbound/podio/podio-tokens.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { validateFields } from '../../../domain/records/field-input.js';
import { PodioServer } from '../../fakes/podio-server.js';
import { servePodioItems } from '../../fakes/podio-items.js';
import { ok, right } from '../../support/run.js';

// Issue 42: an app's record count is kept for a minute (one vendor call when asked again), but the gateway's
// own writes change it: a create (the batch create too) drops the app's count, a delete every kept count.

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });
const servers: PodioServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

const start = async () => {
  const clock = new FixedClock(new Date('2026-11-28T10:00:00.000Z'));
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
  return { server, apps, store: new PodioRecordStore(client, apps) };
};

const flags = { silent: false, hook: true, workflow: true };

describe('Podio record counts after the gateway own writes', () => {
  it('counts again after a create, a batch create and a delete', async () => {
    const { server, apps, store } = await start();
    const count = async () => (await ok(apps.recordCounts([PROPERTIES_APP]))).get(PROPERTIES_APP)!;
    const before = await count();
    expect(await count()).toBe(before); // kept: asked again within the minute
    const app = await ok(apps.getApp(PROPERTIES_APP));
    const fields = right(validateFields(app, { address: '16 Elm St' }, 'create'));
    const created = await ok(store.create(app, fields, flags));
    expect(await count()).toBe(before + 1);
    await ok(store.createRef!(app, fields, flags));
    expect(await count()).toBe(before + 2);
    await ok(store.delete(created.record_id, flags));
    expect(await count()).toBe(before + 1);
    const asked = server.requests.filter((r) => r.path === `/item/app/${PROPERTIES_APP}/count`).length;
    expect(asked).toBe(4);
    expect(server.violations).toEqual([]);
  });
});
