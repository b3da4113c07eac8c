import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitedRequest } from '../../../../adapters/inbound/oauth/limits.js';
import { InMemoryRateLimiter } from '../../../../adapters/outbound/memory/in-memory-rate-limiter.js';
import { FixedClock } from '../../../../adapters/outbound/system-clock.js';
import {
  authorize,
  Browser,
  exchange,
  formAction,
  location,
  pkcePair,
  register,
  startHarness,
  token,
  type Harness,
  type Registered,
} from './oauth-harness.js';

// Issue 38: limits on the authorization server, per address and per client, answered 429 with Retry-After:
// registrations per address, token requests per address and per client, and the sign-in form (wrong keys slow
// down, then stop; while the limit holds a right key is refused too). Each refusal is reported for the audit
// log. The limiter runs on a clock the test moves: no test waits for a window to pass.

const clock = new FixedClock(new Date('2026-11-29T00:00:00Z'));
const limited: LimitedRequest[] = [];
let h: Harness;
let client: Registered;

beforeAll(async () => {
  h = await startHarness({
    limits: {
      limiter: new InMemoryRateLimiter(clock),
      registrationsPerHour: 3,
      tokenRequestsPerMinute: 4,
      signInFailuresPerMinute: 3,
      signInFailuresPerHour: 5,
    },
    onLimited: (r) => limited.push(r),
  });
  client = await register(h.base);
});
afterAll(() => h.close());

/** A POST from a given loopback address (127.0.0.0/8 is all this machine's). */
const postFrom = (address: string, path: string, body: string, headers: Record<string, string>) =>
  new Promise<{ status: number; retryAfter: string | undefined; body: string }>((resolve, reject) => {
    const req = request(
      `${h.base}${path}`,
      { method: 'POST', localAddress: address, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string, body: text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
const registerFrom = (address: string) =>
  postFrom(
    address,
    '/register',
    JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
    { 'content-type': 'application/json' },
  );

/** A sign-in page opened in a new browser: its form's action. */
const openSignIn = async () => {
  const browser = new Browser();
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0]!,
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    state: 's',
    resource: h.resource,
  });
  const page = await browser.go(location(await browser.go(`${h.base}/authorize?${query}`), h.base).href);
  return { browser, action: `${h.base}${formAction(await page.text())}` };
};

describe('limits on the authorization server', () => {
  it('registrations: 429 with Retry-After past the limit for one address, another address still served', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await registerFrom('127.0.0.2'));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 429, 429]);
    const refused = answers[3]!;
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toMatchObject({ error: 'too_many_requests' });
    expect(JSON.parse(refused.body).error_description).toMatch(/at most 3 an hour/);
    expect((await registerFrom('127.0.0.3')).status).toBe(201);
    // Reported once for the audit log (the second refusal within 10 s is held back and counted later).
    expect(limited.filter((l) => l.endpoint === 'register')).toEqual([
      expect.objectContaining({ endpoint: 'register', scope: 'address', address: '127.0.0.2', refusals: 1 }),
    ]);
    clock.advance((3600 / 3) * 1000); // an hour's share: one more
    expect((await registerFrom('127.0.0.2')).status).toBe(201);
  });

  it('token requests: 429 past the limit per address, and per client on another address', async () => {
    const form = (clientId: string) =>
      new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId }).toString();
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await postFrom('127.0.0.4', '/token', form('nobody'), { 'content-type': 'application/x-www-form-urlencoded' }))
          .status,
      );
    expect(statuses.slice(0, 4).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(4)).toEqual([429, 429]);
    const basic = (address: string) =>
      postFrom(address, '/token', 'grant_type=client_credentials', {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('ops-console:secret').toString('base64')}`,
      });
    for (let i = 0; i < 4; i++) expect((await basic(`127.0.1.${i + 1}`)).status).not.toBe(429);
    const refused = await basic('127.0.1.9');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(limited).toContainEqual(
      expect.objectContaining({ endpoint: 'token', scope: 'client', clientId: 'ops-console' }),
    );
    // A public client names itself in the form body: limited per client too, whatever its addresses.
    const publicForm = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: 'r'.repeat(43),
      client_id: 'public-agent',
    }).toString();
    for (let i = 0; i < 4; i++)
      expect(
        (
          await postFrom(`127.0.2.${i + 1}`, '/token', publicForm, {
            'content-type': 'application/x-www-form-urlencoded',
          })
        ).status,
      ).not.toBe(429);
    expect(
      (await postFrom('127.0.2.9', '/token', publicForm, { 'content-type': 'application/x-www-form-urlencoded' }))
        .status,
    ).toBe(429);
    expect(limited).toContainEqual(
      expect.objectContaining({ endpoint: 'token', scope: 'client', clientId: 'public-agent' }),
    );
  });

  it('a token request within the limits reaches the server unchanged: the code is exchanged for tokens', async () => {
    clock.advance(3_600_000);
    const a = await authorize(h, client);
    const answer = await exchange(h, client, a);
    expect(answer.status).toBe(200);
    expect(answer.body.access_token).toBeTruthy();
    const refreshed = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: answer.body.refresh_token,
      client_id: client.client_id,
    });
    expect(refreshed.status).toBe(200);
  });

  it('the sign-in form: wrong keys slow down, then stop; a right key is refused while the limit holds', async () => {
    const { browser, action } = await openSignIn();
    const attempt = (key: string) => browser.post(action, { api_key: key });
    for (let i = 0; i < 3; i++) expect((await attempt(`wrong-${i}`)).status).toBe(401);
    const slowed = await attempt('wrong-again');
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await slowed.text()).toMatch(/Too many wrong keys/);
    const rightTooSoon = await attempt('ops-key-0123456789');
    expect(rightTooSoon.status).toBe(429);
    expect(limited).toContainEqual(expect.objectContaining({ endpoint: 'sign_in', address: '127.0.0.1' }));

    // A minute's share later two more wrong keys pass (and are refused as wrong), then the hour's limit stops the
    // address: every attempt refused, with a wait of minutes, not seconds.
    clock.advance(60_000);
    for (let i = 0; i < 2; i++) expect((await attempt(`wrong-later-${i}`)).status).toBe(401);
    clock.advance(60_000);
    const stopped = await attempt('ops-key-0123456789');
    expect(stopped.status).toBe(429);
    expect(Number(stopped.headers.get('retry-after'))).toBeGreaterThan(60);

    // The window passed: the right key signs in.
    clock.advance(3_600_000);
    const signedIn = await attempt('ops-key-0123456789');
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toMatch(/name="scope"/);
  });

  it('right keys do not count: many people signing in from one address are never slowed', async () => {
    clock.advance(3_600_000);
    for (let i = 0; i < 6; i++) {
      const { browser, action } = await openSignIn();
      expect((await browser.post(action, { api_key: 'ops-key-0123456789' })).status).toBe(200);
    }
  });
});

describe('behind a trusted reverse proxy', () => {
  it('counts the address the proxy forwarded for; a caller that is no trusted proxy cannot choose its address', async () => {
    const behind = await startHarness({
      limits: {
        limiter: new InMemoryRateLimiter(clock),
        registrationsPerHour: 1,
        tokenRequestsPerMinute: 100,
        signInFailuresPerMinute: 100,
        signInFailuresPerHour: 100,
        trustedProxies: ['127.0.0.1', '10.0.0.0/8'],
      },
    });
    try {
      const via = (address: string, forwardedFor?: string) =>
        new Promise<number>((resolve, reject) => {
          const body = JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' });
          const req = request(
            `${behind.base}/register`,
            {
              method: 'POST',
              localAddress: address,
              headers: {
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(body),
                ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
              },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      // Through the proxy (127.0.0.1): each forwarded caller has its own limit; the last untrusted hop counts.
      expect(await via('127.0.0.1', '203.0.113.5')).toBe(201);
      expect(await via('127.0.0.1', '203.0.113.5')).toBe(429);
      expect(await via('127.0.0.1', '203.0.113.6')).toBe(201);
      expect(await via('127.0.0.1', '198.51.100.1, 203.0.113.7, 10.1.2.3')).toBe(201);
      expect(await via('127.0.0.1', '198.51.100.1, 203.0.113.7, 10.1.2.3')).toBe(429);
      // Not a trusted proxy: its X-Forwarded-For is ignored, so rotating it does not escape the limit.
      expect(await via('127.0.0.9', '192.0.2.1')).toBe(201);
      expect(await via('127.0.0.9', '192.0.2.2')).toBe(429);
    } finally {
      await behind.close();
    }
  });
});
