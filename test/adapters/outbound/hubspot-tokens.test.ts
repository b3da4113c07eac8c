import { afterEach, describe, expect, it, vi } from 'vitest';
import { HubSpotContactBook } from '../../../adapters/outbound/hubspot/hubspot-contact-book.js';
import { OAuthRefreshingAccessToken } from '../../../adapters/outbound/hubspot/hubspot-tokens.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { InMemoryTokenStore } from '../../../adapters/outbound/memory/in-memory-token-store.js';
import { HubSpotServer } from '../../fakes/hubspot-server.js';
import { err, ok } from '../../support/run.js';

const T0 = new Date('2026-03-10T09:00:00.000Z');
const MINUTE = 60_000;

let servers: HubSpotServer[] = [];
afterEach(async () => {
  for (const s of servers) {
    expect(s.specViolations).toEqual([]);
    await s.close();
  }
  servers = [];
});

const setUp = async (
  oauth: { expiresIn?: number; rotateRefreshToken?: boolean } = {},
  onRefreshTokenRotated?: (t: string) => void,
) => {
  const clock = new FixedClock(T0);
  const server = await HubSpotServer.start({ clock, oauth });
  servers.push(server);
  const tokens = new OAuthRefreshingAccessToken({
    baseUrl: server.baseUrl,
    clientId: server.oauth.clientId,
    clientSecret: server.oauth.clientSecret,
    refreshToken: server.oauth.refreshTokens[0]!,
    clock,
    timeoutMs: 3_000,
    onRefreshTokenRotated,
  });
  const book = new HubSpotContactBook({
    baseUrl: server.baseUrl,
    objectsPath: '/crm/v3/objects',
    tokens,
    timeoutMs: 3_000,
  });
  const tokenRequests = () => server.requests.filter((r) => r.path === '/oauth/2026-03/token');
  return { clock, server, tokens, book, tokenRequests };
};

const search = { filterGroups: [], sorts: [], properties: ['email'], limit: 1 };

describe('OAuthRefreshingAccessToken against the local HubSpot stand-in', () => {
  it('posts the documented form fields and caches the access token', async () => {
    const { server, tokens, clock, tokenRequests } = await setUp();
    const first = await ok(() => tokens.accessToken());
    expect(first).toBe(server.issuedTokens[0]!.accessToken);
    expect(tokenRequests()[0]!.body).toEqual({
      grant_type: 'refresh_token',
      client_id: server.oauth.clientId,
      client_secret: server.oauth.clientSecret,
      refresh_token: server.oauth.refreshTokens[0],
    });
    expect(tokenRequests()[0]!.headers['content-type']).toContain('application/x-www-form-urlencoded');
    clock.advance(20 * MINUTE);
    expect(await ok(() => tokens.accessToken())).toBe(first);
    expect(tokenRequests()).toHaveLength(1);
  });

  it('refreshes before expiry (30-minute tokens, 5-minute margin), so HubSpot never sees an expired token', async () => {
    const { server, book, clock, tokenRequests } = await setUp({ expiresIn: 1800 });
    await ok(book.search(search));
    clock.advance(25 * MINUTE + 1_000);
    await ok(book.search(search));
    expect(tokenRequests()).toHaveLength(2);
    clock.advance(26 * MINUTE);
    await ok(book.search(search));
    expect(tokenRequests()).toHaveLength(3);
    expect(server.requests.filter((r) => r.status === 401)).toEqual([]);
    const used = server.requests.filter((r) => r.path.startsWith('/crm/')).map((r) => r.headers['authorization']);
    expect(used).toEqual(server.issuedTokens.map((t) => `Bearer ${t.accessToken}`));
  });

  it('shares one refresh among concurrent callers', async () => {
    const { tokens, tokenRequests } = await setUp();
    const results = await Promise.all(Array.from({ length: 5 }, () => ok(() => tokens.accessToken())));
    expect(new Set(results).size).toBe(1);
    expect(tokenRequests()).toHaveLength(1);
  });

  it('shares one refresh among concurrent contact book calls', async () => {
    const { book, tokenRequests } = await setUp();
    await Promise.all(Array.from({ length: 5 }, () => ok(book.search(search))));
    expect(tokenRequests()).toHaveLength(1);
  });

  it('keeps and reports a rotated refresh token', async () => {
    const rotated = vi.fn();
    const { server, tokens, clock, tokenRequests } = await setUp({ rotateRefreshToken: true }, rotated);
    await ok(() => tokens.accessToken());
    const next = server.issuedTokens[0]!.refreshToken;
    expect(next).not.toBe(server.oauth.refreshTokens[0]);
    expect(rotated).toHaveBeenCalledExactlyOnceWith(next);
    clock.advance(30 * MINUTE);
    await ok(() => tokens.accessToken());
    expect((tokenRequests()[1]!.body as Record<string, string>)['refresh_token']).toBe(next);
    expect(rotated).toHaveBeenCalledTimes(2);
  });

  it('a rejected refresh token → UpstreamFailure asking for re-authorisation', async () => {
    const { server, tokens, book } = await setUp();
    server.revokeRefreshToken(server.oauth.refreshTokens[0]!);
    const e = await err(() => tokens.accessToken());
    expect(e).toMatchObject({
      _tag: 'UpstreamFailure',
      vendor: 'HubSpot',
      reauthorize: true,
      retryable: false,
      status: 400,
    });
    expect(e.message).toContain('The HubSpot connection must be re-authorised: the refresh token was rejected.');
    expect(e.message).not.toContain(server.oauth.clientSecret);
    expect((await err(book.search(search)))._tag).toBe('UpstreamFailure');
  });

  it('a failing token endpoint is retryable, and the next call tries again', async () => {
    const { server, tokens, tokenRequests } = await setUp();
    server.failNext(503, '<html>unavailable</html>');
    expect(await err(() => tokens.accessToken())).toMatchObject({
      _tag: 'UpstreamFailure',
      retryable: true,
      status: 503,
    });
    await ok(() => tokens.accessToken());
    expect(tokenRequests()).toHaveLength(2);
  });

  it('an unreachable token endpoint is retryable', async () => {
    const { server, tokens } = await setUp();
    await server.close();
    servers = [];
    expect(await err(() => tokens.accessToken())).toMatchObject({ _tag: 'UpstreamFailure', retryable: true });
  });

  it('a token answer of an unexpected shape → UpstreamFailure', async () => {
    const { server, tokens } = await setUp();
    server.failNext(200, { accessToken: 'camelCase', expiresIn: 1800 });
    const e = await err(() => tokens.accessToken());
    expect(e).toMatchObject({ _tag: 'UpstreamFailure', retryable: false });
    expect(e.message).toMatch(/^HubSpot answered with an unexpected shape/);
  });

  it('a 401 drops the token, refreshes once and repeats the call: the same call succeeds', async () => {
    const { server, book, tokenRequests } = await setUp();
    await ok(book.search(search));
    server.failNext(401, {
      status: 'error',
      message: 'The OAuth token used to make this call expired 1 second(s) ago.',
      correlationId: 'c0ffee00-0000-4000-8000-000000000002',
      category: 'EXPIRED_AUTHENTICATION',
    });
    const searches = () => server.requests.filter((r) => r.path.includes('/search')).length;
    const before = searches();
    await ok(book.search(search));
    expect(searches()).toBe(before + 2);
    expect(tokenRequests()).toHaveLength(2);
  });

  it('a 401 to an expired-but-stored token recovers in the same call, and the store gets the new token', async () => {
    const clock = new FixedClock(T0);
    const server = await HubSpotServer.start({ clock });
    servers.push(server);
    const store = new InMemoryTokenStore();
    // Another instance stored a token that HubSpot no longer accepts, with an expiry still ahead of it.
    await store.put('hubspot:shared', {
      accessToken: 'stale-access-token',
      refreshToken: server.oauth.refreshTokens[0]!,
      expiresAt: T0.getTime() + 20 * MINUTE,
    });
    const tokens = new OAuthRefreshingAccessToken({
      baseUrl: server.baseUrl,
      clientId: server.oauth.clientId,
      clientSecret: server.oauth.clientSecret,
      refreshToken: 'unused-initial-refresh-token',
      clock,
      timeoutMs: 3_000,
      store,
      connection: 'hubspot:shared',
    });
    const book = new HubSpotContactBook({
      baseUrl: server.baseUrl,
      objectsPath: '/crm/v3/objects',
      tokens,
      timeoutMs: 3_000,
    });
    await ok(book.search(search));
    const stored = await store.get('hubspot:shared');
    expect(stored?.accessToken).not.toBe('stale-access-token');
    expect(server.issuedTokens.map((t) => t.accessToken)).toContain(stored?.accessToken);
    // The stale token was tried once, never again.
    const withStale = server.requests.filter((r) => r.headers['authorization'] === 'Bearer stale-access-token');
    expect(withStale).toHaveLength(1);
  });

  it('a 401 whose refresh HubSpot refuses asks for re-authorisation (only a refused refresh does)', async () => {
    const { server, book } = await setUp();
    await ok(book.search(search));
    const body = {
      status: 'error',
      message: 'Authentication credentials not found.',
      correlationId: 'c0ffee00-0000-4000-8000-000000000003',
      category: 'INVALID_AUTHENTICATION',
    };
    server.failNext(401, body); // the search
    server.failNext(401, body); // the refresh it triggers
    expect(await err(book.search(search))).toMatchObject({ _tag: 'UpstreamFailure', reauthorize: true });
  });
});
