import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../composition/config.js';
import { E } from '../../domain/shared/fp.js';

// Issue 38: the authorization server's limits from the environment, with their defaults, and a list of trusted
// proxies that is refused at start, naming the variable, when an entry is no address or range.

describe('the OAUTH_* limits in the configuration', () => {
  it('have defaults, and take whole numbers and a list of proxies', () => {
    const defaults = loadConfig({});
    if (E.isLeft(defaults)) throw new Error(defaults.left.join('; '));
    expect(defaults.right.oauth.limits).toEqual({
      registrationsPerHour: 20,
      tokenRequestsPerMinute: 120,
      signInFailuresPerMinute: 5,
      signInFailuresPerHour: 20,
      trustedProxies: [],
    });
    expect(defaults.right.oauth.unusedClientTtlSeconds).toBe(86_400);
    expect(defaults.right.oauth.maxUnusedClients).toBe(10_000);
    expect(defaults.right.storage.auditSpoolBytes).toBe(64 * 1024 * 1024);
    const set = loadConfig({
      OAUTH_TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.5,::1,fd00::/8',
      OAUTH_REGISTRATIONS_PER_HOUR: '3',
    });
    if (E.isLeft(set)) throw new Error(set.left.join('; '));
    expect(set.right.oauth.limits.trustedProxies).toEqual(['10.0.0.0/8', '192.168.1.5', '::1', 'fd00::/8']);
    expect(set.right.oauth.limits.registrationsPerHour).toBe(3);
  });

  it('refuse a proxy that is no address or range, naming the variable', () => {
    for (const bad of ['haproxy', '10.0.0.0/33', '10.0.0.1/8/2', '::1/129']) {
      const r = loadConfig({ OAUTH_TRUSTED_PROXIES: bad });
      expect(E.isLeft(r), bad).toBe(true);
      if (E.isLeft(r)) expect(String(r.left)).toContain('OAUTH_TRUSTED_PROXIES');
    }
  });
});
