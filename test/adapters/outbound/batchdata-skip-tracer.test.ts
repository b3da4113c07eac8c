import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchDataSkipTracer } from '../../../adapters/outbound/batchdata/batchdata-skip-tracer.js';
import { OFFICIAL_V1_NON_US_NO_MATCH, ROSEGOLD, TORONTO } from '../../fakes/batchdata-examples.js';
import { BatchDataServer, SKIP_TRACE_PATH } from '../../fakes/batchdata-server.js';
import { err, ok } from '../../support/run.js';

// The BatchData skip tracer against the stand-in: what it sends and how it reads answers. Its error
// handling is in batchdata-skip-tracer-errors.test.ts, the stand-in's own checks in batchdata-stand-in.test.ts.

describe('BatchDataSkipTracer', () => {
  let server: BatchDataServer;
  let tracer: BatchDataSkipTracer;

  beforeAll(async () => {
    server = await BatchDataServer.start({ token: 'bd-secret-token-123' });
    tracer = new BatchDataSkipTracer({ baseUrl: server.baseUrl, apiToken: server.token, timeoutMs: 5_000 });
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.requestViolations.length = 0;
  });

  const lastBody = () => server.requests.at(-1)?.body;

  describe('requests', () => {
    it('sends an address as propertyAddress with the bearer token and JSON headers', async () => {
      await ok(tracer.trace(ROSEGOLD));
      const req = server.requests.at(-1);
      expect(req?.method).toBe('POST');
      expect(req?.path).toBe(SKIP_TRACE_PATH);
      expect(req?.headers.authorization).toBe('Bearer bd-secret-token-123');
      expect(req?.headers['content-type']).toMatch(/^application\/json/);
      expect(req?.headers.accept).toMatch(/application\/json/);
      expect(req?.body).toEqual({
        requests: [
          { propertyAddress: { street: '1011 Rosegold St', city: 'Franklin Square', state: 'NY', zip: '11010' } },
        ],
      });
    });

    it('leaves out address members that were not given', async () => {
      await ok(tracer.trace({ kind: 'address', street: '25866 W Globe Ave', zip: '85326' }));
      expect(lastBody()).toEqual({ requests: [{ propertyAddress: { street: '25866 W Globe Ave', zip: '85326' } }] });
      expect(server.requests.at(-1)?.rawBody).not.toContain('null');
    });

    it('sends apn with county and state', async () => {
      await ok(tracer.trace({ kind: 'apn', apn: '504-33-221', county: 'Maricopa', state: 'AZ' }));
      expect(lastBody()).toEqual({ requests: [{ apn: '504-33-221', county: 'Maricopa', state: 'AZ' }] });
    });

    it('sends apn with county alone when no state is known', async () => {
      await ok(tracer.trace({ kind: 'apn', apn: '504-33-221', county: 'Maricopa' }));
      expect(lastBody()).toEqual({ requests: [{ apn: '504-33-221', county: 'Maricopa' }] });
    });

    it('sends apn with countyFipsCode, preferring it to a county name', async () => {
      const r = await ok(
        tracer.trace({ kind: 'apn', apn: '14-28-107-006', countyFipsCode: '17167', county: 'Sangamon', state: 'IL' }),
      );
      expect(lastBody()).toEqual({ requests: [{ apn: '14-28-107-006', countyFipsCode: '17167' }] });
      expect(r.results.persons[0]?.name?.last).toBe('Kowalski');
    });

    it('refuses an apn without county before calling BatchData', async () => {
      const e = await err(tracer.trace({ kind: 'apn', apn: '504-33-221' }));
      expect(e._tag).toBe('InvalidInput');
      expect(server.requests).toHaveLength(0);
    });

    it('tolerates a base URL given with a trailing slash or /api/v1', async () => {
      for (const baseUrl of [`${server.baseUrl}/`, `${server.baseUrl}/api/v1`]) {
        const t = new BatchDataSkipTracer({ baseUrl, apiToken: server.token, timeoutMs: 5_000 });
        await ok(t.trace(ROSEGOLD));
        expect(server.requests.at(-1)?.path).toBe(SKIP_TRACE_PATH);
      }
    });

    it('stayed within the documented request forms', async () => {
      await ok(tracer.trace(ROSEGOLD));
      await ok(tracer.trace(TORONTO));
      expect(server.requestViolations).toEqual([]);
    });
  });

  describe('answers', () => {
    it('decodes a match with the answer meta and phones ranked best first', async () => {
      const r = await ok(tracer.trace({ kind: 'address', street: '25866 W Globe Ave', zip: '85326' }));
      const person = r.results.persons[0];
      expect(person?.meta).toEqual({ matched: true, error: false });
      expect(person?.phoneNumbers?.map((p) => p.number)).toEqual(['6235550119', '6235550166']);
      expect(person?.bankruptcy).toEqual({ bankruptcy: true, filingDate: '2024-06-11' });
      expect(r.results.meta.apiVersion).toBe('v1');
      expect(r.results.meta.results).toEqual({ requestCount: 1, matchCount: 1, noMatchCount: 0, errorCount: 0 });
    });

    it("decodes BatchData's published V1 no-match example served as is", async () => {
      server.failNext(200, OFFICIAL_V1_NON_US_NO_MATCH);
      const r = await ok(tracer.trace(TORONTO));
      expect(r.status).toEqual({ code: 200, text: 'OK' });
      expect(r.results.persons).toHaveLength(1);
      expect(r.results.persons[0]?.meta).toEqual({ matched: false, error: false });
      expect(r.results.persons[0]?.propertyAddress).toEqual({
        street: '145 Adelaide St W',
        city: 'Toronto',
        state: 'ON',
        zip: 'M5H 4',
      });
      expect(r.results.meta.results).toEqual({ requestCount: 1, matchCount: 0, noMatchCount: 1, errorCount: 0 });
      expect(r.results.meta.apiVersion).toBe('v1');
      expect(r.results.meta.requestId).toBeTruthy();
      expect(r.results.meta.performance.totalRequestTime).toBeGreaterThanOrEqual(0);
      expect(Date.parse(r.results.meta.performance.endTime)).toBeGreaterThanOrEqual(
        Date.parse(r.results.meta.performance.startTime),
      );
    });

    it('keeps a person with meta.error true as a result, with its error message', async () => {
      server.failNext(200, {
        status: { code: 200, text: 'OK' },
        results: {
          persons: [
            {
              propertyAddress: { street: '1011 Rosegold St', zip: '11010' },
              meta: { matched: false, error: true, errorMessage: 'Address could not be parsed.' },
            },
          ],
        },
      });
      const r = await ok(tracer.trace(ROSEGOLD));
      expect(r.results.persons[0]?.meta).toEqual({
        matched: false,
        error: true,
        errorMessage: 'Address could not be parsed.',
      });
      expect(r.results.meta.results).toEqual({ requestCount: 1, matchCount: 0, noMatchCount: 0, errorCount: 1 });
    });

    it('is lenient with optional and unverified fields', async () => {
      server.failNext(200, {
        status: { code: 200, text: 'OK' },
        results: {
          persons: [
            {
              name: { first: 'Ada', last: 'Lovelace' },
              phoneNumbers: [
                { number: 5550001111, score: '70' },
                { type: 'Mobile' },
                { number: '5550002222', score: 90, reachable: 'true' },
              ],
              emails: [
                { address: 'ada@example.com', type: 'personal' },
                { email: 'ada@example.org', tested: true },
                'a@example.net',
                {},
              ],
              bankruptcy: { filingDate: '2020-01-01' },
              death: {},
              dnc: 'unknown',
              litigator: null,
              property: { owner: { name: { full: 'Ada Lovelace' } } },
            },
          ],
          meta: { requestId: 'bd-req-1', results: { matchCount: 1 } },
        },
      });
      const r = await ok(tracer.trace(ROSEGOLD));
      const p = r.results.persons[0];
      expect(p?.meta).toEqual({ matched: true, error: false });
      expect(p?.phoneNumbers).toEqual([
        { number: '5550002222', score: 90, reachable: true },
        { number: '5550001111', score: 70 },
      ]);
      expect(p?.emails).toEqual([
        { email: 'ada@example.com' },
        { email: 'ada@example.org', tested: true },
        { email: 'a@example.net' },
      ]);
      expect(p?.bankruptcy).toEqual({ bankruptcy: true, filingDate: '2020-01-01' });
      expect(p?.death).toBeUndefined();
      expect(p?.dnc).toBeUndefined();
      expect(p?.litigator).toBeUndefined();
      expect(p?.property).toEqual({ owner: { name: { full: 'Ada Lovelace' } } });
      expect(r.results.meta.requestId).toBe('bd-req-1');
      expect(r.results.meta.results).toEqual({ requestCount: 1, matchCount: 1, noMatchCount: 0, errorCount: 0 });
    });

    it('turns an empty persons list into a single no-match person for the property asked about', async () => {
      server.failNext(200, { status: { code: 200, text: 'OK' }, results: { persons: [] } });
      const r = await ok(tracer.trace(TORONTO));
      expect(r.results.persons).toEqual([
        {
          propertyAddress: { street: '145 Adelaide St W', city: 'Toronto', state: 'ON', zip: 'M5H 4' },
          meta: { matched: false, error: false },
        },
      ]);
      expect(r.results.meta.results.noMatchCount).toBe(1);
    });

    it.each([
      ['an empty object', {}],
      ['status without results', { status: { code: 200, text: 'OK' } }],
      ['results without persons', { status: { code: 200, text: 'OK' }, results: { meta: {} } }],
      ['an HTML page', '<!doctype html><html><body>Welcome</body></html>'],
    ])('reports %s as an unexpected shape, not retryable', async (_label, body) => {
      server.failNext(200, body);
      const e = await err(tracer.trace(ROSEGOLD));
      expect(e).toMatchObject({ _tag: 'UpstreamFailure', vendor: 'BatchData', retryable: false });
      expect(e.message).toContain('BatchData answered with an unexpected shape');
    });
  });
});
