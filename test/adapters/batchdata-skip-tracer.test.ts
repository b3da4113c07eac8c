import axios from 'axios';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchDataSkipTracer } from '../../adapters/outbound/batchdata/batchdata-skip-tracer.js';
import type { PropertyIdentity } from '../../domain/skiptrace/skip-trace.js';
import { BatchDataServer, SKIP_TRACE_PATH } from '../fakes/batchdata-server.js';
import { err, ok } from '../support/run.js';

// Verbatim from https://help.batchdata.io/en/articles/12879595-skiptrace-api-release-notes-november-2025
// ("Single Request with Non-US Address (V1 API)").
const OFFICIAL_V1_NON_US_NO_MATCH = {
  status: { code: 200, text: 'OK' },
  results: {
    persons: [
      {
        propertyAddress: { street: '145 Adelaide St W', city: 'Toronto', state: 'ON', zip: 'M5H 4' },
        meta: { matched: false, error: false },
      },
    ],
  },
};

// Verbatim from https://help.batchdata.io/en/articles/11880468-status-codes-in-http ("Error Response Format").
const OFFICIAL_401 = { status: { code: 401, text: 'Unauthorized', message: 'Invalid token.' } };

const TORONTO: PropertyIdentity = {
  kind: 'address',
  street: '145 Adelaide St W',
  city: 'Toronto',
  state: 'ON',
  zip: 'M5H 4',
};
const ROSEGOLD: PropertyIdentity = {
  kind: 'address',
  street: '1011 Rosegold St',
  city: 'Franklin Square',
  state: 'NY',
  zip: '11010',
};

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

  describe('errors', () => {
    it("asks for reauthorisation on 401 with BatchData's message and without the token", async () => {
      server.failNext(401, OFFICIAL_401);
      const e = await err(tracer.trace(ROSEGOLD));
      expect(e).toMatchObject({ _tag: 'UpstreamFailure', reauthorize: true, retryable: false, status: 401 });
      expect(e.message).toBe(
        "BatchData rejected the gateway's API token (Invalid token.); an operator must configure a valid BATCHDATA_API_TOKEN.",
      );
      expect(e.message).not.toContain(server.token);
    });

    it('gets the real 401 from the stand-in for a wrong token', async () => {
      const wrong = new BatchDataSkipTracer({ baseUrl: server.baseUrl, apiToken: 'not-the-token', timeoutMs: 5_000 });
      const e = await err(wrong.trace(ROSEGOLD));
      expect(e).toMatchObject({ _tag: 'UpstreamFailure', reauthorize: true, retryable: false });
      expect(e.message).toContain('Invalid token.');
      expect(e.message).not.toContain('not-the-token');
      expect(server.requestViolations).toEqual(['Authorization carries the wrong token']);
    });

    it('asks for reauthorisation on 403', async () => {
      server.failNext(403, { status: { code: 403, text: 'Forbidden', message: 'Access denied.' } });
      const e = await err(tracer.trace(ROSEGOLD));
      expect(e).toMatchObject({ _tag: 'UpstreamFailure', reauthorize: true, retryable: false, status: 403 });
      expect(e.message).toContain('Access denied.');
    });

    it('never repeats the token even if BatchData echoes it', async () => {
      server.failNext(401, {
        status: { code: 401, text: 'Unauthorized', message: `Token bd-secret-token-123 is invalid.` },
      });
      const e = await err(tracer.trace(ROSEGOLD));
      expect(e.message).not.toContain('bd-secret-token-123');
    });

    it('fails without calling BatchData when no token is configured', async () => {
      const none = new BatchDataSkipTracer({ baseUrl: server.baseUrl, apiToken: ' ', timeoutMs: 5_000 });
      const e = await err(none.trace(ROSEGOLD));
      expect(e).toMatchObject({ _tag: 'UpstreamFailure', reauthorize: true, retryable: false });
      expect(server.requests).toHaveLength(0);
    });

    it("turns 400 into InvalidInput with BatchData's message", async () => {
      server.failNext(400, {
        status: { code: 400, text: 'Bad Request', message: 'requests[0].propertyAddress.street is required' },
      });
      const e = await err(tracer.trace(ROSEGOLD));
      expect(e._tag).toBe('InvalidInput');
      expect(e.message).toContain('requests[0].propertyAddress.street is required');
    });

    it('turns 404 into a non-retryable failure that points at the base URL', async () => {
      server.failNext(404, { status: { code: 404, text: 'Not Found', message: 'Route not found.' } });
      const e = await err(tracer.trace(ROSEGOLD));
      expect(e).toMatchObject({ _tag: 'UpstreamFailure', retryable: false, status: 404 });
      expect(e.message).toContain('base URL');
    });

    it('turns 429 into RateLimited, honouring Retry-After', async () => {
      server.failNext(429, { status: { code: 429, text: 'Too Many Requests' } }, { 'Retry-After': '17' });
      const e = await err(tracer.trace(ROSEGOLD));
      expect(e).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 17 });
      expect(e.message).toContain('3,000 requests per minute');
    });

    it('turns 429 without Retry-After into RateLimited for 60 seconds', async () => {
      server.failNext(429, { status: { code: 429, text: 'Too Many Requests' } });
      const e = await err(tracer.trace(ROSEGOLD));
      expect(e).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 60 });
      expect(e.message).toMatch(/block/);
    });

    it('turns 500 into a retryable failure', async () => {
      server.failNext(500, { status: { code: 500, text: 'Internal Server Error' } });
      const e = await err(tracer.trace(ROSEGOLD));
      expect(e).toMatchObject({ _tag: 'UpstreamFailure', retryable: true, status: 500 });
      expect(e.message).toMatch(/retrying the same call is safe/);
    });

    it('turns a 502 HTML page into a retryable failure', async () => {
      server.failNext(502, '<html><body>Bad gateway</body></html>');
      const e = await err(tracer.trace(ROSEGOLD));
      expect(e).toMatchObject({ _tag: 'UpstreamFailure', retryable: true, status: 502 });
    });

    it('honours an error status inside a 200 envelope', async () => {
      server.failNext(200, OFFICIAL_401);
      const e = await err(tracer.trace(ROSEGOLD));
      expect(e).toMatchObject({ _tag: 'UpstreamFailure', reauthorize: true });
    });

    it('reports a refused connection as retryable', async () => {
      const gone = await BatchDataServer.start();
      const baseUrl = gone.baseUrl;
      await gone.close();
      const e = await err(new BatchDataSkipTracer({ baseUrl, apiToken: 't', timeoutMs: 2_000 }).trace(ROSEGOLD));
      expect(e).toMatchObject({ _tag: 'UpstreamFailure', vendor: 'BatchData', retryable: true });
    });

    it('reports a timeout as retryable', async () => {
      const silent = createServer(() => {});
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as AddressInfo;
      try {
        const e = await err(
          new BatchDataSkipTracer({ baseUrl: `http://127.0.0.1:${port}`, apiToken: 't', timeoutMs: 150 }).trace(
            ROSEGOLD,
          ),
        );
        expect(e).toMatchObject({ _tag: 'UpstreamFailure', retryable: true });
        expect(e.message).toContain('did not answer in time');
      } finally {
        silent.closeAllConnections();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    });
  });
});

describe('BatchData stand-in', () => {
  let server: BatchDataServer;
  beforeAll(async () => {
    server = await BatchDataServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    axios.post(`${server.baseUrl}${SKIP_TRACE_PATH}`, body, {
      validateStatus: () => true,
      headers: {
        Authorization: `Bearer ${server.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
        ...headers,
      },
    });

  it.each([
    ['no requests', { requests: [] }],
    ['too many requests', { requests: Array.from({ length: 101 }, () => ({ apn: '1', countyFipsCode: '17167' })) }],
    ['a street without zip or city and state', { requests: [{ propertyAddress: { street: '1 Main St' } }] }],
    ['a null member', { requests: [{ propertyAddress: { street: '1 Main St', zip: '11010', city: null } }] }],
    ['an apn without county', { requests: [{ apn: '504-33-221' }] }],
    ['an unknown member', { requests: [{ apn: '504-33-221', county: 'Maricopa', fips: '04013' }] }],
  ])('answers 400 and records a violation for %s', async (_label, body) => {
    const before = server.requestViolations.length;
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ status: { code: 400, text: 'Bad Request' } });
    expect(server.requestViolations.length).toBe(before + 1);
  });

  it('answers 401 in the shape of the published example for a missing token', async () => {
    const res = await post({ requests: [{ apn: '504-33-221', county: 'Maricopa' }] }, { Authorization: '' });
    expect(res.status).toBe(401);
    expect(res.data).toEqual(OFFICIAL_401);
  });

  it('answers a miss exactly like the published V1 example', async () => {
    const res = await post({
      requests: [{ propertyAddress: OFFICIAL_V1_NON_US_NO_MATCH.results.persons[0]?.propertyAddress }],
    });
    expect(res.data).toEqual(OFFICIAL_V1_NON_US_NO_MATCH);
  });
});
