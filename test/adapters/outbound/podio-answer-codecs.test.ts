import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { PodioClient } from '../../../adapters/outbound/podio/podio-client.js';
import { PodioRecordApps } from '../../../adapters/outbound/podio/podio-record-apps.js';
import { PodioRecordStore } from '../../../adapters/outbound/podio/podio-record-store.js';
import { PodioSpaceDirectory } from '../../../adapters/outbound/podio/podio-space-directory.js';
import { StaticPodioToken } from '../../../adapters/outbound/podio/podio-tokens.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { listenOnLoopback, loopbackUrl } from '../../fakes/listen.js';
import { err, ok } from '../../support/run.js';

// Podio's answers are decoded with io-ts codecs (issue 14): an answer that lacks what identifies an object
// is an "unexpected shape" error naming the place, never a record 0; a member with an odd role or no name
// is still listed; a field type the gateway does not know is read as text and says so.

const answers = new Map<string, unknown>();
const asked: string[] = [];
const server: Server = createServer((req, res) => {
  const key = `${req.method} ${req.url?.split('?')[0]}`;
  asked.push(key);
  const body = answers.get(key);
  const status = body === undefined ? 404 : (body as { error?: string }).error === 'invalid_value' ? 400 : 200;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body ?? { error: 'not_found', error_description: 'Object not found' }));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = async () => {
  if (!server.listening) await listenOnLoopback(server);
  return new PodioClient({
    baseUrl: loopbackUrl(server),
    auth: new StaticPodioToken('t0k3n-for-tests'),
    timeoutMs: 2_000,
    clock: new FixedClock(new Date('2026-11-25T10:00:00Z')),
  });
};

const app = {
  app_id: 11,
  config: { name: 'Leads', item_name: 'Lead' },
  fields: [
    { field_id: 1, type: 'text', external_id: 'title', config: { label: 'Title' } },
    { field_id: 2, type: 'hologram', external_id: 'future', config: { label: 'Future' } },
  ],
};

describe('Podio answers through codecs', () => {
  it('refuses an item without item_id as an unexpected shape, naming the place', async () => {
    const podio = await client();
    answers.set('GET /app/11', app);
    answers.set('GET /item/5', { app: { app_id: 11 }, fields: [], title: 'no id' });
    const store = new PodioRecordStore(podio, new PodioRecordApps(podio));
    const e = await err(store.get(5));
    expect(e._tag).toBe('UpstreamFailure');
    expect(e.message).toContain('unexpected shape');
    expect(e.message).toContain('item_id');
  });

  it('reads an unknown field type as text, described as unsupported, not as an attachment', async () => {
    const podio = await client();
    answers.set('GET /app/11', app);
    const read = await ok(new PodioRecordApps(podio).getApp(11));
    const future = read.fields.find((f) => f.field_id === 2)!;
    expect(future.field_type).toBe('single_text');
    expect(future.description).toContain('"hologram" is not supported');
  });

  it('lists a member with a blank role and no name instead of failing the whole page', async () => {
    const podio = await client();
    answers.set('GET /space/9/member/v2/', [
      { role: 'admin', profile: { profile_id: 1, user_id: 10, name: 'Ana' } },
      { role: '', profile: { profile_id: 2, user_id: 20 } },
    ]);
    const page = await ok(new PodioSpaceDirectory(podio).members(9, { limit: 10, offset: 0 }));
    expect(page.members.map((m) => [m.profile.profile_id, m.role, m.profile.name])).toEqual([
      [1, 'admin', 'Ana'],
      [2, 'light', ''],
    ]);
  });

  it('keeps an app definition, and reads it again after Podio refuses a write to the app', async () => {
    const podio = await client();
    answers.set('GET /app/11', app);
    answers.set('POST /item/app/11/', { error: 'invalid_value', error_description: 'Field 3 no longer exists' });
    const apps = new PodioRecordApps(podio);
    const store = new PodioRecordStore(podio, apps);
    const reads = () => asked.filter((a) => a === 'GET /app/11').length;
    const before = reads();
    const definition = await ok(apps.getApp(11));
    await ok(apps.getApp(11));
    expect(reads()).toBe(before + 1);
    await err(store.create(definition, [], { silent: false, hook: true, workflow: true }));
    await ok(apps.getApp(11));
    expect(reads()).toBe(before + 2);
  });
});
