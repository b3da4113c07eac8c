import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { shareFileConnector } from '../../../adapters/outbound/sharefile/sharefile-connector.js';
import { shareFileRevoker, type RevokeLog } from '../../../adapters/outbound/sharefile/sharefile-revoke.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { SHAREFILE_TEST_CLIENT, startShareFileServer, type ShareFileStandIn } from '../../fakes/sharefile-server.js';

// Issue 31, doubtful points: deleting a ShareFile connection revokes the gateway's app for the connected user,
// best effort (ShareFile-NET AppsEntity: `GET Apps` "Get Apps for Current User", `DELETE Apps(id)` "Revoke
// App access for Current User"). Only the one ConnectedApp that is the gateway is revoked; the revoke never
// throws. (The end-to-end disconnect is in connections-oauth.test.ts.)

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

describe('ShareFile grant revoked when a connection is deleted', () => {
  const clock = new FixedClock(new Date('2026-11-27T10:00:00.000Z'));
  let fake: ShareFileStandIn;
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const log: RevokeLog = {
    info: (fields, message) => lines.push({ level: 'info', message, fields }),
    warn: (fields, message) => lines.push({ level: 'warn', message, fields }),
  };
  const revoke = (appName?: string) =>
    shareFileRevoker({
      ...(appName ? { appName } : {}),
      ...SHAREFILE_TEST_CLIENT,
      authorizeBaseUrl: fake.url,
      oauthBaseUrl: fake.url,
      apiBaseUrl: fake.apiBaseUrl,
      timeoutMs: 5000,
      clock,
      log,
    });
  const fresh = { accessToken: 'sf-static-token', expiresAt: Date.parse('2026-11-27T18:00:00.000Z') };
  const deletes = () => fake.requests.filter((q) => q.method === 'DELETE' && q.path.startsWith('/sf/v3/Apps('));

  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
  });
  afterAll(() => fake.close());

  it('refreshes an expired token first, then revokes the gateway app only', async () => {
    const issued = fake.issuedTokens.length;
    await revoke()(
      { accessToken: 'old', expiresAt: clock.now().getTime() - 1, refreshToken: SHAREFILE_TEST_CLIENT.refreshToken },
      {},
    );
    expect(fake.issuedTokens.length).toBe(issued + 1);
    expect(deletes().map((q) => q.path)).toEqual([`/sf/v3/Apps(${SHAREFILE_TEST_CLIENT.clientId})`]);
    expect(deletes()[0]!.headers.authorization).toBe(`Bearer ${fake.issuedTokens.at(-1)}`);
    expect(fake.revokedApps).toEqual([SHAREFILE_TEST_CLIENT.clientId]);
    expect(fake.connectedApps.map((a) => a['Name'])).toEqual(['ShareFile Sync']);
    expect(lines.at(-1)).toMatchObject({ level: 'info', message: 'ShareFile grant revoked' });
    expect(fake.violations).toEqual([]);
  });

  it('revokes nothing when no single connected app is the gateway', async () => {
    // the gateway's app is gone now: only the user's sync app is left, and it is never revoked
    const before = deletes().length;
    await revoke()(fresh, {});
    expect(deletes().length).toBe(before);
    expect(fake.connectedApps.map((a) => a['Name'])).toEqual(['ShareFile Sync']);
    expect(lines.at(-1)).toMatchObject({
      level: 'warn',
      message: 'ShareFile grant not revoked: no single connected app is the gateway',
      fields: { connected_apps: 1, matched: 0 },
    });
  });

  it('with SHAREFILE_APP_NAME, revokes the connected app of that name when none has the client id as its id', async () => {
    fake.connectedApps.push({ Id: 'a0b1c2d3-connected-app', Name: 'Tool Gateway (acme)', Active: true });
    const before = deletes().length;
    await revoke('Tool Gateway (acme)')(fresh, {});
    expect(
      deletes()
        .slice(before)
        .map((q) => q.path),
    ).toEqual(['/sf/v3/Apps(a0b1c2d3-connected-app)']);
    expect(fake.connectedApps.map((a) => a['Name'])).toEqual(['ShareFile Sync']);
  });

  it('never throws: a failing GET Apps or DELETE is logged', async () => {
    fake.connectedApps.push({ Id: SHAREFILE_TEST_CLIENT.clientId, Name: 'Tool Gateway', Active: true });
    fake.failNext(500);
    await expect(revoke()(fresh, {})).resolves.toContain('was not revoked: GET Apps failed');
    expect(lines.at(-1)).toMatchObject({ level: 'warn', message: 'ShareFile grant not revoked: GET Apps failed' });
    await expect(revoke()({}, {})).resolves.toContain('no usable access or refresh token');
    expect(lines.at(-1)).toMatchObject({ message: 'ShareFile grant not revoked: no usable access or refresh token' });
    const unreachable = shareFileRevoker({
      ...SHAREFILE_TEST_CLIENT,
      authorizeBaseUrl: fake.url,
      oauthBaseUrl: fake.url,
      apiBaseUrl: 'http://127.0.0.1:1/sf/v3',
      timeoutMs: 2000,
      clock,
      log,
    });
    await expect(unreachable(fresh, {})).resolves.toContain('was not revoked');
    expect(lines.at(-1)?.level).toBe('warn');
  });
});

// Issue 42: the revoke prefers an exact Id, uses Name only when no app has the client id, revokes the app
// recorded at connect, and is skipped while another connection of the gateway belongs to the same ShareFile user.
describe('ShareFile revoke: which app, and whose', () => {
  const clock = new FixedClock(new Date('2026-11-28T10:00:00.000Z'));
  let fake: ShareFileStandIn;
  const options = () => ({
    ...SHAREFILE_TEST_CLIENT,
    authorizeBaseUrl: fake.url,
    oauthBaseUrl: fake.url,
    apiBaseUrl: fake.apiBaseUrl,
    timeoutMs: 5000,
    clock,
  });
  const fresh = { accessToken: 'sf-static-token', expiresAt: Date.parse('2026-11-28T18:00:00.000Z') };
  const gateway = () => ({ Id: SHAREFILE_TEST_CLIENT.clientId, Name: 'Tool Gateway', Active: true, UserId: 'u-1' });
  const other = { Id: 'other-vendor-app', Name: 'Tool Gateway', Active: true, UserId: 'u-1' };
  const reset = (...apps: Record<string, unknown>[]) => {
    fake.connectedApps.splice(0, fake.connectedApps.length, ...apps);
    fake.revokedApps.splice(0);
  };
  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
  });
  afterAll(() => fake.close());

  it('with an exact Id match and a Name match, revokes the exact Id only', async () => {
    reset(gateway(), other);
    const said = await shareFileRevoker({ ...options(), appName: 'Tool Gateway' })(fresh, {});
    expect(fake.revokedApps).toEqual([SHAREFILE_TEST_CLIENT.clientId]);
    expect(said).toContain('was revoked');
  });

  it('records the ConnectedApp and its user at connect, and revokes by that id', async () => {
    reset(gateway(), other);
    const connected = await shareFileConnector({ ...options(), appName: 'Tool Gateway' }).oauth!.exchange({
      code: fake.grantCode(),
      redirectUri: 'https://gateway.example.com/callback',
      codeVerifier: '',
      query: {},
    });
    if (connected._tag === 'Left') throw new Error(connected.left.message);
    expect(connected.right.details).toMatchObject({ app_id: SHAREFILE_TEST_CLIENT.clientId, user_id: 'u-1' });
    expect(fake.violations).toEqual([]);
    // the gateway's app is gone (revoked at ShareFile's site); another app of the same name must not be revoked
    reset(other);
    const said = await shareFileRevoker({ ...options(), appName: 'Tool Gateway' })(
      connected.right.secret,
      connected.right.details,
    );
    expect(fake.revokedApps).toEqual([]);
    expect(said).toContain('no longer connected');
  });

  it('skips the revoke, and says so, while another connection belongs to the same ShareFile user', async () => {
    reset(gateway());
    const details = { app_id: SHAREFILE_TEST_CLIENT.clientId, user_id: 'u-1' };
    const said = await shareFileRevoker(options())(fresh, details, [{ user_id: 'u-2' }, { user_id: 'u-1' }]);
    expect(fake.revokedApps).toEqual([]);
    expect(said).toContain('1 other connection of the gateway uses the same ShareFile user');
    // a connection of another user does not stop it
    expect(await shareFileRevoker(options())(fresh, details, [{ user_id: 'u-2' }])).toContain('was revoked');
    expect(fake.revokedApps).toEqual([SHAREFILE_TEST_CLIENT.clientId]);
  });
});
