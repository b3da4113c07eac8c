import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { DEMO_WEB_HOST, DemoWebSearch } from '../../adapters/outbound/web/demo-web.js';
import { BraveSearch, SearxngSearch } from '../../adapters/outbound/web/search-backends.js';
import { BRAVE_TEST_KEY, startBrave, startSearxng, type StandIn } from '../fakes/search-servers.js';
import { webSearchContract } from './web-search.contract.js';

let searx: StandIn;
let brave: StandIn;
beforeAll(async () => {
  [searx, brave] = await Promise.all([startSearxng(), startBrave()]);
});
afterAll(async () => {
  await Promise.all([searx.close(), brave.close()]);
});

const clock = new FixedClock(new Date('2026-11-21T10:00:00Z'));
webSearchContract(
  'memory (demo index)',
  async () => new DemoWebSearch(clock),
  () => DEMO_WEB_HOST,
);
webSearchContract(
  'SearXNG',
  async () => new SearxngSearch({ baseUrl: searx.baseUrl, timeoutMs: 5000 }),
  () => 'rosegoldrealty.example',
);
webSearchContract(
  'Brave Search',
  async () => new BraveSearch({ baseUrl: brave.baseUrl, apiKey: BRAVE_TEST_KEY, timeoutMs: 5000 }),
  () => 'rosegoldrealty.example',
);

describe('what the backends are sent', () => {
  it('SearXNG: q with site:, format=json and time_range', async () => {
    const s = new SearxngSearch({ baseUrl: searx.baseUrl, timeoutMs: 5000 });
    await s.search({ query: 'harbor', count: 3, site: 'news.example', recency: 'month' })();
    const sent = searx.requests.at(-1)!;
    expect(sent.searchParams.get('q')).toBe('harbor site:news.example');
    expect(sent.searchParams.get('format')).toBe('json');
    expect(sent.searchParams.get('time_range')).toBe('month');
  });

  it('Brave: the key header, count and freshness; a wrong key is a clear upstream error', async () => {
    const s = new BraveSearch({ baseUrl: brave.baseUrl, apiKey: BRAVE_TEST_KEY, timeoutMs: 5000 });
    const r = await s.search({ query: 'harbor', count: 2, recency: 'year' })();
    expect(r._tag).toBe('Right');
    const sent = brave.requests.at(-1)!;
    expect(sent.searchParams.get('count')).toBe('2');
    expect(sent.searchParams.get('freshness')).toBe('py');
    const bad = await new BraveSearch({ baseUrl: brave.baseUrl, apiKey: 'wrong', timeoutMs: 5000 }).search({
      query: 'x',
      count: 1,
    })();
    expect(bad._tag === 'Left' && bad.left.message).toContain('refused the gateway');
  });
});
