import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JwtAuthenticator } from '../../../adapters/outbound/auth/jwt-authenticator.js';
import { isAuthFailure } from '../../../ports/authenticator.js';
import { post, testGateway } from '../../support/gateway.js';

// Issue 26: a JWT whose exp was years away was accepted and remembered until then, so a leaked token
// stayed good for as long as its issuer wrote. The lifetime (exp - iat, or exp - now without iat) is now
// capped (JWT_MAX_LIFETIME_SECONDS, a day by default), and a verified token is remembered for minutes at
// most, never past its exp.

const SECRET = 'a-shared-secret-of-at-least-32-characters!';
const now = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;

/** An HS256 token with exactly these claims (no iat unless given). */
const token = (claims: Record<string, unknown>) =>
  new SignJWT({ sub: 'agent-7', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));

const reasonOf = async (auth: JwtAuthenticator, claims: Record<string, unknown>) => {
  const outcome = await auth.authenticate(await token(claims));
  return isAuthFailure(outcome) ? outcome.reason : 'accepted';
};

afterEach(() => vi.useRealTimers());

describe('JWT lifetime', () => {
  const auth = () => new JwtAuthenticator({ secret: SECRET });

  it.each<[string, () => Record<string, unknown>]>([
    ['a day, with iat', () => ({ iat: now(), exp: now() + DAY })],
    ['five minutes, with iat', () => ({ iat: now(), exp: now() + 300 })],
    ['an hour, without iat', () => ({ exp: now() + 3600 })],
    ['a day, issued an hour ago', () => ({ iat: now() - 3600, exp: now() + DAY - 3600 })],
  ])('accepts a token that lives %s', async (_what, claims) => {
    expect(await reasonOf(auth(), claims())).toBe('accepted');
  });

  it.each<[string, () => Record<string, unknown>, string]>([
    ['ten years (exp - iat)', () => ({ iat: now(), exp: now() + 3650 * DAY }), 'it is valid for'],
    [
      'two days, issued long ago and still valid',
      () => ({ iat: now() - DAY, exp: now() + DAY + 600 }),
      'it is valid for',
    ],
    ['ten years, without iat (exp - now)', () => ({ exp: now() + 3650 * DAY }), 'it has no "iat"'],
    [
      'an hour from an iat a year ahead',
      () => ({ iat: now() + 365 * DAY, exp: now() + 365 * DAY + 3600 }),
      'it is valid for',
    ],
  ])('refuses a token that lives %s, saying why', async (_what, claims, said) => {
    const reason = await reasonOf(auth(), claims());
    expect(reason).toContain('the token lives too long');
    expect(reason).toContain(said);
    expect(reason).toContain('86400-second maximum');
  });

  it('takes its maximum from the options', async () => {
    const short = new JwtAuthenticator({ secret: SECRET, maxLifetimeSeconds: 600 });
    expect(await reasonOf(short, { iat: now(), exp: now() + 601 + 30 })).toContain('600-second maximum');
    expect(await reasonOf(short, { iat: now(), exp: now() + 600 })).toBe('accepted');
  });
});

describe('the cache of verified tokens', () => {
  it('remembers a token for a few minutes at most, and never past its exp', async () => {
    const a = new JwtAuthenticator({ secret: SECRET, cacheSeconds: 60 });
    const cache = (a as unknown as { verified: Map<string, { expiresAt: number }> }).verified;
    const long = await token({ iat: now(), exp: now() + 3600 });
    const brief = await token({ iat: now(), exp: now() + 20 });
    const at = Date.now();
    expect(isAuthFailure(await a.authenticate(long))).toBe(false);
    expect(isAuthFailure(await a.authenticate(brief))).toBe(false);
    expect(cache.get(long)!.expiresAt).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(cache.get(long)!.expiresAt).toBeGreaterThanOrEqual(at + 59_000);
    expect(cache.get(brief)!.expiresAt).toBeLessThanOrEqual((now() + 20) * 1000);
  });

  it('verifies the token again once the entry is old, and drops an entry it finds stale', async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const a = new JwtAuthenticator({ secret: SECRET, cacheSeconds: 60, leewaySeconds: 0 });
    const cache = (a as unknown as { verified: Map<string, { expiresAt: number }> }).verified;
    const t = await token({ iat: now(), exp: now() + 90 });
    expect(isAuthFailure(await a.authenticate(t))).toBe(false);
    const first = cache.get(t)!.expiresAt;
    vi.advanceTimersByTime(61_000);
    expect(isAuthFailure(await a.authenticate(t))).toBe(false);
    expect(cache.get(t)!.expiresAt).toBeGreaterThan(first);
    vi.advanceTimersByTime(30_000);
    const expired = await a.authenticate(t);
    expect(isAuthFailure(expired) && expired.reason).toBe('the token has expired');
    expect(cache.has(t)).toBe(false);
  });
});

describe('over HTTP', () => {
  const gateway = testGateway({}, { JWT_SECRET: SECRET, JWT_MAX_LIFETIME_SECONDS: '3600' });

  it('answers 401 with the reason for a token that lives longer than JWT_MAX_LIFETIME_SECONDS', async () => {
    const long = await token({ iat: now(), exp: now() + 2 * 3600, scope: 'crm:read' });
    const r = await post(gateway, '/v1/tools/crm/getContact', { contact_id: '101' }, long);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(r.body.error.message).toContain('the token lives too long');
    expect(r.body.error.message).toContain('3600-second maximum');
    const fine = await token({ iat: now(), exp: now() + 1800, scope: 'crm:read' });
    expect((await post(gateway, '/v1/tools/crm/getContact', { contact_id: '101' }, fine)).status).toBe(200);
  });
});
