import { describe, expect, it } from 'vitest';
import { BoundedLog } from '../../adapters/outbound/memory/bounded-log.js';
import { InMemoryContactBook } from '../../adapters/outbound/memory/in-memory-contact-book.js';
import { HmacLinkSigner } from '../../adapters/outbound/memory/hmac-link-signer.js';
import { InMemoryItemStore } from '../../adapters/outbound/memory/in-memory-item-store.js';
import { InMemoryRecords } from '../../adapters/outbound/memory/in-memory-records.js';
import { leadsApp } from '../../adapters/outbound/memory/demo/records.js';
import { validateFields } from '../../domain/records/field-input.js';
import { DEFAULT_FLAGS } from '../../domain/records/revision.js';
import { InMemoryOutbox } from '../../adapters/outbound/memory/in-memory-outbox.js';
import { InMemoryPodioAccount } from '../../adapters/outbound/memory/in-memory-podio-account.js';
import { InMemorySpaceDirectory } from '../../adapters/outbound/memory/in-memory-space-directory.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { ShareNotifier } from '../../ports/share-notifier.js';
import { post, testGateway } from '../support/gateway.js';

// Memory mode keeps logs of what it would have sent; a caller repeating a cheap call must not grow them
// without end.
describe('bounded in-memory logs', () => {
  it('keeps at most max entries, oldest dropped first', () => {
    const log = new BoundedLog<number>(3, 60_000, () => 0);
    for (let i = 1; i <= 5_000; i++) log.push(i);
    expect(log.size).toBe(3);
    expect(log.items).toEqual([4_998, 4_999, 5_000]);
  });

  it('drops entries older than the TTL', () => {
    let now = 0;
    const log = new BoundedLog<string>(100, 1_000, () => now);
    log.push('old');
    now = 600;
    log.push('newer');
    now = 1_200;
    expect(log.items).toEqual(['newer']);
    now = 5_000;
    expect(log.size).toBe(0);
  });

  it('refuses a log without limits', () => {
    expect(() => new BoundedLog(0, 1_000)).toThrow();
    expect(() => new BoundedLog(10, 0)).toThrow();
  });

  it('the share outbox keeps only its last messages however many shares are sent', async () => {
    const clock = new FixedClock(new Date('2026-11-21T10:00:00Z'));
    const box = new InMemoryOutbox(clock, { name: 'Dana', email: 'dana@example.com' }, undefined, {
      max: 5,
      ttlMs: 3_600_000,
    });
    const g = testGateway({ ports: [[ShareNotifier, box]] });
    const file = (await post(g, '/v1/tools/files/searchItems?format=json', { query: 'welcome' })).body.data.results[0];
    for (let i = 0; i < 12; i++) {
      const r = await post(g, '/v1/tools/files/createShare?format=json', {
        share_type: 'Send',
        items: [file.Id],
        recipients: [`p${i}@example.com`],
      });
      expect(r.status).toBe(200);
    }
    expect(box.messages.map((m) => m.to[0])).toEqual([
      'p7@example.com',
      'p8@example.com',
      'p9@example.com',
      'p10@example.com',
      'p11@example.com',
    ]);
    clock.advance(3_600_001);
    expect(box.messages).toEqual([]);
  });
});

// A caller creating in a loop fills memory mode's demo account; each store stops at its cap with a clear
// 409 and keeps working for reads and deletes.
describe('demo store caps', () => {
  it('the contact book refuses the contact past its cap and still serves reads', async () => {
    const clock = new FixedClock(new Date('2026-11-21T10:00:00Z'));
    const book = InMemoryContactBook.withDemoData({ clock, limits: { contacts: 30, companies: 10_000 } });
    const g = testGateway({ contactBook: book });
    const create = (i: number) =>
      post(g, '/v1/tools/crm/createContact', { values: { email: `loop${i}@example.com`, firstname: 'Loop' } });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await create(i)).status);
    const firstRefused = statuses.indexOf(409);
    expect(firstRefused).toBeGreaterThan(0);
    expect(statuses.slice(0, firstRefused).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(firstRefused).every((s) => s === 409)).toBe(true);
    const refused = await create(99);
    expect(refused.body.error.message).toContain('at most 30 contacts');
    expect(refused.body.error.details).toMatchObject({ resource: 'contacts', limit: 30 });
    expect((await post(g, '/v1/tools/crm/getContact', { contact_id: '101' })).status).toBe(200);
  });

  it('the space directory refuses the space past its cap', async () => {
    const account = InMemoryPodioAccount.withDemoData();
    const clock = new FixedClock(new Date('2026-11-21T10:00:00Z'));
    const directory = new InMemorySpaceDirectory(account, clock, account.spaces.size + 2);
    const org = [...account.organisations.values()][0]!.org_id;
    const results = [];
    for (let i = 0; i < 4; i++)
      results.push(await directory.createSpace({ org_id: org, name: `Loop ${i}`, privacy: 'closed' } as never)());
    expect(results.map((r) => r._tag)).toEqual(['Right', 'Right', 'Left', 'Left']);
    expect(results[2]).toMatchObject({ left: { _tag: 'Conflict', details: { resource: 'spaces' } } });
  });
});

describe('demo store caps: records and files', () => {
  const clock = () => new FixedClock(new Date('2026-11-21T10:00:00Z'));
  const right = <T>(e: { _tag: string; right?: T; left?: unknown }): T => {
    if (e._tag !== 'Right') throw new Error(`expected Right, got ${JSON.stringify(e.left)}`);
    return e.right as T;
  };

  it('records, comments and record files stop at their caps with a 409-kind refusal', async () => {
    const store = new InMemoryRecords({
      clock: clock(),
      account: InMemoryPodioAccount.withDemoData(),
      limits: { records: 3, comments: 1, recordFiles: 1 },
    });
    store.addApp(leadsApp);
    const fields = right(validateFields(leadsApp, { name: 'Loop' }, 'create'));
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await store.create(leadsApp, fields, DEFAULT_FLAGS)());
    expect(made.map((m) => m._tag)).toEqual(['Right', 'Right', 'Right', 'Left', 'Left']);
    expect(made[3]).toMatchObject({ left: { _tag: 'Conflict', details: { resource: 'records', limit: 3 } } });

    const file = { name: 'a.txt', mimetype: 'text/plain', content: new Uint8Array(3) };
    expect((await store.uploadFile(file)())._tag).toBe('Right');
    expect(await store.uploadFile(file)()).toMatchObject({
      left: { _tag: 'Conflict', details: { resource: 'record files' } },
    });

    const recordId = right<{ record_id: number }>(made[0] as never).record_id;
    expect((await store.createComment(recordId, 'one', [], DEFAULT_FLAGS)())._tag).toBe('Right');
    expect(await store.createComment(recordId, 'two', [], DEFAULT_FLAGS)()).toMatchObject({
      left: { _tag: 'Conflict', details: { resource: 'comments' } },
    });
  });

  it('the records event log keeps only recent events', async () => {
    const c = clock();
    const store = new InMemoryRecords({ clock: c, account: InMemoryPodioAccount.withDemoData() });
    store.addApp(leadsApp);
    const fields = right(validateFields(leadsApp, { name: 'Loop' }, 'create'));
    await store.create(leadsApp, fields, DEFAULT_FLAGS)();
    expect(store.events.length).toBeGreaterThan(0);
    c.advance(86_400_001);
    expect(store.events).toEqual([]);
  });

  it('the file store stops at its item and byte caps, copies included', async () => {
    const items = new InMemoryItemStore({
      clock: clock(),
      signer: new HmacLinkSigner('http://127.0.0.1:8787', 'a-test-secret-for-links'),
      limits: { items: 6, itemBytes: 100 },
    });
    const home = items.homeId;
    expect(items.addFile(home, 'a.bin', new Uint8Array(60), { overwrite: false })._tag).toBe('Right');
    expect(items.addFile(home, 'b.bin', new Uint8Array(60), { overwrite: false })).toMatchObject({
      left: { _tag: 'Conflict', details: { resource: 'bytes of file content', limit: 100 } },
    });
    const folder = right<{ Id: string }>(await items.createFolder(home, { name: 'F', overwrite: false })());
    const c = right<{ item: { Id: string } }>(
      items.addFile(folder.Id, 'c.bin', new Uint8Array(10), { overwrite: false }),
    );
    const other = right<{ Id: string }>(await items.createFolder(home, { name: 'G', overwrite: false })());
    // 5 items now (home, a.bin, F, c.bin, G): a copy of c.bin makes 6; a copy of F (2 more) would pass 6.
    expect((await items.copy(c.item.Id, other.Id, false)())._tag).toBe('Right');
    const refused = await items.copy(folder.Id, other.Id, false)();
    expect(refused).toMatchObject({ left: { _tag: 'Conflict', details: { resource: 'files and folders', limit: 6 } } });
    expect((refused as { left: { message: string } }).left.message).toContain('recycle bin');
  });
});
