import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../../composition/gateway.js';
import { PodioServer } from '../../fakes/podio-server.js';
import { servePodioWorkspaces } from '../../fakes/podio-workspaces.js';
import { TEST_DATA_DIR } from '../../support/data-dir.js';
import { NOW, request } from '../../support/gateway.js';
import { redisForTests } from '../../support/redis.js';

// Podio and ShareFile connections configured by environment keep their tokens in the TokenStore, as HubSpot's
// do (issue 14, "README vs code"): two instances on one Redis share one Podio access token.

const found = await redisForTests();
if ('skip' in found) console.warn(found.skip);

describe.skipIf('skip' in found)('environment connections share their tokens through Redis', () => {
  const open: Gateway[] = [];
  let podio: PodioServer | undefined;
  afterAll(async () => {
    for (const g of open) await g.close();
    await podio?.close();
    if (!('skip' in found)) await found.stop();
  });

  it('refreshes the Podio token once for two instances', async () => {
    if ('skip' in found) return;
    const clock = new FixedClock(NOW);
    const refreshToken = `rt-${randomUUID()}`;
    podio = await PodioServer.start({ clock, refreshTokens: [{ refreshToken, userId: 5001 }] });
    servePodioWorkspaces(podio, clock);
    const instance = () => {
      const g = createGateway({
        env: {
          GATEWAY_DEMO_TOKEN: 'shared-env-token-0123456789',
          GATEWAY_DATA_DIR: TEST_DATA_DIR,
          REDIS_URL: found.url,
          WORKSPACES_BACKEND: 'podio',
          PODIO_BASE_URL: podio!.baseUrl,
          PODIO_CLIENT_ID: podio!.clientId,
          PODIO_CLIENT_SECRET: podio!.clientSecret,
          PODIO_REFRESH_TOKEN: refreshToken,
        },
        logger: pino({ level: 'silent' }),
        overrides: { clock },
      });
      open.push(g);
      return g;
    };
    const [a, b] = [instance(), instance()];
    for (const g of [a, b, a]) {
      const r = await request(g, 'POST', '/v1/tools/workspaces/getOrganizations', {
        body: {},
        token: 'shared-env-token-0123456789',
      });
      expect(r.status).toBe(200);
    }
    expect(podio.tokenRequests()).toHaveLength(1);
  });
});
