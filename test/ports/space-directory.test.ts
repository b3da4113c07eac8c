import { afterAll, describe, expect, it } from 'vitest';
import { InMemoryPodioAccount } from '../../adapters/outbound/memory/in-memory-podio-account.js';
import { InMemorySpaceDirectory } from '../../adapters/outbound/memory/in-memory-space-directory.js';
import { StaticPodioToken } from '../../adapters/outbound/podio/podio-tokens.js';
import { PodioClient } from '../../adapters/outbound/podio/podio-client.js';
import { PodioSpaceDirectory } from '../../adapters/outbound/podio/podio-space-directory.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { PodioServer } from '../fakes/podio-server.js';
import { servePodioWorkspaces } from '../fakes/podio-workspaces.js';
import { spaceDirectoryContract } from './space-directory.contract.js';

const T0 = new Date('2026-03-10T09:00:00.000Z');

spaceDirectoryContract('in memory', async () => ({
  directory: new InMemorySpaceDirectory(InMemoryPodioAccount.withDemoData(), new FixedClock(T0)),
  close: async () => {},
}));

const servers: PodioServer[] = [];

spaceDirectoryContract('Podio (local stand-in)', async () => {
  const clock = new FixedClock(T0);
  const server = await PodioServer.start({ clock });
  servers.push(server);
  servePodioWorkspaces(server, clock);
  const client = new PodioClient({
    baseUrl: server.baseUrl,
    auth: new StaticPodioToken(server.issueToken(5001)),
    timeoutMs: 3_000,
    clock,
  });
  return { directory: new PodioSpaceDirectory(client), close: async () => {} };
});

describe('Podio (local stand-in): the requests the workspaces adapter sent', () => {
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('used the documented endpoints only, with OAuth2 authorisation and documented bodies', () => {
    const server = servers[0]!;
    expect(server.violations).toEqual([]);
    const used = new Set(server.requests.map((r) => `${r.method} ${r.path.replace(/\/\d+(,\d+)*(?=\/|$)/g, '/{id}')}`));
    expect([...used].sort()).toEqual(
      [
        'DELETE /space/{id}',
        'DELETE /space/{id}/member/{id}',
        'GET /org/',
        'GET /space/{id}',
        'GET /space/{id}/member/v2/',
        'POST /space/',
        'POST /space/{id}/member/',
        'PUT /space/{id}',
        'PUT /space/{id}/member/{id}',
      ].sort(),
    );
    expect(server.requests.every((r) => String(r.headers['authorization']).startsWith('OAuth2 '))).toBe(true);
  });

  it('sent several user ids in one membership call, comma-separated', () => {
    expect(
      servers[0]!.requests.some((r) => r.method === 'PUT' && /^\/space\/\d+\/member\/5002,5003$/.test(r.path)),
    ).toBe(true);
  });
});
