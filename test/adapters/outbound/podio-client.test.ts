import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { afterEach, describe, expect, it } from 'vitest';
import { left, right } from '../../support/run.js';
import * as t from 'io-ts';
import { StaticPodioToken } from '../../../adapters/outbound/podio/podio-tokens.js';
import { PodioClient } from '../../../adapters/outbound/podio/podio-client.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { podioError, PodioServer } from '../../fakes/podio-server.js';

// These tests read how one vendor answer is mapped: no retries, and no breaker opening on purpose-made
// failures (retries and the breaker have their own tests in test/adapters/inbound/upstream-faults.test.ts).
configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

const T0 = new Date('2026-03-10T09:00:00.000Z');

let servers: PodioServer[] = [];
afterEach(async () => {
  for (const s of servers) {
    expect(s.violations).toEqual([]);
    await s.close();
  }
  servers = [];
});

const Space = t.type({ space_id: t.number, name: t.string });

const setUp = async () => {
  const clock = new FixedClock(T0);
  const server = await PodioServer.start({ clock });
  servers.push(server);
  const token = server.issueToken(5001);
  const spaces = new Map([[2001, { space_id: 2001, name: 'Acquisitions' }]]);
  server
    .route('GET', '/space/:space_id', ({ params }) => {
      const s = spaces.get(Number(params['space_id']));
      return s ? { status: 200, body: s } : { status: 404, body: podioError('not_found', 'Object not found') };
    })
    .route('PUT', '/space/:space_id', ({ params, body }) => {
      const s = spaces.get(Number(params['space_id']))!;
      spaces.set(s.space_id, { ...s, ...(body as object) });
      return { status: 204 };
    })
    .route('GET', '/search/', ({ query }) => ({ status: 200, body: { query } }));
  const client = new PodioClient({
    baseUrl: server.baseUrl,
    auth: new StaticPodioToken(token),
    timeoutMs: 2_000,
    clock,
  });
  return { server, client, token, clock };
};

describe('PodioClient', () => {
  it('sends OAuth2 authorisation and JSON, decodes the answer, and an empty 204 as undefined', async () => {
    const { server, client, token } = await setUp();
    expect(right(await client.request('GET', '/space/2001', { codec: Space }))).toEqual({
      space_id: 2001,
      name: 'Acquisitions',
    });
    expect(
      right(await client.request('PUT', '/space/2001', { body: { name: 'Deals' }, codec: t.undefined })),
    ).toBeUndefined();
    expect(right(await client.request('GET', '/space/2001', { codec: Space })).name).toBe('Deals');
    const put = server.requests[1]!;
    expect(put.headers['authorization']).toBe(`OAuth2 ${token}`);
    expect(put.headers['content-type']).toContain('application/json');
    expect(put.body).toEqual({ name: 'Deals' });
  });

  it('writes query values as text and leaves out undefined ones', async () => {
    const { client } = await setUp();
    const r = right(
      await client.request('GET', '/search/', {
        query: { limit: 5, hook: false, text: 'a b', skip: undefined },
        codec: t.type({ query: t.record(t.string, t.string) }),
      }),
    );
    expect(r.query).toEqual({ limit: '5', hook: 'false', text: 'a b' });
  });

  it('a shape the codec rejects is a non-retryable UpstreamFailure naming the place', async () => {
    const { server, client } = await setUp();
    server.failNext(200, { space_id: 'x', name: 'A' });
    const e = left(await client.request('GET', '/space/2001', { codec: Space }));
    expect(e).toMatchObject({ _tag: 'UpstreamFailure', retryable: false, status: 200 });
    expect(e.message).toContain('space_id');
    server.failNext(200, '<html>not json</html>');
    expect(left(await client.request('GET', '/space/2001', { codec: Space }))).toMatchObject({
      _tag: 'UpstreamFailure',
      retryable: false,
    });
  });

  it.each([
    [
      400,
      podioError('invalid_value', 'Invalid value "x" (string): must be integer', undefined, { field: 'org_id' }),
      { _tag: 'InvalidInput', details: { podio_error: 'invalid_value', error_parameters: { field: 'org_id' } } },
      'must be integer',
    ],
    [
      403,
      podioError('forbidden', 'The space has reached its user limit of 8'),
      { _tag: 'Forbidden' },
      'user limit of 8',
    ],
    [
      404,
      podioError('not_found', 'Object not found'),
      { _tag: 'NotFound', resource: 'space', id: '2001' },
      'no space 2001',
    ],
    [
      409,
      podioError('conflict', 'The item has been updated since revision 3'),
      { _tag: 'Conflict' },
      'since revision 3',
    ],
    [
      410,
      podioError('gone', 'The object has been deleted'),
      { _tag: 'NotFound', resource: 'space', id: '2001' },
      'was deleted',
    ],
    [
      420,
      podioError('rate_limit', 'You have hit the rate limit'),
      { _tag: 'RateLimited', retryAfterSeconds: 300 },
      'rate limit',
    ],
    [
      500,
      podioError('unavailable', 'Internal error'),
      { _tag: 'UpstreamFailure', retryable: true, status: 500 },
      'Try again',
    ],
    [503, '<html>maintenance</html>', { _tag: 'UpstreamFailure', retryable: true, status: 503 }, 'HTTP 503'],
    [
      401,
      podioError('unauthorized', 'The token is not valid for this client'),
      { _tag: 'UpstreamFailure', reauthorize: true, retryable: false },
      'PODIO_',
    ],
  ])('HTTP %i becomes the matching gateway error', async (status, body, shape, words) => {
    const { server, client } = await setUp();
    server.failNext(status, body);
    const e = left(await client.request('GET', '/space/2001', { codec: Space }));
    expect(e).toMatchObject(shape);
    expect(e.message).toContain(words);
  });

  it('a 429 uses its Retry-After; the resource option names the object', async () => {
    const { server, client } = await setUp();
    server.failNext(429, podioError('rate_limit', 'Too many'), { 'Retry-After': '42' });
    expect(left(await client.request('GET', '/space/2001', { codec: Space }))).toMatchObject({
      _tag: 'RateLimited',
      retryAfterSeconds: 42,
    });
    server.failNext(404, podioError('not_found', 'Object not found'));
    expect(
      left(await client.request('GET', '/space/2001', { codec: Space, resource: { kind: 'workspace', id: 2001 } })),
    ).toMatchObject({ _tag: 'NotFound', resource: 'workspace' });
  });

  it("a write's 429 with Retry-After: 1 says the real wait, and X-Rate-Limit-Limit names the budget (issue 42)", async () => {
    const { server, client } = await setUp();
    server.route('POST', '/item/app/:app_id/', () => ({ status: 200, body: { item_id: 1 } }));
    server.failNext(429, podioError('rate_limit', 'Too many'), { 'Retry-After': '1', 'X-Rate-Limit-Limit': '250' });
    const e = left(await client.request('POST', '/item/app/1/', { codec: Space, body: { fields: {} } }));
    expect(e).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 1 });
    expect(e.message).toContain('Wait 1 second before');
    expect(e.message).not.toContain('minute');
    expect(e.message).toContain('budget of 250 calls an hour');
    server.failNext(420, podioError('rate_limit', 'Too many'), { 'X-Rate-Limit-Limit': '1000' });
    const general = left(await client.request('GET', '/space/2001', { codec: Space }));
    expect(general.message).toContain('budget of 1,000 calls an hour');
    expect(general.message).toContain('Wait about 5 minutes');
  });

  it('a rejected token with a static provider fails once it was retried, and never shows the token', async () => {
    const { server, client, token } = await setUp();
    server.failNext(401, podioError('invalid_token', `expired_token ${token}`));
    server.failNext(401, podioError('invalid_token', `expired_token ${token}`));
    const e = left(await client.request('GET', '/space/2001', { codec: Space }));
    expect(e).toMatchObject({ _tag: 'UpstreamFailure', reauthorize: true });
    expect(e.message).not.toContain(token);
    expect(server.apiRequests()).toHaveLength(2);
  });

  it('no answer at all is a retryable transport failure', async () => {
    const { server, client } = await setUp();
    await server.close();
    servers = [];
    expect(left(await client.request('GET', '/space/2001', { codec: Space }))).toMatchObject({
      _tag: 'UpstreamFailure',
      retryable: true,
    });
  });
});
