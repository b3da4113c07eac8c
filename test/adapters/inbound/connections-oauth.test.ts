import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../../composition/gateway.js';
import { PodioServer } from '../../fakes/podio-server.js';
import { servePodioWorkspaces } from '../../fakes/podio-workspaces.js';
import { SHAREFILE_TEST_CLIENT, startShareFileServer, type ShareFileStandIn } from '../../fakes/sharefile-server.js';
import { NOW, request } from '../../support/gateway.js';
import { finishInBrowser, openConnectLink, type BrowserFlow } from '../../support/connect-flow.js';

// The OAuth connect flows of ShareFile and Podio against their local stand-ins: the authorize page, the
// callback with the code (ShareFile's names the account's hosts), the exchange, the tools working on the
// tenant's own account, a refresh when the token expires, and disconnecting.

const ADMIN = 'token-acme-admin-0123456789';
const CALLBACK = 'https://gateway.example/oauth/callback';
const clock = new FixedClock(NOW);
let sharefile: ShareFileStandIn;
let podio: PodioServer;
let dataDir: string;
const open: Gateway[] = [];

beforeAll(async () => {
  sharefile = await startShareFileServer({ clock });
  podio = await PodioServer.start({ clock, refreshTokens: [{ refreshToken: 'operator-refresh-token', userId: 5001 }] });
  servePodioWorkspaces(podio, clock);
  dataDir = mkdtempSync(join(tmpdir(), 'gateway-oauth-'));
});
afterAll(async () => {
  for (const g of open) await g.close();
  await sharefile.close();
  await podio.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** ShareFile with the gateway's app and an acme admin; `standIns` points ShareFile and Podio at the stand-ins. */
const gateway = (standIns = true): Gateway => {
  const g = createGateway({
    env: {
      FILES_BACKEND: 'sharefile',
      SHAREFILE_SUBDOMAIN: 'operator',
      SHAREFILE_CLIENT_ID: SHAREFILE_TEST_CLIENT.clientId,
      SHAREFILE_CLIENT_SECRET: SHAREFILE_TEST_CLIENT.clientSecret,
      SHAREFILE_REFRESH_TOKEN: SHAREFILE_TEST_CLIENT.refreshToken,
      ...(standIns
        ? {
            SHAREFILE_API_URL: sharefile.apiBaseUrl,
            SHAREFILE_OAUTH_URL: sharefile.url,
            WORKSPACES_BACKEND: 'podio',
            PODIO_BASE_URL: podio.baseUrl,
            PODIO_CLIENT_ID: podio.clientId,
            PODIO_CLIENT_SECRET: podio.clientSecret,
            PODIO_REFRESH_TOKEN: 'operator-refresh-token',
          }
        : {}),
      PUBLIC_BASE_URL: 'https://gateway.example',
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_API_KEYS: JSON.stringify([{ name: 'acme-admin', token: ADMIN, permissions: ['*'], tenant: 'acme' }]),
    },
    logger: pino({ level: 'silent' }),
    overrides: { clock },
  });
  open.push(g);
  return g;
};

const authorizeUrl = async (g: Gateway, vendor: string): Promise<BrowserFlow> => {
  const denied = await request(
    g,
    'POST',
    `/v1/tools/${vendor === 'sharefile' ? 'files/getTopLevelFolders' : 'workspaces/getOrganizations'}`,
    {
      body: {},
      token: ADMIN,
    },
  );
  expect(denied.status).toBe(409);
  expect(denied.body.error.details.vendor).toBe(vendor);
  return openConnectLink(g, String(denied.body.error.details.connect_url), ADMIN);
};

describe('ShareFile OAuth connect flow', () => {
  it("connects through secure.sharefile.com, keeps the account's hosts, refreshes, and disconnects", async () => {
    const g = gateway();
    const flow = await authorizeUrl(g, 'sharefile');
    const authorize = flow.authorize;
    expect(`${authorize.origin}${authorize.pathname}`).toBe('https://secure.sharefile.com/oauth/authorize');
    expect(authorize.searchParams.get('response_type')).toBe('code');
    expect(authorize.searchParams.get('client_id')).toBe(SHAREFILE_TEST_CLIENT.clientId);
    expect(authorize.searchParams.get('redirect_uri')).toBe(CALLBACK);
    const state = authorize.searchParams.get('state')!;

    const code = sharefile.grantCode();
    const callback = await finishInBrowser(
      g,
      flow,
      `code=${code}&state=${encodeURIComponent(state)}&subdomain=acme&apicp=sf-api.com&appcp=sharefile.com`,
    );
    expect(callback.status).toBe(200);
    expect(await callback.text()).toContain('ShareFile account acme is now connected');

    const folders = await request(g, 'POST', '/v1/tools/files/getTopLevelFolders', { body: {}, token: ADMIN });
    expect(folders.status).toBe(200);
    const listed = await request(g, 'GET', '/v1/connections', { token: ADMIN });
    expect(
      (listed.body.data.connections as { vendor: string; status: string; account: string }[]).find(
        (c) => c.vendor === 'sharefile',
      ),
    ).toMatchObject({ status: 'connected', account: 'ShareFile account acme' });

    const issued = sharefile.issuedTokens.length;
    clock.advance(9 * 3_600_000); // ShareFile tokens live 8 hours
    expect((await request(g, 'POST', '/v1/tools/files/getTopLevelFolders', { body: {}, token: ADMIN })).status).toBe(
      200,
    );
    expect(sharefile.issuedTokens.length).toBe(issued + 1);
    expect(sharefile.violations).toEqual([]);

    expect((await request(g, 'DELETE', '/v1/connections/sharefile', { token: ADMIN })).body.data).toEqual({
      removed: true,
      revoke: `The gateway's access at ShareFile (connected app ${SHAREFILE_TEST_CLIENT.clientId}) was revoked.`,
    });
    // the grant is revoked at ShareFile with the connection's own token: DELETE Apps(id) of the gateway's app
    // (ShareFile-NET AppsEntity.Delete), and no other app of the user
    expect(sharefile.revokedApps).toEqual([SHAREFILE_TEST_CLIENT.clientId]);
    expect(sharefile.connectedApps.map((a) => a['Name'])).toEqual(['ShareFile Sync']);
    const revoked = sharefile.requests.find((r) => r.method === 'DELETE' && r.path.startsWith('/sf/v3/Apps('))!;
    expect(revoked.headers.authorization).toBe(`Bearer ${sharefile.issuedTokens.at(-1)}`);
    const after = await request(g, 'POST', '/v1/tools/files/getTopLevelFolders', { body: {}, token: ADMIN });
    expect(after.body.error.code).toBe('NOT_CONNECTED');
  });

  it("refuses a callback that names a host that is not ShareFile's, sending nothing there", async () => {
    // No fixed hosts: the callback's own decide where the code would go.
    const g = gateway(false);
    const ask = await request(g, 'GET', '/v1/connections/sharefile/authorize', { token: ADMIN });
    const flow = await openConnectLink(g, ask.body.data.authorize_url, ADMIN);
    const forged = await finishInBrowser(
      g,
      flow,
      `code=x&state=${encodeURIComponent(flow.state)}&subdomain=acme&apicp=sf-api.com&appcp=attacker.example`,
    );
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('nothing was sent there');
  });
});

describe('Podio OAuth connect flow', () => {
  it('connects through podio.com, acts as the approving user, refreshes, and disconnects', async () => {
    const g = gateway();
    const flow = await authorizeUrl(g, 'podio');
    const authorize = flow.authorize;
    expect(`${authorize.origin}${authorize.pathname}`).toBe('https://podio.com/oauth/authorize');
    expect(authorize.searchParams.get('client_id')).toBe(podio.clientId);
    expect(authorize.searchParams.get('response_type')).toBe('code');
    const state = authorize.searchParams.get('state')!;
    const code = podio.grantCode(5002, authorize.searchParams.get('redirect_uri')!);
    const callback = await finishInBrowser(g, flow, `code=${code}&state=${encodeURIComponent(state)}`);
    expect(callback.status).toBe(200);
    expect(await callback.text()).toContain('Podio user 5002 is now connected');

    const orgs = await request(g, 'POST', '/v1/tools/workspaces/getOrganizations', { body: {}, token: ADMIN });
    expect(orgs.status).toBe(200);
    const tokenRequests = () => podio.tokenRequests().map((r) => (r.body as { grant_type: string }).grant_type);
    expect(tokenRequests()).toContain('authorization_code');

    const refreshesBefore = tokenRequests().filter((t) => t === 'refresh_token').length;
    clock.advance(9 * 3_600_000);
    expect((await request(g, 'POST', '/v1/tools/workspaces/getOrganizations', { body: {}, token: ADMIN })).status).toBe(
      200,
    );
    expect(tokenRequests().filter((t) => t === 'refresh_token').length).toBe(refreshesBefore + 1);
    expect(podio.violations).toEqual([]);

    await request(g, 'DELETE', '/v1/connections/podio', { token: ADMIN });
    const after = await request(g, 'POST', '/v1/tools/workspaces/getOrganizations', { body: {}, token: ADMIN });
    expect(after.body.error.code).toBe('NOT_CONNECTED');
  });
});
