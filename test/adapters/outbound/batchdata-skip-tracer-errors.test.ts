import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchDataSkipTracer } from '../../../adapters/outbound/batchdata/batchdata-skip-tracer.js';
import { OFFICIAL_401, ROSEGOLD } from '../../fakes/batchdata-examples.js';
import { BatchDataServer } from '../../fakes/batchdata-server.js';
import { err } from '../../support/run.js';

// How the BatchData skip tracer turns BatchData's errors, refused connections and timeouts into gateway errors.

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
