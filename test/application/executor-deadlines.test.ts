import { describe, expect, it } from 'vitest';
import { InMemoryContactBook } from '../../adapters/outbound/memory/in-memory-contact-book.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { everyone, NOW, testGateway } from '../support/gateway.js';

// The executor's time limit: every call in flight on one timer (executor.ts, Deadlines). Slow and quick
// calls interleaved must each get their own outcome, at their own deadline.

const LIMIT_MS = 150;

/** A gateway whose contact 101 answers after `delays[n]` ms on its n-th read (a contact for each). */
const gatewayWithDelays = (delays: readonly number[]) => {
  const clock = new FixedClock(NOW);
  const book = InMemoryContactBook.withDemoData({ clock });
  const get = book.get.bind(book);
  let n = 0;
  book.get = (id, properties) => () => {
    const delay = delays[n++] ?? 0;
    return new Promise((r) => setTimeout(() => r(get(id, properties)()), delay)).then((x) => x as never);
  };
  const g = testGateway({ clock, contactBook: book }, { GATEWAY_REQUEST_TIMEOUT_MS: String(LIMIT_MS) });
  const tool = g.executor.registry.get('crm_getContact')!;
  const call = (requestId: string) =>
    g.executor.run({ tool, args: { contact_id: '101' }, principal: everyone, requestId }).then((r) => ({
      requestId,
      outcome: r.ok ? 'ok' : r.error.code,
      at: Date.now(),
    }));
  return { call };
};

describe('the time limit of calls in flight', () => {
  it('times out a slow call started first while quicker later ones answer', async () => {
    const { call } = gatewayWithDelays([1000, 0, 10, 20]);
    const started = Date.now();
    const outcomes = await Promise.all(['slow', 'a', 'b', 'c'].map(call));
    expect(outcomes.map((o) => [o.requestId, o.outcome])).toEqual([
      ['slow', 'TIMEOUT'],
      ['a', 'ok'],
      ['b', 'ok'],
      ['c', 'ok'],
    ]);
    const slow = outcomes[0]!;
    expect(slow.at - started).toBeGreaterThanOrEqual(LIMIT_MS - 5);
    expect(slow.at - started).toBeLessThan(LIMIT_MS + 500);
  });

  it('times out a slow call started after quick ones, at its own deadline', async () => {
    const { call } = gatewayWithDelays([0, 0, 1000]);
    await Promise.all([call('a'), call('b')]);
    const started = Date.now();
    const late = await call('late');
    expect(late.outcome).toBe('TIMEOUT');
    expect(late.at - started).toBeGreaterThanOrEqual(LIMIT_MS - 5);
  });

  it('gives each of several slow calls its own deadline, in the order they started', async () => {
    const { call } = gatewayWithDelays([1000, 1000, 0, 1000]);
    const first = call('first');
    await new Promise((r) => setTimeout(r, 60));
    const rest = await Promise.all([call('second'), call('quick'), call('third')]);
    const one = await first;
    expect([one, ...rest].map((o) => o.outcome)).toEqual(['TIMEOUT', 'TIMEOUT', 'ok', 'TIMEOUT']);
    // The second and third started about 60 ms after the first: they expire about 60 ms later, not with it.
    expect(rest[0]!.at - one.at).toBeGreaterThanOrEqual(40);
  });

  it('keeps working after every call has ended (the timer is made again)', async () => {
    const { call } = gatewayWithDelays([0, 1000, 0]);
    expect((await call('a')).outcome).toBe('ok');
    expect((await call('slow')).outcome).toBe('TIMEOUT');
    expect((await call('b')).outcome).toBe('ok');
  });
});
