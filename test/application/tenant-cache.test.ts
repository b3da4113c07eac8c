import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { tenantCache } from '../../application/tenancy/tenant-cache.js';

// Issue 39: the one cache kept per tenant (memory-mode tenants, connections' adapters) is lru-cache bounded by
// count and idle time on the gateway's clock.

describe('the tenant cache', () => {
  it('drops the entry used longest ago past its bound', () => {
    const clock = new FixedClock(new Date('2026-11-29T00:00:00Z'));
    const cache = tenantCache<string>({ max: 2, idleMs: 60_000, clock });
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A'); // a is now the latest used
    cache.set('c', 'C');
    expect([...cache.keys()].sort()).toEqual(['a', 'c']);
  });

  it('drops an entry idle past the time; a use starts the time again, a peek does not', () => {
    const clock = new FixedClock(new Date('2026-11-29T00:00:00Z'));
    const cache = tenantCache<string>({ max: 10, idleMs: 60_000, clock });
    cache.set('used', 'U');
    cache.set('peeked', 'P');
    clock.advance(40_000);
    expect(cache.get('used')).toBe('U');
    expect(cache.peek('peeked')).toBe('P');
    clock.advance(40_000);
    expect(cache.get('used')).toBe('U');
    expect(cache.peek('peeked')).toBeUndefined();
    expect(cache.get('peeked')).toBeUndefined();
    clock.advance(60_001);
    expect(cache.get('used')).toBeUndefined();
  });
});
