import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BraveSearch, SearxngSearch } from '../../adapters/outbound/web/search-backends.js';
import { judgeResults, queryTerms } from '../../application/web/relevance.js';
import { WebSearch, type WebSearchHit } from '../../ports/web.js';
import { BRAVE_TEST_KEY, startBrave, startSearxng, type StandIn } from '../fakes/search-servers.js';
import { post, testGateway } from '../support/gateway.js';

// Issue 30: web_search says when nothing relevant matched. A result is relevant when a word of the query
// (common words aside) appears in its title, address or snippet; when none is, the answer says so plainly,
// says what to try, and lists the few weak results under their own label.

const hit = (title: string, snippet = '', url = 'https://site.example/page'): WebSearchHit => ({ title, url, snippet });

describe('the relevance rule', () => {
  it('drops common words and lone letters from the query, keeps numbers', () => {
    expect(queryTerms('How to find the owner of 10 Harbor Way in a hurry')).toEqual([
      'find',
      'owner',
      '10',
      'harbor',
      'way',
      'hurry',
    ]);
  });

  it('finds words in other forms (plural, stem, a compound they begin) and in the address, not in the middle of others', () => {
    const r = judgeResults('harbor renovation', [
      hit('Row houses on Harbors Way', 'to be renovated next year'),
      hit('Something else', '', 'https://news.example/harbor-way'),
      hit('Harborview Pizza', 'open late'),
      hit('Unrelated', 'the of and in'),
      hit('Shipharbor notes', 'a neighborhood guide'),
    ]);
    expect(r.hits.map((h) => [h.title, h.relevance, h.matched])).toEqual([
      ['Row houses on Harbors Way', 'strong', ['harbor', 'renovation']],
      ['Something else', 'partial', ['harbor']],
      ['Harborview Pizza', 'partial', ['harbor']],
      ['Unrelated', 'weak', []],
      ['Shipharbor notes', 'weak', []],
    ]);
    expect(r.relevantCount).toBe(3);
  });

  it('judges a result that matches only generic words ("find", "street") as weak, in JSON as in the text (issue 41)', async () => {
    const r = judgeResults('find the owner of 10 zorgle street', [
      hit('Find a street near you', 'Street maps and owner lookup'),
      hit('Zorgle Street history', 'who lived at number 10'),
    ]);
    expect(r.hits.map((h) => [h.title, h.relevance])).toEqual([
      ['Zorgle Street history', 'partial'],
      ['Find a street near you', 'weak'],
    ]);
    expect(r.relevantCount).toBe(1);
    expect(r.keyTerms).toEqual(['10', 'zorgle']);
    // a query of generic words only is judged by them
    expect(judgeResults('find owner', [hit('Owner search')]).hits[0]!.relevance).toBe('partial');
  });

  it('judges a nonsense query that shares only common words with the pages as matching nothing', () => {
    const r = judgeResults('the flurbish of zorgle', [
      hit('The Boston housing market', 'Prices rose in the third quarter of 2026'),
    ]);
    expect(r.relevantCount).toBe(0);
    expect(r.hits[0]!.relevance).toBe('weak');
  });

  it('moves weak results after the relevant ones, keeping the backend order within each', () => {
    const r = judgeResults('rosegold', [hit('a'), hit('Rosegold one'), hit('b'), hit('Rosegold two')]);
    expect(r.hits.map((h) => h.title)).toEqual(['Rosegold one', 'Rosegold two', 'a', 'b']);
  });

  it('finds words of scripts without spaces by substring, and judges nothing when the query has only common words', () => {
    expect(judgeResults('東京 不動産', [hit('東京の不動産市場')]).hits[0]!.relevance).toBe('strong');
    const r = judgeResults('how to', [hit('Anything')]);
    expect(r.terms).toEqual([]);
    expect(r.relevantCount).toBe(1);
  });
});

describe('web_search in memory mode (the demo index)', () => {
  it('a nonsense query: "Nothing relevant found", what to try, and the weak results labelled', async () => {
    const g = testGateway();
    const q = { query: 'the flurbish of zorgle' };
    const json = (await post(g, '/v1/tools/web/search?format=json', q)).body.data;
    // the demo index does answer it (its pages contain "the" and "of") ...
    expect(json.count).toBeGreaterThan(0);
    // ... but nothing it returned contains a word of the query
    expect(json.relevant_count).toBe(0);
    expect(json.nothing_relevant).toBe(true);
    expect(json.results.every((h: { relevance: string }) => h.relevance === 'weak')).toBe(true);
    expect(json.advice).toContain('fewer words');

    const text = (await post(g, '/v1/tools/web/search', q)).body.data as string;
    expect(text).toMatch(/^## Nothing relevant found for "the flurbish of zorgle"/);
    expect(text).toContain('none contains any of your words (flurbish, zorgle)');
    expect(text).toContain('Try other words for the same thing, fewer words');
    expect(text).toContain('### Weak results (none of your words appear in them)');
    expect(text).not.toContain('Read one:');
    expect(text.match(/^\d+\. \*\*/gm)!.length).toBeLessThanOrEqual(3);
  });

  it('a real query: its results, no "nothing relevant", and the web_fetch call for the best one', async () => {
    const g = testGateway();
    const json = (await post(g, '/v1/tools/web/search?format=json', { query: 'Rosegold Realty broker' })).body.data;
    expect(json.nothing_relevant).toBe(false);
    expect(json.relevant_count).toBeGreaterThan(0);
    expect(json.results[0]).toMatchObject({ relevance: 'strong', title: 'Rosegold Realty: about the brokerage' });
    expect(json.advice).toBeUndefined();
    const text = (await post(g, '/v1/tools/web/search', { query: 'Rosegold Realty broker' })).body.data as string;
    expect(text).toMatch(/^## \d+ results? for "Rosegold Realty broker"/);
    expect(text).not.toContain('Nothing relevant');
    expect(text).toContain(
      'Read one: web_fetch {"url":"https://demo-web.tool-gateway.example/companies/rosegold-realty"}',
    );
  });
});

describe('web_search against the hosted backends (SearXNG and Brave stand-ins)', () => {
  let searx: StandIn;
  let brave: StandIn;
  beforeAll(async () => {
    [searx, brave] = await Promise.all([startSearxng(), startBrave()]);
  });
  afterAll(async () => {
    await Promise.all([searx.close(), brave.close()]);
  });

  const backends = (): [string, WebSearch][] => [
    ['SearXNG', new SearxngSearch({ baseUrl: searx.baseUrl, timeoutMs: 5000 })],
    ['Brave Search', new BraveSearch({ baseUrl: brave.baseUrl, apiKey: BRAVE_TEST_KEY, timeoutMs: 5000 })],
  ];

  it('a nonsense query the engine still answers is "nothing relevant"; a real one is not', async () => {
    for (const [name, backend] of backends()) {
      const g = testGateway({ ports: [[WebSearch, backend]] });
      // the stand-ins match any word, as engines do, so "in" and "a" bring back pages
      const nonsense = (await post(g, '/v1/tools/web/search?format=json', { query: 'flurbish in a zorgle' })).body.data;
      expect(nonsense.count, name).toBeGreaterThan(0);
      expect(nonsense.nothing_relevant, name).toBe(true);
      const text = (await post(g, '/v1/tools/web/search', { query: 'flurbish in a zorgle' })).body.data as string;
      expect(text, name).toMatch(/^## Nothing relevant found/);

      const real = (await post(g, '/v1/tools/web/search?format=json', { query: 'Harbor Way renovation' })).body.data;
      expect(real.nothing_relevant, name).toBe(false);
      expect(real.results[0].relevance, name).toBe('strong');
      expect(real.results[0].url, name).toBe('https://news.example/harbor-way');
      const partial = real.results.find((h: { url: string }) => h.url.includes('assessor'));
      expect(partial, name).toMatchObject({ relevance: 'partial', matched_words: ['harbor', 'way'] });
      const realText = (await post(g, '/v1/tools/web/search', { query: 'Harbor Way renovation' })).body.data;
      expect(realText, name).toContain('Matches only: harbor, way (not renovation)');
    }
  });
});
