import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { ScopeCache } from '../../application/tenancy/scope-cache.js';

// Issue 39: one cache of the adapters calls run on, memory-mode tenants (kind memory) and vendor connections
// side by side, keyed by tenant, kind and owner with the version each was made from; one weighted budget in
// which each kind's own bound holds; idle time per entry on the gateway's clock.

const at = () => new FixedClock(new Date('2026-11-29T00:00:00Z'));
const cacheOf = (tenants: number, connections: number, clock = at()) =>
  new ScopeCache<string, string>({
    tenants,
    connections,
    tenantIdleMs: 60_000,
    connectionIdleMs: 10_000,
    clock,
  });

describe('the scope cache', () => {
  it('holds memory-mode tenants and connections in one cache, apart by kind and owner', () => {
    const cache = cacheOf(10, 100);
    cache.setTenant('acme', 'acme data');
    cache.setConnection('acme', 'hubspot', 'key:ann', { version: 'oauth:1:connected', value: "ann's hubspot" });
    cache.setConnection('acme', 'hubspot', '', { version: 'oauth:2:connected', value: "acme's hubspot" });
    expect(cache.size).toBe(3);
    expect(cache.count('memory')).toBe(1);
    expect(cache.count('connection')).toBe(2);
    expect(cache.tenant('acme')).toBe('acme data');
    expect(cache.connection('acme', 'hubspot', 'key:ann')).toEqual({
      version: 'oauth:1:connected',
      value: "ann's hubspot",
    });
    // a tenant named like an owner or a vendor finds nothing of another kind
    expect(cache.connection('acme', 'podio', 'key:ann')).toBeUndefined();
    expect(cache.tenant('hubspot')).toBeUndefined();
  });

  it("a connection change drops that vendor's entries of that tenant, every owner, and nothing else", () => {
    const cache = cacheOf(10, 100);
    cache.setTenant('acme', 'acme data');
    cache.setConnection('acme', 'hubspot', 'key:ann', { version: 'v1', value: 'a' });
    cache.setConnection('acme', 'hubspot', '', { version: 'v1', value: 'b' });
    cache.setConnection('acme', 'podio', '', { version: 'v1', value: 'c' });
    cache.setConnection('acme2', 'hubspot', '', { version: 'v1', value: 'd' });
    cache.dropConnections('acme', 'hubspot');
    expect(cache.connection('acme', 'hubspot', 'key:ann')).toBeUndefined();
    expect(cache.connection('acme', 'hubspot', '')).toBeUndefined();
    expect(cache.connection('acme', 'podio', '')?.value).toBe('c');
    expect(cache.connection('acme2', 'hubspot', '')?.value).toBe('d');
    expect(cache.tenant('acme')).toBe('acme data');
  });

  it('a new version replaces the entry in its place: an older one never stays beside it', () => {
    const cache = cacheOf(10, 100);
    cache.setConnection('acme', 'hubspot', '', { version: 'oauth:1:connected', value: 'old' });
    cache.setConnection('acme', 'hubspot', '', { version: 'oauth:9:connected', value: 'new' });
    expect(cache.count('connection')).toBe(1);
    expect(cache.connection('acme', 'hubspot', '')).toEqual({ version: 'oauth:9:connected', value: 'new' });
  });

  it("each kind's own bound holds when only it is used; the one used longest ago goes first", () => {
    const tenants = cacheOf(3, 1000);
    for (const t of ['a', 'b', 'c']) tenants.setTenant(t, t);
    expect(tenants.tenant('a')).toBe('a'); // a is now the latest used
    tenants.setTenant('d', 'd');
    expect(tenants.count('memory')).toBe(3);
    expect(tenants.peekTenant('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((t) => tenants.peekTenant(t))).toEqual(['a', 'c', 'd']);

    const connections = cacheOf(3, 5);
    for (let i = 0; i < 8; i++) connections.setConnection(`t${i}`, 'podio', '', { version: 'v', value: `${i}` });
    expect(connections.count('connection')).toBe(5);
    expect(connections.connection('t2', 'podio', '')).toBeUndefined();
    expect(connections.connection('t3', 'podio', '')?.value).toBe('3');
  });

  it('both kinds share one budget: a held tenant leaves room for fewer connections', () => {
    // 2 tenants or 10 connections; one tenant weighs 5 connections
    const cache = cacheOf(2, 10);
    cache.setTenant('acme', 'acme data');
    for (let i = 0; i < 10; i++) cache.setConnection(`t${i}`, 'hubspot', '', { version: 'v', value: `${i}` });
    // the tenant was used longest ago and went first; then the budget holds 10 connections
    expect(cache.peekTenant('acme')).toBeUndefined();
    expect(cache.count('connection')).toBe(10);
    cache.setTenant('globex', 'globex data');
    expect(cache.count('memory')).toBe(1);
    expect(cache.count('connection')).toBe(5);
  });

  it("drops an entry idle past its kind's time; a use starts the time again, a peek does not", () => {
    const clock = at();
    const cache = cacheOf(10, 100, clock);
    cache.setTenant('used', 'U');
    cache.setTenant('peeked', 'P');
    cache.setConnection('acme', 'hubspot', '', { version: 'v', value: 'C' });
    clock.advance(11_000);
    // a connection idles out after 10 s, a tenant after 60 s
    expect(cache.connection('acme', 'hubspot', '')).toBeUndefined();
    clock.advance(29_000);
    expect(cache.tenant('used')).toBe('U');
    expect(cache.peekTenant('peeked')).toBe('P');
    clock.advance(40_000);
    expect(cache.tenant('used')).toBe('U');
    expect(cache.peekTenant('peeked')).toBeUndefined();
    expect(cache.tenant('peeked')).toBeUndefined();
    clock.advance(60_001);
    expect(cache.tenant('used')).toBeUndefined();
  });
});
