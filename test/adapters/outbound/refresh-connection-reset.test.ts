import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { StoredRefreshingToken, type Refresher } from '../../../adapters/outbound/http/stored-refreshing-token.js';
import { createVendorHttp, transportFailure } from '../../../adapters/outbound/http/vendor-http.js';
import { OAuthRefreshingAccessToken } from '../../../adapters/outbound/hubspot/hubspot-tokens.js';
import { InMemoryTokenStore } from '../../../adapters/outbound/memory/in-memory-token-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { upstreamFailure } from '../../../domain/shared/errors.js';
import { E } from '../../../domain/shared/fp.js';
import { HubSpotServer } from '../../fakes/hubspot-server.js';
import { listenOnLoopback, loopbackUrl } from '../../fakes/listen.js';

// Issue 31: a token refresh whose connection is reset before any answer is sent once more, in the same call.

configureResilience({ maxAttempts: 3, breakerFailures: 1_000_000 });
const clock = new FixedClock(new Date('2026-03-10T09:00:00.000Z'));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('HubSpot refresh against the HubSpot stand-in', () => {
  it('repeats a refresh whose connection was reset (HubSpot keeps the refresh token)', async () => {
    const server = await HubSpotServer.start({ clock });
    closers.push(() => server.close());
    const tokens = new OAuthRefreshingAccessToken({
      baseUrl: server.baseUrl,
      clientId: server.oauth.clientId,
      clientSecret: server.oauth.clientSecret,
      refreshToken: server.oauth.refreshTokens[0]!,
      clock,
      timeoutMs: 3_000,
    });
    server.resetNext();
    const got = await tokens.accessToken();
    expect(got).toEqual(E.right(server.issuedTokens[0]!.accessToken));
    expect(server.requests.map((r) => r.path)).toEqual(['/oauth/2026-03/token', '/oauth/2026-03/token']);
    expect(server.specViolations).toEqual([]);
  });
});

/**
 * A vendor token endpoint (form `refresh_token=...`) whose answers the test decides, and the refresher the
 * Podio and ShareFile connectors are built like: createVendorHttp, transportFailure for no answer.
 */
const tokenEndpoint = async (answer: (refreshToken: string, res: ServerResponse, req: IncomingMessage) => void) => {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const token = new URLSearchParams(body).get('refresh_token') ?? '';
      seen.push(token);
      answer(token, res, req);
    });
  });
  await listenOnLoopback(server);
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const http = createVendorHttp({ vendor: 'Vendor', baseURL: loopbackUrl(server), timeoutMs: 3_000 });
  const refresh: Refresher = async (refreshToken) => {
    let res;
    try {
      res = await http.post('/oauth/token', new URLSearchParams({ refresh_token: refreshToken }).toString());
    } catch (error) {
      return E.left(transportFailure('Vendor', error));
    }
    if (res.status === 400)
      return E.left(upstreamFailure('Vendor', 'Vendor refused the grant.', { retryable: false, reauthorize: true }));
    const body = res.data as { access_token: string; refresh_token?: string; expires_in: number };
    return E.right({
      accessToken: body.access_token,
      ...(body.refresh_token ? { refreshToken: body.refresh_token } : {}),
      expiresInSeconds: body.expires_in,
    });
  };
  return { seen, refresh };
};

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const sourceFor = (store: InMemoryTokenStore, refresh: Refresher) =>
  new StoredRefreshingToken({ vendor: 'Vendor', store, refresh, clock, lockWaitMs: 3_000 });

describe('StoredRefreshingToken (Podio, ShareFile) when a refresh meets a connection reset', () => {
  it('sends the refresh once more and saves what it answers', async () => {
    let calls = 0;
    const { seen, refresh } = await tokenEndpoint((_t, res, req) => {
      if (calls++ === 0) return req.socket.destroy();
      json(res, 200, { access_token: 'access-2', refresh_token: 'refresh-1', expires_in: 28_800 });
    });
    const store = new InMemoryTokenStore();
    await store.put('connection', { accessToken: '', expiresAt: 0, refreshToken: 'refresh-1' });
    expect(await sourceFor(store, refresh).accessToken()).toEqual(E.right('access-2'));
    expect(seen).toEqual(['refresh-1', 'refresh-1']);
    expect(await store.get('connection')).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-1' });
  });

  it('re-reads the store before retrying: a pair another instance saved meanwhile is used, not refreshed again', async () => {
    const store = new InMemoryTokenStore();
    const { seen, refresh } = await tokenEndpoint((_t, _res, req) => {
      void store
        .put('connection', { accessToken: 'theirs', expiresAt: clock.now().getTime() + 3_600_000, refreshToken: 'r-2' })
        .then(() => req.socket.destroy());
    });
    await store.put('connection', { accessToken: '', expiresAt: 0, refreshToken: 'refresh-1' });
    expect(await sourceFor(store, refresh).accessToken()).toEqual(E.right('theirs'));
    expect(seen).toEqual(['refresh-1']);
  });

  it('says that a rotated refresh token may have been lost when the retry is refused', async () => {
    // the vendor rotated on the first exchange, but the answer was lost with the connection
    const live = new Set(['refresh-1']);
    const { seen, refresh } = await tokenEndpoint((token, res, req) => {
      if (!live.delete(token)) return json(res, 400, { error: 'invalid_grant' });
      live.add('refresh-2');
      req.socket.destroy();
    });
    const store = new InMemoryTokenStore();
    await store.put('connection', { accessToken: '', expiresAt: 0, refreshToken: 'refresh-1' });
    const got = await sourceFor(store, refresh).accessToken();
    expect(seen).toEqual(['refresh-1', 'refresh-1']);
    expect(got).toMatchObject({ _tag: 'Left', left: { reauthorize: true } });
    if (E.isLeft(got)) expect(got.left.message).toContain('rotated');
  });
});
