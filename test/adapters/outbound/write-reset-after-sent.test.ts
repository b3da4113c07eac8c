import { afterAll, describe, expect, it } from 'vitest';
import { PROPERTIES_APP } from '../../../adapters/outbound/memory/demo/records.js';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { PodioClient } from '../../../adapters/outbound/podio/podio-client.js';
import { PodioRecordApps } from '../../../adapters/outbound/podio/podio-record-apps.js';
import { PodioRecordStore } from '../../../adapters/outbound/podio/podio-record-store.js';
import { StaticPodioToken } from '../../../adapters/outbound/podio/podio-tokens.js';
import { ShareFileItemStore } from '../../../adapters/outbound/sharefile/sharefile-item-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { validateFields } from '../../../domain/records/field-input.js';
import { HubSpotServer } from '../../fakes/hubspot-server.js';
import { PodioServer } from '../../fakes/podio-server.js';
import { servePodioItems } from '../../fakes/podio-items.js';
import { shareFileTestClient, startShareFileServer } from '../../fakes/sharefile-server.js';
import { bookFor } from '../../support/hubspot-contact-book.js';
import { err, ok, right, uniqueTag } from '../../support/run.js';

// Issue 42 (WRONG): a write whose connection is reset after the request was sent may have been made (each
// stand-in below makes it, then destroys the socket). The answer must not tell the agent to repeat it: it
// says to check first, like a timeout, and is not retryable. A connection refused (nothing sent) still is.

configureResilience({ maxAttempts: 3, breakerFailures: 1_000_000 });
const clock = new FixedClock(new Date('2026-11-28T10:00:00.000Z'));
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

const maybeMade = { _tag: 'UpstreamFailure', retryable: false };

describe('a write reset after it was sent', () => {
  it('HubSpot: the contact was created; the answer says check first, not retryable, and nothing is resent', async () => {
    const server = await HubSpotServer.start();
    closers.push(() => server.close());
    const book = bookFor(server);
    server.resetAfterNext();
    const e = await err(book.create({ email: `${uniqueTag()}@example.com` }, []));
    expect(e).toMatchObject({ ...maybeMade, vendor: 'HubSpot' });
    expect(e.message).toContain('check first whether the change was made');
    expect(e.message).not.toContain('could not be reached');
    const posts = server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/contacts'));
    expect(posts.map((r) => r.status)).toEqual([201]);
  });

  it('Podio: the item was created; the answer says check first, not retryable', async () => {
    const server = await PodioServer.start({ clock });
    closers.push(() => server.close());
    servePodioItems(server, clock);
    const client = new PodioClient({
      baseUrl: server.baseUrl,
      auth: new StaticPodioToken(server.issueToken(5001)),
      timeoutMs: 3_000,
      clock,
    });
    const apps = new PodioRecordApps(client);
    const store = new PodioRecordStore(client, apps);
    const app = await ok(apps.getApp(PROPERTIES_APP));
    const fields = right(validateFields(app, { address: '14 Elm St' }, 'create'));
    server.resetAfterNext();
    const e = await err(store.create(app, fields, { silent: false, hook: true, workflow: true }));
    expect(e).toMatchObject({ ...maybeMade, vendor: 'Podio' });
    expect(e.message).toContain('check first whether the change was made');
    const posts = server.requests.filter((r) => r.method === 'POST' && r.path === `/item/app/${PROPERTIES_APP}/`);
    expect(posts.map((r) => r.status)).toEqual([200]);
  });

  it('ShareFile: the folder was created; the answer says check first, not retryable', async () => {
    const fake = await startShareFileServer({ clock });
    closers.push(() => fake.close());
    const items = new ShareFileItemStore({ client: shareFileTestClient(fake, clock), maxUploadBytes: 1024 });
    fake.resetAfterNext = true;
    const e = await err(items.createFolder('home', { name: 'Reset folder', overwrite: false }));
    expect(e).toMatchObject({ ...maybeMade, vendor: 'ShareFile' });
    expect(e.message).toContain('check first whether the change was made');
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Folder'))).toHaveLength(1);
  });

  it('a write refused before anything was sent is still "could not be reached", retryable', async () => {
    const server = await HubSpotServer.start();
    const baseUrl = server.baseUrl;
    await server.close();
    const e = await err(bookFor(server, undefined, baseUrl).create({ email: `${uniqueTag()}@example.com` }, []));
    expect(e).toMatchObject({ _tag: 'UpstreamFailure', retryable: true });
    expect(e.message).toContain('could not be reached (ECONNREFUSED)');
  });

  it('a read reset after it was sent is still retryable (and retried)', async () => {
    const server = await HubSpotServer.start();
    closers.push(() => server.close());
    const book = bookFor(server);
    const { contact } = await ok(book.create({ email: `${uniqueTag()}@example.com` }, []));
    server.resetAfterNext();
    const got = await ok(book.get(contact.id, []));
    expect(got.id).toBe(contact.id);
  });
});
