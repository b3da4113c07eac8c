import { describe, expect, it } from 'vitest';
import { gcra } from '../../../domain/shared/rate-limit.js';
import { InMemoryContactBook } from '../../../adapters/outbound/memory/in-memory-contact-book.js';
import { InMemoryIdempotencyStore } from '../../../adapters/outbound/memory/in-memory-idempotency-store.js';
import { InMemoryRateLimiter } from '../../../adapters/outbound/memory/in-memory-rate-limiter.js';
import { InMemoryTokenStore } from '../../../adapters/outbound/memory/in-memory-token-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { TE } from '../../../domain/shared/fp.js';
import { CRM_ALL_TOKEN, NOW, post, READER_TOKEN, request, testGateway } from '../../support/gateway.js';

describe('GCRA', () => {
  it('allows `limit` calls at once, then one per interval', () => {
    let tat: number | undefined;
    const t0 = 1_000_000;
    const results = [];
    for (let i = 0; i < 4; i++) {
      const r = gcra(tat, t0, 3, 60_000);
      if (r.allowed) tat = r.tat;
      results.push([r.allowed, r.remaining]);
    }
    expect(results).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(gcra(tat, t0, 3, 60_000).retryAfterMs).toBe(20_000);
    expect(gcra(tat, t0 + 20_000, 3, 60_000).allowed).toBe(true);
  });
});

describe('rate limits over HTTP', () => {
  it('refuses the call past the limit with 429, Retry-After and RateLimit headers', async () => {
    const g = testGateway({}, { RATE_LIMIT_PER_MINUTE: '3' });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await post(g, '/v1/tools/crm/getContact', { contact_id: '101' }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[0]!.headers.get('ratelimit-limit')).toBe('3');
    expect(answers[0]!.headers.get('ratelimit-remaining')).toBe('2');
    const refused = answers[3]!;
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.body.error.details.retry_after_seconds).toBe(20);
    expect(refused.headers.get('retry-after')).toBe('20');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    g.clock.advance(20_000);
    expect((await post(g, '/v1/tools/crm/getContact', { contact_id: '101' })).status).toBe(200);
  });

  it('counts per principal and per group, with per-group limits', async () => {
    const g = testGateway({}, { RATE_LIMIT_PER_MINUTE: '2', RATE_LIMIT_GROUPS: '{"skiptrace":1}' });
    const trace = () => post(g, '/v1/tools/skiptrace/skipTraceProperty', { street: '1011 Rosegold St', zip: '11010' });
    expect((await trace()).status).toBe(200);
    expect((await trace()).status).toBe(429);
    expect((await post(g, '/v1/tools/crm/getContact', { contact_id: '101' })).status).toBe(200);
    expect((await post(g, '/v1/tools/crm/getContact', { contact_id: '101' }, READER_TOKEN)).status).toBe(200);
  });
});

describe('idempotency keys', () => {
  const create = (
    g: ReturnType<typeof testGateway>,
    key: string | undefined,
    values: Record<string, string>,
    token?: string,
  ) =>
    request(g, 'POST', '/v1/tools/crm/createContact?format=json', {
      body: { values },
      token,
      headers: key ? { 'idempotency-key': key } : {},
    });

  it('replays the first outcome of a write without running it again', async () => {
    const g = testGateway();
    const first = await create(g, 'k-1', { email: 'once@example.com' });
    const again = await create(g, 'k-1', { email: 'once@example.com' });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const search = await post(g, '/v1/tools/crm/searchContacts?format=json', { query: 'once@example.com' });
    expect(search.body.data.total).toBe(1);
  });

  it('replays a refused call the same way, status included', async () => {
    const g = testGateway();
    const first = await create(g, 'k-dup', { email: 'maria.alvarez@rosegoldrealty.com' });
    const again = await create(g, 'k-dup', { email: 'maria.alvarez@rosegoldrealty.com' });
    expect([first.status, again.status]).toEqual([409, 409]);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers 422 when the key comes back with other arguments', async () => {
    const g = testGateway();
    await create(g, 'k-2', { email: 'a@example.com' });
    const other = await create(g, 'k-2', { email: 'b@example.com' });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('keeps keys per principal', async () => {
    const g = testGateway();
    expect((await create(g, 'shared-key', { email: 'p1@example.com' })).status).toBe(200);
    const other = await create(g, 'shared-key', { email: 'p2@example.com' }, CRM_ALL_TOKEN);
    expect(other.status).toBe(200);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers 409 while the first call is still running, then replays it', async () => {
    const clock = new FixedClock(NOW);
    const book = InMemoryContactBook.withDemoData({ clock });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const create0 = book.create.bind(book);
    book.create = (values, props) => () => gate.then(() => create0(values, props)());
    const g = testGateway({ clock, contactBook: book });
    const slow = create(g, 'k-3', { email: 'slow@example.com' });
    await new Promise((r) => setTimeout(r, 10));
    const meanwhile = await create(g, 'k-3', { email: 'slow@example.com' });
    expect(meanwhile.status).toBe(409);
    release();
    expect((await slow).status).toBe(200);
    await new Promise((r) => setTimeout(r, 10));
    expect((await create(g, 'k-3', { email: 'slow@example.com' })).headers.get('idempotent-replayed')).toBe('true');
  });

  it('takes the key from the tool-call form too, and ignores keys on reads', async () => {
    const g = testGateway();
    const call = () =>
      post(g, '/v1/tools/call', {
        name: 'crm_createContact',
        arguments: { values: { email: 'form@example.com' } },
        idempotency_key: 'k-4',
      });
    expect((await call()).status).toBe(200);
    expect((await call()).headers.get('idempotent-replayed')).toBe('true');
    const read = await request(g, 'POST', '/v1/tools/crm/getContact', {
      body: { contact_id: '101' },
      headers: { 'idempotency-key': 'k-5' },
    });
    expect(read.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('time limit', () => {
  it('answers 504 TIMEOUT when a tool runs too long, and says whether retrying is safe', async () => {
    const clock = new FixedClock(NOW);
    const book = InMemoryContactBook.withDemoData({ clock });
    book.get = () => () => new Promise((r) => setTimeout(() => r(TE.right(undefined as never) as never), 1000));
    const g = testGateway({ clock, contactBook: book }, { GATEWAY_REQUEST_TIMEOUT_MS: '100' });
    const r = await post(g, '/v1/tools/crm/getContact', { contact_id: '101' });
    expect(r.status).toBe(504);
    expect(r.body.error).toMatchObject({ code: 'TIMEOUT', details: { retryable: true } });
  });
});

describe('the callable listing', () => {
  it('lists only the tools the caller may call, and needs a token', async () => {
    const g = testGateway();
    const mine = await request(g, 'GET', '/v1/tools?callable=true', { token: READER_TOKEN });
    const names: string[] = mine.body.data.tools.map((t: { name: string }) => t.name);
    expect(names).toContain('crm_getContact');
    expect(names).not.toContain('crm_createContact');
    expect(names).not.toContain('skiptrace_skipTraceProperty');
    expect((await request(g, 'GET', '/v1/tools?callable=true', { token: null })).status).toBe(401);
  });

  it('limits the listing to toolsets with ?groups=, and names a wrong group', async () => {
    const g = testGateway();
    const some = await request(g, 'GET', '/v1/tools?groups=crm,skiptrace', { token: null });
    const groups = new Set(some.body.data.tools.map((t: { group: string }) => t.group));
    expect([...groups].sort()).toEqual(['crm', 'skiptrace']);
    expect(some.body.data.count).toBe(some.body.data.tools.length);
    const both = await request(g, 'GET', '/v1/tools?groups=crm&callable=true', { token: READER_TOKEN });
    const names: string[] = both.body.data.tools.map((t: { name: string }) => t.name);
    expect(names).toContain('crm_getContact');
    expect(names).not.toContain('crm_createContact');
    expect(names.every((n) => n.startsWith('crm_'))).toBe(true);
    const bad = await request(g, 'GET', '/v1/tools?groups=crm,nope', { token: null });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('groups');
  });
});

describe('bounded in-process stores', () => {
  const done = (n: number) => ({ ok: true as const, payload: { n }, text: `result ${n}` });

  it('keeps at most maxEntries idempotency records, dropping the least recently used', async () => {
    // one tenant allowed the whole store, to check the global bound (idempotency-fair-share.test.ts: the share)
    const store = new InMemoryIdempotencyStore(new FixedClock(NOW), { maxEntries: 1000, maxEntriesPerTenant: 1000 });
    // 20,000 refused keyed writes (the attack kept 289k of them for 24 h).
    for (let i = 0; i < 20_000; i++) {
      await store.claim(`p:k${i}`, 'f', 90);
      await store.complete(
        `p:k${i}`,
        'f',
        { ok: false, error: { status: 409, code: 'CONFLICT', message: 'taken', details: {} } },
        86_400,
      );
    }
    expect(store.size).toBe(1000);
    expect((await store.claim('p:k0', 'f', 90)).state).toBe('started');
    expect((await store.claim('p:k19999', 'f', 90)).state).toBe('replay');
  });

  it('bounds idempotency records by bytes too', async () => {
    const store = new InMemoryIdempotencyStore(new FixedClock(NOW), { maxBytes: 10_000 });
    const big = (n: number) => ({ ok: true as const, payload: 'x'.repeat(3000), text: `big ${n}` });
    for (let i = 0; i < 10; i++) await store.complete(`p:b${i}`, 'f', big(i), 60);
    expect(store.size).toBeLessThanOrEqual(3);
    expect((await store.claim('p:b9', 'f', 90)).state).toBe('replay');
  });

  it('forgets an idempotency record after its TTL, by the gateway clock', async () => {
    const clock = new FixedClock(NOW);
    const store = new InMemoryIdempotencyStore(clock);
    await store.claim('p:t', 'f', 90);
    await store.complete('p:t', 'f', done(1), 60);
    clock.advance(59_000);
    expect((await store.claim('p:t', 'f', 90)).state).toBe('replay');
    clock.advance(2_000);
    expect((await store.claim('p:t', 'f', 90)).state).toBe('started');
    // A running claim that nobody completes expires after its own TTL.
    clock.advance(91_000);
    expect((await store.claim('p:t', 'other', 90)).state).toBe('started');
  });

  it('keeps rate-limit state only while it matters, and for at most maxKeys keys', async () => {
    const clock = new FixedClock(NOW);
    const limiter = new InMemoryRateLimiter(clock, 100);
    for (let i = 0; i < 5000; i++) await limiter.take(`p${i}:crm`, 10, 60);
    expect(limiter.size).toBe(100);
    await limiter.take('busy:crm', 2, 60);
    expect((await limiter.take('busy:crm', 2, 60)).allowed).toBe(true);
    expect((await limiter.take('busy:crm', 2, 60)).allowed).toBe(false);
    // Once the allowance is whole again the key's state has expired: it is not kept.
    clock.advance(60_001);
    expect((limiter as unknown as { tats: { has(k: string): boolean } }).tats.has('busy:crm')).toBe(false);
    expect((await limiter.take('busy:crm', 2, 60)).remaining).toBe(1);
  });

  it('keeps at most maxConnections upstream tokens', async () => {
    const store = new InMemoryTokenStore(2);
    const tokens = (n: number) => ({
      accessToken: `a${n}`,
      refreshToken: `r${n}`,
      expiresAt: NOW.getTime() + 3600_000,
    });
    for (let i = 0; i < 3; i++) await store.put(`c${i}`, tokens(i));
    expect(await store.get('c0')).toBeUndefined();
    expect((await store.get('c2'))?.accessToken).toBe('a2');
  });
});
