import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { batchDataConnector } from '../../../adapters/outbound/batchdata/batchdata-connector.js';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { BatchDataServer } from '../../fakes/batchdata-server.js';
import { OFFICIAL_401 } from '../../fakes/batchdata-examples.js';

// Issue 31: the BatchData key check reads the answer the way the skip tracer does (the body's status.code
// too) and saves a key only when BatchData answered the probe with 200 inside and out.

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

describe('BatchData key check against the BatchData stand-in', () => {
  let server: BatchDataServer;
  const check = (key: string) =>
    batchDataConnector({ baseUrl: server.baseUrl, timeoutMs: 3_000 }).checkKey!(key) as Promise<
      { _tag: 'Left'; left: GatewayError } | { _tag: 'Right'; right: { secret: Record<string, string> } }
    >;
  beforeAll(async () => {
    server = await BatchDataServer.start();
  });
  beforeEach(() => {
    server.requests.splice(0);
    server.requestViolations.splice(0);
  });
  afterAll(async () => {
    await server.close();
  });

  it('saves a key BatchData accepts, with a documented probe that matches nothing (not billed)', async () => {
    const r = await check(server.token);
    expect(r._tag).toBe('Right');
    expect(server.requestViolations).toEqual([]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body).toEqual({
      requests: [{ propertyAddress: { street: '145 Adelaide St W', city: 'Toronto', state: 'ON', zip: 'M5H 4' } }],
    });
  });

  it('refuses a key BatchData rejects with HTTP 401', async () => {
    const r = await check('not-the-token');
    expect(r).toMatchObject({ _tag: 'Left', left: { _tag: 'InvalidInput', parameter: 'key' } });
  });

  it('refuses a key when BatchData answers HTTP 200 with {"status":{"code":401}} in the body', async () => {
    server.failNext(200, OFFICIAL_401);
    const r = await check(server.token);
    expect(r).toMatchObject({ _tag: 'Left', left: { _tag: 'InvalidInput', parameter: 'key' } });
    if (r._tag === 'Left') expect(r.left.message).toContain('Invalid token.');
  });

  it('refuses a key without the skip-trace permission (403)', async () => {
    server.failNext(403, { status: { code: 403, text: 'Forbidden', message: 'Not allowed.' } });
    const r = await check(server.token);
    expect(r).toMatchObject({ _tag: 'Left', left: { _tag: 'InvalidInput' } });
    if (r._tag === 'Left') expect(r.left.message).toContain('permission');
  });

  it('saves nothing on a 400: it does not show whether the key works', async () => {
    server.failNext(400, { status: { code: 400, text: 'Bad Request', message: 'requests must not be empty' } });
    const r = await check(server.token);
    expect(r).toMatchObject({ _tag: 'Left', left: { _tag: 'UpstreamFailure', retryable: false, status: 400 } });
    server.failNext(200, { status: { code: 400, text: 'Bad Request' } });
    expect((await check(server.token))._tag).toBe('Left');
  });

  it('saves nothing on 429 or 5xx, and says to try again', async () => {
    server.failNext(503, { status: { code: 503, text: 'Service Unavailable' } });
    expect(await check(server.token)).toMatchObject({ _tag: 'Left', left: { retryable: true, status: 503 } });
  });
});
