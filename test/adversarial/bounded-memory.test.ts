import { describe, expect, it } from 'vitest';
import { BoundedLog } from '../../adapters/outbound/memory/bounded-log.js';
import { InMemoryContactBook } from '../../adapters/outbound/memory/in-memory-contact-book.js';
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
    const box = new InMemoryOutbox(clock, { name: 'Dana', email: 'dana@example.com' }, undefined, { max: 5, ttlMs: 3_600_000 });
    const g = testGateway({ ports: [[ShareNotifier, box]] });
    const file = (await post(g, '/v1/tools/files/searchItems?format=json', { query: 'welcome' })).body.data.results[0];
    for (let i = 0; i < 12; i++) {
      const r = await post(g, '/v1/tools/files/createShare?format=json', { share_type: 'Send', items: [file.Id], recipients: [`p${i}@example.com`] });
      expect(r.status).toBe(200);
    }
    expect(box.messages.map((m) => m.to[0])).toEqual(['p7@example.com', 'p8@example.com', 'p9@example.com', 'p10@example.com', 'p11@example.com']);
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
    const create = (i: number) => post(g, '/v1/tools/crm/createContact', { values: { email: `loop${i}@example.com`, firstname: 'Loop' } });
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
    for (let i = 0; i < 4; i++) results.push(await directory.createSpace({ org_id: org, name: `Loop ${i}`, privacy: 'closed' } as never)());
    expect(results.map((r) => r._tag)).toEqual(['Right', 'Right', 'Left', 'Left']);
    expect(results[2]).toMatchObject({ left: { _tag: 'Conflict', details: { resource: 'spaces' } } });
  });
});
