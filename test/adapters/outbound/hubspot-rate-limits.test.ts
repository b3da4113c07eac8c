import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { HubSpotContactBook } from '../../../adapters/outbound/hubspot/hubspot-contact-book.js';
import { StaticAccessToken } from '../../../adapters/outbound/hubspot/hubspot-tokens.js';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { HUBSPOT_TEST_TOKEN, HubSpotServer, rateLimitBody } from '../../fakes/hubspot-server.js';
import { search } from '../../support/hubspot-contact-book.js';
import { err, ok } from '../../support/run.js';

// Issue 31, against the HubSpot stand-in: the daily quota reserve counts HubSpot's day in the account's time
// zone, and a 429 without Retry-After is retried after what HubSpot's rate-limit headers of the same answer
// say (the interval, or a second), or answered at once when that wait does not fit. Clocks are fake.

const T = Date.parse('2026-11-27T09:48:13Z'); // 51,107 s to midnight UTC; 69,107 s to midnight in New York

const bookFor = (server: HubSpotServer, warn?: (f: Record<string, unknown>, m: string) => void) =>
  new HubSpotContactBook({
    baseUrl: server.baseUrl,
    objectsPath: '/crm/v3/objects',
    tokens: new StaticAccessToken(HUBSPOT_TEST_TOKEN),
    timeoutMs: 3_000,
    portalId: '4242',
    ...(warn ? { warn } : {}),
  });

const seen = (server: HubSpotServer) => server.requests.map((r) => `${r.method} ${r.path}`);

/** Lets the stand-in's sockets and the client's promises run (they are not on the fake timers). */
const settle = async (rounds = 20) => {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
};

const until = async (done: () => boolean) => {
  for (let i = 0; i < 5_000 && !done(); i++) await new Promise((r) => setImmediate(r));
  expect(done()).toBe(true);
};

describe('HubSpot rate limits against the stand-in', () => {
  let server: HubSpotServer;
  beforeAll(async () => {
    server = await HubSpotServer.start();
  });
  beforeEach(() => {
    configureResilience({ maxAttempts: 3, breakerFailures: 1_000_000, budgetMs: 20_000, quotaReserve: 10 });
    server.requests.splice(0);
    server.rateLimitHeaders = {};
    server.clearFailures();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    expect(server.specViolations).toEqual([]);
    await server.close();
  });

  describe("the daily reserve, in the account's time zone", () => {
    it('refuses until midnight in the account zone (read from the account details when the day runs low)', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: T });
      server.account = { ...server.account, timeZone: 'America/New_York' };
      server.rateLimitHeaders = { 'X-HubSpot-RateLimit-Daily': '250000', 'X-HubSpot-RateLimit-Daily-Remaining': '5' };
      const book = bookFor(server);
      await ok(book.search(search));
      const refused = await err(book.search(search));
      expect(refused).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 69_107 });
      expect(seen(server)).toEqual(['POST /crm/v3/objects/contacts/search', 'GET /account-info/v3/details']);
    });

    it('counts the day in UTC when the account names no zone it knows, and says so in the log once', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: T });
      server.account = { ...server.account, timeZone: 'Nowhere/Atlantis' };
      server.rateLimitHeaders = { 'X-HubSpot-RateLimit-Daily': '250000', 'X-HubSpot-RateLimit-Daily-Remaining': '5' };
      const warnings: string[] = [];
      const book = bookFor(server, (_f, m) => warnings.push(m));
      await ok(book.search(search));
      expect(await err(book.search(search))).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 51_107 });
      expect(await err(book.search(search))).toMatchObject({ _tag: 'RateLimited' });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('UTC');
    });
  });

  describe('a 429 without Retry-After', () => {
    const tenSecondly = {
      'X-HubSpot-RateLimit-Max': '100',
      'X-HubSpot-RateLimit-Remaining': '0',
      'X-HubSpot-RateLimit-Interval-Milliseconds': '10000',
    };

    it('waits the whole rolling interval when Remaining is 0, then retries once', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T });
      server.failNext(429, rateLimitBody('TEN_SECONDLY_ROLLING'), tenSecondly);
      const pending = bookFor(server).search(search)();
      await until(() => server.requests.length === 1 && vi.getTimerCount() > 0);
      await vi.advanceTimersByTimeAsync(9_999);
      await settle();
      expect(server.requests).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      const r = await pending;
      expect(r._tag).toBe('Right');
      expect(server.requests.map((q) => q.status)).toEqual([429, 200]);
    });

    it('waits a second when Secondly-Remaining is 0', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T });
      server.failNext(429, rateLimitBody('SECONDLY'), { 'X-HubSpot-RateLimit-Secondly-Remaining': '0' });
      const pending = bookFor(server).search(search)();
      await until(() => server.requests.length === 1 && vi.getTimerCount() > 0);
      await vi.advanceTimersByTimeAsync(999);
      await settle();
      expect(server.requests).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending)._tag).toBe('Right');
      expect(server.requests).toHaveLength(2);
    });

    it("answers RATE_LIMITED with the interval at once when the wait would pass the call's deadline", async () => {
      configureResilience({ maxAttempts: 3, breakerFailures: 1_000_000, budgetMs: 5_000 });
      server.failNext(429, rateLimitBody('TEN_SECONDLY_ROLLING'), tenSecondly);
      const refused: GatewayError = await err(bookFor(server).search(search));
      expect(refused).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 10 });
      expect(server.requests).toHaveLength(1);
    });

    it('does not retry a daily 429', async () => {
      server.failNext(429, rateLimitBody('DAILY'), { 'X-HubSpot-RateLimit-Daily-Remaining': '0' });
      expect(await err(bookFor(server).search(search))).toMatchObject({ _tag: 'RateLimited' });
      // the search once; the account details are read to learn when the account's day ends
      expect(seen(server)).toEqual(['POST /crm/v3/objects/contacts/search', 'GET /account-info/v3/details']);
    });
  });
});
