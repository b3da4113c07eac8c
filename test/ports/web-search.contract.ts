import { describe, expect, it } from 'vitest';
import type { WebSearch } from '../../ports/web.js';

/** What every WebSearch adapter does, given an index that holds pages about Harbor Way and Rosegold Realty. */
export const webSearchContract = (name: string, make: () => Promise<WebSearch>, hostOf: (site: 'rosegold') => string) =>
  describe(`WebSearch contract: ${name}`, () => {
    it('finds pages by their words, with title, URL and snippet, at most count of them', async () => {
      const s = await make();
      const r = await s.search({ query: 'Harbor Way', count: 5 })();
      if (r._tag === 'Left') throw new Error(r.left.message);
      expect(r.right.length).toBeGreaterThan(0);
      expect(r.right.length).toBeLessThanOrEqual(5);
      for (const hit of r.right) {
        expect(hit.url).toMatch(/^https?:\/\//);
        expect(hit.title.length).toBeGreaterThan(0);
        expect(hit.snippet).not.toMatch(/<[a-z]/i);
      }
      expect(r.right.some((h) => /harbor/i.test(`${h.title} ${h.snippet}`))).toBe(true);
      const one = await s.search({ query: 'Harbor Way', count: 1 })();
      expect(one._tag === 'Right' && one.right.length).toBe(1);
    });

    it('keeps to one site when asked', async () => {
      const s = await make();
      const site = hostOf('rosegold');
      const r = await s.search({ query: 'Rosegold Realty brokerage Harbor', count: 10, site })();
      if (r._tag === 'Left') throw new Error(r.left.message);
      expect(r.right.length).toBeGreaterThan(0);
      for (const hit of r.right) expect(new URL(hit.url).hostname.endsWith(site)).toBe(true);
    });

    it('answers an unknown word with no results, not an error', async () => {
      const s = await make();
      const r = await s.search({ query: 'zzqxv-nothing-matches', count: 5 })();
      expect(r._tag === 'Right' && r.right).toEqual([]);
    });
  });
