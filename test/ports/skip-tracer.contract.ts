import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkipTracer } from '../../ports/skip-tracer.js';
import { ok } from '../support/run.js';

export interface SkipTracerHarness {
  readonly tracer: SkipTracer;
  close(): Promise<void>;
}

/**
 * The behaviour every SkipTracer shows over the demo properties (the in-memory data, and the same
 * data served by the local BatchData stand-in).
 */
export const skipTracerContract = (name: string, start: () => Promise<SkipTracerHarness>): void => {
  describe(`SkipTracer contract: ${name}`, () => {
    let h: SkipTracerHarness;
    beforeAll(async () => {
      h = await start();
    });
    afterAll(async () => {
      await h?.close();
    });

    it('matches a full address and returns the owner with ranked phones', async () => {
      const r = await ok(
        h.tracer.trace({
          kind: 'address',
          street: '1011 Rosegold St',
          city: 'Franklin Square',
          state: 'NY',
          zip: '11010',
        }),
      );
      expect(r.status.code).toBe(200);
      expect(r.results.meta.results).toMatchObject({ requestCount: 1, matchCount: 1, noMatchCount: 0, errorCount: 0 });
      const [person] = r.results.persons;
      expect(person?.meta.matched).toBe(true);
      expect(person?.name?.last).toBe('Whitfield');
      expect(person?.phoneNumbers?.[0]).toMatchObject({ number: '5165550142', type: 'Mobile' });
      expect(person?.emails?.[0]?.email).toBe('eleanor.whitfield@example.com');
      expect(r.results.meta.apiVersion).toBeTruthy();
      expect(r.results.meta.requestId).toBeTruthy();
    });

    it('matches street plus zip, with other spellings of the street', async () => {
      const r = await ok(h.tracer.trace({ kind: 'address', street: '25866 West Globe Avenue', zip: '85326' }));
      expect(r.results.persons[0]?.name?.last).toBe('Ortega');
    });

    it('matches by apn with county and state, and by apn with county FIPS code', async () => {
      const byCounty = await ok(h.tracer.trace({ kind: 'apn', apn: '504-33-221', county: 'Maricopa', state: 'AZ' }));
      expect(byCounty.results.persons[0]?.name?.last).toBe('Ortega');
      const byFips = await ok(h.tracer.trace({ kind: 'apn', apn: '14-28-107-006', countyFipsCode: '17167' }));
      expect(byFips.results.persons[0]?.name?.last).toBe('Kowalski');
      expect(byFips.results.persons[0]?.death?.deceased).toBe(true);
    });

    it('reports a non-US address as no match, not as an error', async () => {
      const r = await ok(
        h.tracer.trace({ kind: 'address', street: '145 Adelaide St W', city: 'Toronto', state: 'ON', zip: 'M5H 4' }),
      );
      expect(r.results.persons).toHaveLength(1);
      expect(r.results.persons[0]?.meta).toMatchObject({ matched: false, error: false });
      expect(r.results.meta.results).toMatchObject({ matchCount: 0, noMatchCount: 1 });
    });

    it('reports an unknown US address as no match', async () => {
      const r = await ok(
        h.tracer.trace({ kind: 'address', street: '1 Nowhere Rd', city: 'Austin', state: 'TX', zip: '78701' }),
      );
      expect(r.results.persons[0]?.meta.matched).toBe(false);
      expect(r.results.meta.results.noMatchCount).toBe(1);
    });
  });
};
