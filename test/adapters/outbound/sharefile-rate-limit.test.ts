import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { ShareFileItemStore } from '../../../adapters/outbound/sharefile/sharefile-item-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { shareFileTestClient, startShareFileServer, type ShareFileStandIn } from '../../fakes/sharefile-server.js';
import { err as failure } from '../../support/run.js';

// Issue 42: ShareFile's 429 reads Retry-After with the one shared reader (seconds or an HTTP date) and says
// the real wait, as the HubSpot and Podio answers do; without the header it says the wait is the gateway's guess.

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

describe('ShareFile 429', () => {
  const clock = new FixedClock(new Date('2026-11-28T10:00:00.000Z'));
  let fake: ShareFileStandIn;
  let items: ShareFileItemStore;
  const throttled = { code: 'Throttled', message: { lang: 'en-US', value: 'Too many requests' } };
  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
    items = new ShareFileItemStore({ client: shareFileTestClient(fake, clock), maxUploadBytes: 1024 });
  });
  afterAll(() => fake.close());

  it('Retry-After: 1 is a wait of 1 second, said in the answer', async () => {
    fake.failNext(429, throttled, { 'retry-after': '1' });
    const e = await failure(items.topLevel());
    expect(e).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 1 });
    expect(e.message).toContain('Wait 1 second before calling ShareFile again.');
    expect(e.message).toContain('Too many requests');
  });

  it('a longer wait is said in minutes', async () => {
    fake.failNext(429, throttled, { 'retry-after': '600' });
    const e = await failure(items.topLevel());
    expect(e).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 600 });
    expect(e.message).toContain('Wait about 10 minutes before calling ShareFile again.');
  });

  it('a Retry-After date is read as the time until then', async () => {
    const at = new Date(Date.now() + 90_000).toUTCString();
    fake.failNext(429, throttled, { 'retry-after': at });
    const e = await failure(items.topLevel());
    expect(e._tag).toBe('RateLimited');
    const seconds = (e as { retryAfterSeconds: number }).retryAfterSeconds;
    expect(seconds).toBeGreaterThan(60);
    expect(seconds).toBeLessThanOrEqual(90);
    expect(e.message).toContain(`Wait ${seconds} seconds`);
  });

  it('without Retry-After the wait is the gateway estimate, and says so', async () => {
    fake.failNext(429, throttled);
    const e = await failure(items.topLevel());
    expect(e).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 30 });
    expect(e.message).toContain('Wait 30 seconds before calling ShareFile again (ShareFile did not say how long');
  });
});
