import { describe, expect, it } from 'vitest';
import { InMemoryIdempotencyStore } from '../../../adapters/outbound/memory/in-memory-idempotency-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';

// Fair shares (issue 38): the in-process idempotency records are one bounded store for every tenant. A tenant
// that sends a new Idempotency-Key with every write used to push other tenants' records out (their retry of a
// finished write then ran again). Now each tenant holds at most its share, and its own oldest record makes
// room for its next one.

const outcome = { status: 200, body: { ok: true } } as never;

describe('idempotency records, tenant by tenant', () => {
  it("a tenant writing with a new key each time cannot push another tenant's record out", async () => {
    const store = new InMemoryIdempotencyStore(new FixedClock(new Date('2026-11-29T00:00:00Z')), {
      maxEntries: 100,
    });
    expect(await store.claim('globex:key:b:1', 'f', 60)).toEqual({ state: 'started' });
    await store.complete('globex:key:b:1', 'f', outcome, 3600);
    for (let i = 0; i < 500; i++) {
      await store.claim(`acme:key:a:${i}`, 'f', 60);
      await store.complete(`acme:key:a:${i}`, 'f', outcome, 3600);
    }
    // globex's write still replays
    expect(await store.claim('globex:key:b:1', 'f', 60)).toMatchObject({ state: 'replay' });
    // acme holds its share (a tenth of 100): its newest records, not its oldest
    expect(store.size).toBe(11);
    expect(await store.claim('acme:key:a:499', 'f', 60)).toMatchObject({ state: 'replay' });
    expect(await store.claim('acme:key:a:0', 'f', 60)).toEqual({ state: 'started' });
  });

  it('a share of one keeps one record, and a tenant whose records all went is forgotten', async () => {
    const store = new InMemoryIdempotencyStore(new FixedClock(new Date('2026-11-29T00:00:00Z')), {
      maxEntries: 10,
      maxEntriesPerTenant: 1,
    });
    await store.claim('acme:k:1', 'f', 60);
    await store.claim('acme:k:2', 'f', 60);
    await store.claim('acme:k:3', 'f', 60);
    expect(store.size).toBe(1);
    expect(await store.claim('acme:k:3', 'f', 60)).toEqual({ state: 'in-progress' });
    await store.abandon('acme:k:3');
    expect(store.size).toBe(0);
    await store.claim('acme:k:4', 'f', 60);
    expect(await store.claim('acme:k:4', 'f', 60)).toEqual({ state: 'in-progress' });
  });
});
