import { afterAll, describe, expect, it } from 'vitest';
import { PodioClient } from '../../../adapters/outbound/podio/podio-client.js';
import { podioActiveProfile } from '../../../adapters/outbound/podio/podio-active-profile.js';
import { StaticPodioToken } from '../../../adapters/outbound/podio/podio-tokens.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { PodioServer } from '../../fakes/podio-server.js';
import { servePodioItems } from '../../fakes/podio-items.js';
import { ok } from '../../support/run.js';

// Routes settled against the official clients (issue 14): the acting user's profile comes from
// GET /user/status (podio-php PodioUserStatus::get, `profile.profile_id`); no client reads /user/profile/.

const servers: PodioServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe('Podio routes of the official clients', () => {
  it("reads the acting user's profile id from GET /user/status, once", async () => {
    const clock = new FixedClock(new Date('2026-11-25T10:00:00.000Z'));
    const server = await PodioServer.start({ clock });
    servers.push(server);
    servePodioItems(server, clock);
    const client = new PodioClient({
      baseUrl: server.baseUrl,
      auth: new StaticPodioToken(server.issueToken(5001)),
      timeoutMs: 3_000,
      clock,
    });
    const profile = podioActiveProfile(client);
    const first = await ok(profile());
    expect(first).toBeGreaterThan(0);
    expect(await ok(profile())).toBe(first);
    const asked = server.requests.filter((r) => r.path.startsWith('/user/'));
    expect(asked.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /user/status']);
    expect(server.violations).toEqual([]);
  });
});
