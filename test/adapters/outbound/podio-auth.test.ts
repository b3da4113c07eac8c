import { afterEach, describe, expect, it, vi } from 'vitest';
import { left, right } from '../../support/run.js';
import * as t from 'io-ts';
import { PodioOAuth, type PodioGrant } from '../../../adapters/outbound/podio/podio-tokens.js';
import { PodioClient } from '../../../adapters/outbound/podio/podio-client.js';
import { podioRefresher } from '../../../adapters/outbound/podio/podio-connector.js';
import { StoredRefreshingToken } from '../../../adapters/outbound/http/stored-refreshing-token.js';
import { environmentConnectionStore } from '../../../adapters/outbound/http/scoped-token-store.js';
import { InMemoryTokenStore } from '../../../adapters/outbound/memory/in-memory-token-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { PodioServer, type PodioServerOptions } from '../../fakes/podio-server.js';

const T0 = new Date('2026-03-10T09:00:00.000Z');
const HOUR = 3_600_000;

let servers: PodioServer[] = [];
afterEach(async () => {
  for (const s of servers) {
    expect(s.violations).toEqual([]);
    await s.close();
  }
  servers = [];
});

const serverOptions: PodioServerOptions = {
  users: [{ username: 'dev@example.com', password: 'dev-password-1', userId: 5001 }],
  apps: [{ appId: 30001, appToken: 'app-token-abcdef' }],
  refreshTokens: [{ refreshToken: 'initial-refresh-token', userId: 5001 }],
};

const setUp = async (
  grant: PodioGrant,
  options: PodioServerOptions = {},
  onRefreshTokenRotated?: (t: string) => void,
) => {
  const clock = new FixedClock(T0);
  const server = await PodioServer.start({ clock, ...serverOptions, ...options });
  servers.push(server);
  server.route('GET', '/user/status', ({ as }) => ({ status: 200, body: { user: { user_id: as.id } } }));
  const auth = new PodioOAuth({
    baseUrl: server.baseUrl,
    clientId: server.clientId,
    clientSecret: server.clientSecret,
    grant,
    clock,
    timeoutMs: 3_000,
    onRefreshTokenRotated,
  });
  const client = new PodioClient({ baseUrl: server.baseUrl, auth, timeoutMs: 3_000, clock });
  const status = () =>
    client.request('GET', '/user/status', { codec: t.type({ user: t.type({ user_id: t.number }) }) });
  return { clock, server, auth, client, status };
};

describe('PodioOAuth against the local Podio stand-in', () => {
  it('app grant: posts JSON to /oauth/token/v2 with the app id and token, and caches the access token', async () => {
    const { server, auth, clock } = await setUp({ kind: 'app', appId: '30001', appToken: 'app-token-abcdef' });
    const first = right(await auth.accessToken());
    expect(first).toBe(server.issuedTokens[0]!.accessToken);
    const sent = server.tokenRequests()[0]!;
    expect(sent.headers['content-type']).toContain('application/json');
    expect(sent.body).toEqual({
      grant_type: 'app',
      app_id: '30001',
      app_token: 'app-token-abcdef',
      client_id: server.clientId,
      client_secret: server.clientSecret,
    });
    clock.advance(7 * HOUR);
    expect(right(await auth.accessToken())).toBe(first);
    expect(server.tokenRequests()).toHaveLength(1);
  });

  it('password grant signs in as the user', async () => {
    const { server, status } = await setUp({
      kind: 'password',
      username: 'dev@example.com',
      password: 'dev-password-1',
    });
    expect(right(await status()).user.user_id).toBe(5001);
    expect(server.tokenRequests()[0]!.body).toMatchObject({ grant_type: 'password', username: 'dev@example.com' });
  });

  it('renews before the 8-hour token runs out (10-minute margin), with the refresh token it was given', async () => {
    const { server, status, clock } = await setUp({ kind: 'app', appId: '30001', appToken: 'app-token-abcdef' });
    right(await status());
    clock.advance(7 * HOUR + 49 * 60_000);
    right(await status());
    expect(server.tokenRequests()).toHaveLength(1);
    clock.advance(2 * 60_000);
    right(await status());
    expect(server.tokenRequests().map((r) => (r.body as { grant_type: string }).grant_type)).toEqual([
      'app',
      'refresh_token',
    ]);
    expect((server.tokenRequests()[1]!.body as { refresh_token: string }).refresh_token).toBe(
      server.issuedTokens[0]!.refreshToken,
    );
    expect(server.apiRequests().filter((r) => r.status === 401)).toEqual([]);
    expect(server.apiRequests().map((r) => r.headers['authorization'])).toEqual([
      `OAuth2 ${server.issuedTokens[0]!.accessToken}`,
      `OAuth2 ${server.issuedTokens[0]!.accessToken}`,
      `OAuth2 ${server.issuedTokens[1]!.accessToken}`,
    ]);
  });

  it('falls back to the app credentials when the kept refresh token is refused', async () => {
    const { server, status, clock } = await setUp({ kind: 'app', appId: '30001', appToken: 'app-token-abcdef' });
    right(await status());
    server.revokeRefreshToken(server.issuedTokens[0]!.refreshToken);
    clock.advance(8 * HOUR);
    right(await status());
    expect(server.tokenRequests().map((r) => [(r.body as { grant_type: string }).grant_type, r.status])).toEqual([
      ['app', 200],
      ['refresh_token', 400],
      ['app', 200],
    ]);
  });

  it('refresh-token grant keeps a rotated refresh token and reports it', async () => {
    const rotated = vi.fn();
    const { server, auth, clock } = await setUp(
      { kind: 'refresh_token', refreshToken: 'initial-refresh-token' },
      { rotateRefreshToken: true },
      rotated,
    );
    right(await auth.accessToken());
    const second = server.issuedTokens[0]!.refreshToken;
    expect(rotated).toHaveBeenCalledWith(second);
    clock.advance(8 * HOUR);
    right(await auth.accessToken());
    expect((server.tokenRequests()[1]!.body as { refresh_token: string }).refresh_token).toBe(second);
    expect(server.tokenRequests().every((r) => r.status === 200)).toBe(true);
    expect(rotated).toHaveBeenCalledTimes(2);
  });

  it('shares one token request among concurrent callers', async () => {
    const { server, status } = await setUp({ kind: 'refresh_token', refreshToken: 'initial-refresh-token' });
    const users = await Promise.all(Array.from({ length: 6 }, () => status()));
    expect(users.map((u) => right(u).user.user_id)).toEqual(Array(6).fill(5001));
    expect(server.tokenRequests()).toHaveLength(1);
  });

  it('an expired token (401 invalid_token / expired_token) is renewed once and the call repeated', async () => {
    const { server, status } = await setUp({ kind: 'refresh_token', refreshToken: 'initial-refresh-token' });
    right(await status());
    server.expireAccessTokens();
    expect(right(await status()).user.user_id).toBe(5001);
    expect(server.apiRequests().map((r) => r.status)).toEqual([200, 401, 200]);
    expect(server.tokenRequests()).toHaveLength(2);
  });

  it('as production holds a refresh token (the token store): an expired token is refreshed, not reused', async () => {
    // Regression: the client dropped only its in-process copy on a 401, so the stored token came back and
    // the retry failed with it; it now names the rejected token, which is never handed out again.
    const clock = new FixedClock(T0);
    const server = await PodioServer.start({ clock, ...serverOptions });
    servers.push(server);
    server.route('GET', '/user/status', ({ as }) => ({ status: 200, body: { user: { user_id: as.id } } }));
    const auth = new StoredRefreshingToken({
      vendor: 'Podio',
      store: environmentConnectionStore(new InMemoryTokenStore(), 'podio', server.clientId, 'initial-refresh-token'),
      refresh: podioRefresher({
        apiBaseUrl: server.baseUrl,
        authorizeBaseUrl: server.baseUrl,
        clientId: server.clientId,
        clientSecret: server.clientSecret,
        timeoutMs: 3_000,
        clock,
      }),
      clock,
      lockWaitMs: 3_000,
    });
    const client = new PodioClient({ baseUrl: server.baseUrl, auth, timeoutMs: 3_000, clock });
    const status = () =>
      client.request('GET', '/user/status', { codec: t.type({ user: t.type({ user_id: t.number }) }) });
    right(await status());
    server.expireAccessTokens();
    expect(right(await status()).user.user_id).toBe(5001);
    expect(server.apiRequests().map((r) => r.status)).toEqual([200, 401, 200]);
    expect(server.tokenRequests()).toHaveLength(2);
  });

  it('a refused refresh token asks for re-authorisation and never echoes secrets', async () => {
    const { server, auth } = await setUp({ kind: 'refresh_token', refreshToken: 'revoked-refresh-token' });
    const e = left(await auth.accessToken());
    expect(e).toMatchObject({ _tag: 'UpstreamFailure', reauthorize: true, retryable: false, status: 400 });
    expect(e.message).toContain('PODIO_REFRESH_TOKEN');
    expect(e.message).not.toContain('revoked-refresh-token');
    expect(e.message).not.toContain(server.clientSecret);
  });

  it('wrong client credentials, wrong password, rate limit and outage at the token endpoint', async () => {
    const { server, auth } = await setUp({ kind: 'password', username: 'dev@example.com', password: 'wrong-password' });
    expect(left(await auth.accessToken())).toMatchObject({ _tag: 'UpstreamFailure', reauthorize: true });
    server.failNextToken(420, { error: 'rate_limit', error_description: 'You have hit the rate limit' });
    expect(left(await auth.accessToken())).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 300 });
    server.failNextToken(503, '<html>unavailable</html>');
    expect(left(await auth.accessToken())).toMatchObject({ _tag: 'UpstreamFailure', retryable: true, status: 503 });
    server.failNextToken(200, { token_type: 'bearer' });
    expect(left(await auth.accessToken())).toMatchObject({ _tag: 'UpstreamFailure', retryable: false });
  });
});
