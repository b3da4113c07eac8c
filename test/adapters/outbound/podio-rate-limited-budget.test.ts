import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from 'io-ts';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { PodioClient } from '../../../adapters/outbound/podio/podio-client.js';
import { StaticPodioToken } from '../../../adapters/outbound/podio/podio-tokens.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { PodioServer } from '../../fakes/podio-server.js';
import { left, right } from '../../support/run.js';

// Issue 42: Podio has two hourly budgets, 1,000 calls and 250 for the calls it marks "Rate limited"
// (PODIO-DOCS /index/limits); each answer's X-Rate-Limit-Limit says which one the call counted against and
// X-Rate-Limit-Remaining what is left of it. The gateway keeps them apart: the 250 budget down to its reserve
// holds back only the calls seen counting against it, and an answer from the 1,000 budget does not clear it.

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000, quotaReserve: 10 });

describe('Podio rate-limited budget (250 calls an hour) kept apart', () => {
  const clock = new FixedClock(new Date('2026-03-10T09:00:00.000Z'));
  let server: PodioServer;
  let client: PodioClient;
  const sent = { filter: 0, item: 0 };
  beforeAll(async () => {
    server = await PodioServer.start({ clock });
    server
      .route('POST', '/item/app/:app_id/filter/', () => {
        sent.filter++;
        return {
          status: 200,
          body: { total: 0, filtered: 0, items: [] },
          headers: { 'x-rate-limit-limit': '250', 'x-rate-limit-remaining': '5' },
        };
      })
      .route('GET', '/item/:item_id', ({ params }) => {
        sent.item++;
        return {
          status: 200,
          body: { item_id: Number(params['item_id']) },
          headers: { 'x-rate-limit-limit': '1000', 'x-rate-limit-remaining': '900' },
        };
      });
    client = new PodioClient({
      baseUrl: server.baseUrl,
      auth: new StaticPodioToken(server.issueToken(5001)),
      timeoutMs: 2_000,
      clock,
    });
  });
  afterAll(async () => {
    expect(server.violations).toEqual([]);
    await server.close();
  });

  it('a low 250-call budget holds back only the calls that count against it', async () => {
    const filter = (app: number) =>
      client.request('POST', `/item/app/${app}/filter/`, { body: { limit: 1 }, codec: t.unknown });
    const item = (id: number) => client.request('GET', `/item/${id}`, { codec: t.unknown });
    right(await filter(7001)); // answered with 5 left of 250: at the reserve from now on
    // a call of the 1,000 budget still goes (one Podio window would have refused it)
    expect(right(await item(1))).toEqual({ item_id: 1 });
    expect(right(await item(2))).toEqual({ item_id: 2 });
    // its 900 left do not clear the 250 window: the next filter of another app is held back, not sent
    const held = left(await filter(7002));
    expect(held._tag).toBe('RateLimited');
    expect(held.message).toContain('hourly (rate-limited calls) call quota');
    expect(sent).toEqual({ filter: 1, item: 2 });
  });
});
