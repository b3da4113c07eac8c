import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resilienceOf } from '../../../adapters/outbound/http/resilience.js';
import { createVendorHttp, transportFailure } from '../../../adapters/outbound/http/vendor-http.js';

// Issue 39: cockatiel's retry and breaker settings are an object each vendor client is given
// (`createVendorHttp({ resilience })`), not module state: two clients with different settings in one process
// keep their own, and an open breaker's refusal carries its own client's wait.

let server: Server;
let baseURL: string;
let received = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    received++;
    res.statusCode = 503;
    res.setHeader('content-type', 'application/json');
    res.end('{"error":"down"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Requests the server received while `work` ran. */
const counted = async (work: () => Promise<unknown>): Promise<number> => {
  const before = received;
  await work();
  return received - before;
};

describe('resilience settings passed as an object', () => {
  it("gives each client its own attempts, whatever another client's settings say", async () => {
    const retrying = createVendorHttp({
      vendor: 'Retrying',
      baseURL,
      timeoutMs: 5000,
      resilience: resilienceOf({ maxAttempts: 3, baseDelayMs: 1, breakerFailures: 1000 }),
    });
    const once = createVendorHttp({
      vendor: 'Once',
      baseURL,
      timeoutMs: 5000,
      resilience: resilienceOf({ maxAttempts: 1, breakerFailures: 1000 }),
    });
    expect(await counted(() => retrying.get('/a'))).toBe(3);
    expect(await counted(() => once.get('/a'))).toBe(1);
    expect(await counted(() => retrying.get('/a'))).toBe(3);
  });

  it("opens a client's breaker after its own failure count and answers with its own wait", async () => {
    const states: string[] = [];
    const fragile = createVendorHttp({
      vendor: 'Fragile',
      baseURL,
      timeoutMs: 5000,
      resilience: resilienceOf({ maxAttempts: 1, breakerFailures: 2, halfOpenAfterMs: 7000 }, (vendor, state) =>
        states.push(`${vendor} ${state}`),
      ),
    });
    await fragile.get('/a');
    await fragile.get('/a');
    expect(states).toEqual(['Fragile open']);
    const refused = await fragile.get('/a').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeDefined();
    expect(transportFailure('Fragile', refused)).toMatchObject({ _tag: 'UpstreamFailure', retryAfterSeconds: 7 });
  });
});
