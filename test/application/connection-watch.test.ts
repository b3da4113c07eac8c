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
    expect(await mine).toBe(true);
    expect(watch.waiting).toBe(2);
    const abort = new AbortController();
    const aborted = watch.changeOf('acme', 'sharefile', 60_000, abort.signal);
    abort.abort();
    expect(await aborted).toBe(false);
    watch.changed('globex', 'hubspot');
    watch.changed('acme', 'podio');
    expect(await Promise.all([otherTenant, otherVendor])).toEqual([true, true]);
    expect(watch.waiting).toBe(0);
  });

  it('answers false at once past its bound, and when the wait is spent', async () => {
    const watch = new ConnectionWatch(1);
    const first = watch.changeOf('acme', 'hubspot', 60_000);
    expect(await watch.changeOf('acme', 'hubspot', 60_000)).toBe(false);
    expect(await watch.changeOf('acme', 'podio', 0)).toBe(false);
    watch.changed('acme', 'hubspot');
    expect(await first).toBe(true);
    expect(await watch.changeOf('acme', 'hubspot', 0)).toBe(false);
    expect(watch.waiting).toBe(0);
  });
});
