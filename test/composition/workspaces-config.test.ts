import { TEST_DATA_DIR } from '../support/data-dir.js';
import { ParserPool } from '../../adapters/outbound/documents/parser-pool.js';
import * as t from 'io-ts';
import { Container } from 'inversify';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { loadConfig } from '../../composition/config.js';
import { createGateway } from '../../composition/gateway.js';
import { podioConfigFrom, podioEnv } from '../../composition/podio.js';
import { podioClientFor } from '../../composition/groups/podio-connection.js';
import { InMemoryTokenStore } from '../../adapters/outbound/memory/in-memory-token-store.js';
import { E } from '../../domain/shared/fp.js';
import { PodioServer } from '../fakes/podio-server.js';
import { servePodioWorkspaces } from '../fakes/podio-workspaces.js';
import { post } from '../support/gateway.js';

const problems = (env: Record<string, string>) => {
  const r = loadConfig(env);
  return E.isLeft(r) ? r.left : [];
};

describe('workspaces configuration', () => {
  it('defaults to memory mode', () => {
    const r = loadConfig({});
    expect(E.isRight(r) && r.right.groups['workspaces']).toEqual({ kind: 'memory' });
  });

  it('asks for the Podio API key and at most one way to sign in (none: tenants connect their own)', () => {
    expect(problems({ WORKSPACES_BACKEND: 'podio' })).toEqual([
      'PODIO_CLIENT_ID is required when WORKSPACES_BACKEND=podio.',
      'PODIO_CLIENT_SECRET is required when WORKSPACES_BACKEND=podio.',
    ]);
    const key = { WORKSPACES_BACKEND: 'podio', PODIO_CLIENT_ID: 'gw', PODIO_CLIENT_SECRET: 'secret-value' };
    expect(problems(key)).toEqual([]);
    expect(
      problems({ ...key, PODIO_REFRESH_TOKEN: 'rt-1', PODIO_USERNAME: 'a@b.example', PODIO_PASSWORD: 'pw-secret' }),
    ).toEqual(['Set only one Podio sign-in: PODIO_REFRESH_TOKEN, PODIO_USERNAME/PODIO_PASSWORD are all set.']);
    expect(problems({ ...key, PODIO_APP_ID: '30001' })).toEqual(['PODIO_APP_ID and PODIO_APP_TOKEN go together.']);
    const ok = loadConfig({ ...key, PODIO_APP_ID: '30001', PODIO_APP_TOKEN: 'app-token-x' });
    expect(E.isRight(ok) && ok.right.groups['workspaces']).toEqual({
      kind: 'podio',
      podio: {
        baseUrl: 'https://api.podio.com',
        authorizeUrl: 'https://podio.com',
        clientId: 'gw',
        clientSecret: 'secret-value',
        grant: { kind: 'app', appId: '30001', appToken: 'app-token-x' },
      },
    });
  });

  it('reports a problem once when two groups read the same variables', () => {
    const list: string[] = [];
    const decoded = t.type(podioEnv).decode({});
    if (decoded._tag === 'Left') throw new Error('the PODIO_* codecs refused an empty environment');
    podioConfigFrom(decoded.right, list, 'WORKSPACES_BACKEND=podio');
    podioConfigFrom(decoded.right, list, 'WORKSPACES_BACKEND=podio');
    expect(list).toHaveLength(2);
  });

  it("binds one shared Podio client per connection's container", () => {
    const container = new Container();
    const config = {
      baseUrl: 'http://127.0.0.1:9',
      authorizeUrl: 'https://podio.com',
      clientId: 'a',
      clientSecret: 'b',
      grant: { kind: 'refresh_token' as const, refreshToken: 'c' },
    };
    const shared = {
      clock: new FixedClock(new Date()),
      logger: pino({ level: 'silent' }),
      demoData: true,
      upstreamTimeoutMs: 1000,
      publicBaseUrl: 'http://x',
      tenant: 'default',
      documents: new ParserPool(),
    };
    const binding = {
      connection: {
        tenant: 'default',
        vendor: 'podio' as const,
        owner: '',
        kind: 'oauth' as const,
        status: 'connected' as const,
        label: 'Podio',
        details: {},
        secret: { refreshToken: 'c' },
        connectedAt: new Date(),
      },
      tokens: new InMemoryTokenStore(),
    };
    expect(podioClientFor(container, config, shared, binding)).toBe(podioClientFor(container, config, shared, binding));
  });
});

describe('WORKSPACES_BACKEND=podio end to end against the local Podio stand-in', () => {
  const servers: PodioServer[] = [];
  afterAll(async () => {
    for (const s of servers) {
      expect(s.violations).toEqual([]);
      await s.close();
    }
  });

  it('signs in with the refresh token and answers member tables from Podio', async () => {
    const clock = new FixedClock(new Date('2026-03-10T09:00:00.000Z'));
    const server = await PodioServer.start({
      clock,
      refreshTokens: [{ refreshToken: 'operator-refresh-token', userId: 5001 }],
    });
    servers.push(server);
    servePodioWorkspaces(server, clock);
    const gateway = createGateway({
      env: {
        GATEWAY_DEMO_TOKEN: 'podio-mode-demo-token',
        GATEWAY_DATA_DIR: TEST_DATA_DIR,
        WORKSPACES_BACKEND: 'podio',
        PODIO_BASE_URL: server.baseUrl,
        PODIO_CLIENT_ID: server.clientId,
        PODIO_CLIENT_SECRET: server.clientSecret,
        PODIO_REFRESH_TOKEN: 'operator-refresh-token',
      },
      logger: pino({ level: 'silent' }),
      overrides: { clock },
    });
    const members = await post(
      gateway,
      '/v1/tools/workspaces/getSpaceMembers',
      { space_id: 2001, member_type: 'regular' },
      'podio-mode-demo-token',
    );
    expect(members.status).toBe(200);
    expect(members.body.data).toContain('| 5002 | 9102 | James Chen | regular | employee | active |');
    expect(members.body.data).toContain('| 5003 | 9103 | Priya Shah | regular | employee | active |');
    const space = await post(
      gateway,
      '/v1/tools/workspaces/getSpace',
      { space_id: 2001, verbose: true },
      'podio-mode-demo-token',
    );
    expect(space.body.data).toContain('## Space "Acquisitions" (space_id 2001)');
    expect(space.body.data).toContain('**Your role:** admin');
    expect(server.tokenRequests()).toHaveLength(1);
    expect(server.tokenRequests()[0]!.body).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'operator-refresh-token',
    });
  });
});
