import { describe, expect, it } from 'vitest';
import { ConnectionWatch } from '../../application/connections/connection-watch.js';

// Calls waiting for their person to connect (issue 43): woken by a change of their tenant's connection to
// their vendor, never by another tenant's or vendor's, and bounded in number.

describe('ConnectionWatch', () => {
  it("wakes the calls waiting for the tenant's vendor, and only those", async () => {
    const watch = new ConnectionWatch();
    const mine = watch.changeOf('acme', 'hubspot', 60_000);
    const otherTenant = watch.changeOf('globex', 'hubspot', 60_000);
    const otherVendor = watch.changeOf('acme', 'podio', 60_000);
    expect(watch.waiting).toBe(3);
    watch.changed('acme', 'hubspot');
    expect(await mine).toBe('changed');
    expect(watch.waiting).toBe(2);
    const abort = new AbortController();
    const aborted = watch.changeOf('acme', 'sharefile', 60_000, abort.signal);
    abort.abort();
    expect(await aborted).toBe('aborted');
    watch.changed('globex', 'hubspot');
    watch.changed('acme', 'podio');
    expect(await Promise.all([otherTenant, otherVendor])).toEqual(['changed', 'changed']);
    expect(watch.waiting).toBe(0);
  });

  it('is full at once past its bound, a tenant at a tenth of it, and times out when the wait is spent', async () => {
    const watch = new ConnectionWatch(20);
    const acme = [watch.changeOf('acme', 'hubspot', 60_000), watch.changeOf('acme', 'podio', 60_000)];
    expect(await watch.changeOf('acme', 'hubspot', 60_000)).toBe('full');
    const others = Array.from({ length: 18 }, (_, i) => watch.changeOf(`t${i}`, 'hubspot', 60_000));
    expect(await watch.changeOf('globex', 'hubspot', 60_000)).toBe('full');
    watch.changed('acme', 'hubspot');
    watch.changed('acme', 'podio');
    expect(await Promise.all(acme)).toEqual(['changed', 'changed']);
    expect(await watch.changeOf('acme', 'hubspot', 0)).toBe('timeout');
    for (let i = 0; i < 18; i++) watch.changed(`t${i}`, 'hubspot');
    await Promise.all(others);
    expect(watch.waiting).toBe(0);
  });

  it('a change between the look and the wait is not missed (the mark taken before the look)', async () => {
    const watch = new ConnectionWatch();
    const mark = watch.mark('acme', 'hubspot');
    watch.changed('acme', 'hubspot'); // the person connected while the call looked
    expect(await watch.changeOf('acme', 'hubspot', 60_000, undefined, mark)).toBe('changed');
    expect(watch.waiting).toBe(0);
    // Unchanged since the mark: it waits (here until its time is spent).
    expect(await watch.changeOf('acme', 'hubspot', 0, undefined, watch.mark('acme', 'hubspot'))).toBe('timeout');
  });
});
