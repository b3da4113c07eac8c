import { describe, expect, it } from 'vitest';
import {
  AwaitedAnswers,
  MAX_FORWARDED_ANSWER_BYTES,
  RelayUnavailable,
} from '../../../adapters/inbound/mcp/awaited-answers.js';
import { PendingAnswers, TooManyApprovals } from '../../../adapters/inbound/mcp/legacy-relay.js';
import type { AnswerRelay, Forwarded } from '../../../ports/answer-relay.js';

// Issue 39: where a 2025-era exchange's answers are awaited, with a stand-in for the shared store (the Redis
// relay itself is tested in test/adapters/outbound/redis-answer-relay.test.ts). Registering fails closed and
// gives the bound back; an answer is taken here first, forwarded only when it is one of ours, bounded in size;
// the store's failures become outcomes the client is told about.

class StandInRelay implements AnswerRelay {
  held = new Map<string, string>();
  released: string[] = [];
  forwarded: string[] = [];
  down = false;
  lost = 0;
  next: Forwarded = 'delivered';
  onAnswer?: (id: string, owner: string, answer: string) => void;
  async hold(id: string, owner: string): Promise<void> {
    if (this.down) throw new Error('Redis is not connected');
    this.held.set(id, owner);
  }
  async forward(id: string, _owner: string, answer: string): Promise<Forwarded> {
    if (this.down) throw new Error('Redis is not connected');
    this.forwarded.push(answer);
    return this.next;
  }
  outages(): number {
    return this.lost;
  }
  release(id: string): void {
    this.released.push(id);
  }
  receive(onAnswer: (id: string, owner: string, answer: string) => void): void {
    this.onAnswer = onAnswer;
  }
  async close(): Promise<void> {}
}

const answer = (id: unknown, extra: object = {}) =>
  ({
    jsonrpc: '2.0' as const,
    id,
    result: { action: 'accept', ...extra },
  }) as any;

describe('AwaitedAnswers', () => {
  it('registers in the shared store, and gives the bound back when the store cannot take it', async () => {
    const relay = new StandInRelay();
    const answers = new AwaitedAnswers(new PendingAnswers({ max: 10, perOwner: 1 }), relay);
    const id = await answers.await('acme:alice', 60_000, () => undefined);
    expect(relay.held.get(id)).toBe('acme:alice');
    await expect(answers.await('acme:alice', 60_000, () => undefined)).rejects.toBeInstanceOf(TooManyApprovals);
    answers.drop(id);
    expect(relay.released).toEqual([id]);
    relay.down = true;
    await expect(answers.await('acme:alice', 60_000, () => undefined)).rejects.toBeInstanceOf(RelayUnavailable);
    expect(answers.local.size).toBe(0); // refused, and not counted against the caller
    relay.down = false;
    await expect(answers.await('acme:alice', 60_000, () => undefined)).resolves.toMatch(/^tg-/);
  });

  it('takes an answer here first, forwards only ids of its own, and says what the store answered', async () => {
    const relay = new StandInRelay();
    const answers = new AwaitedAnswers(new PendingAnswers({ max: 10, perOwner: 10 }), relay);
    const got: unknown[] = [];
    const id = await answers.await('acme:alice', 60_000, (m) => got.push(m));
    expect(await answers.answer(answer(id), 'acme:alice')).toBe('taken');
    expect(got).toHaveLength(1);
    expect(relay.forwarded).toHaveLength(0);
    expect(relay.released).toEqual([id]);
    expect(await answers.answer(answer(7), 'acme:alice')).toBe('unknown');
    expect(await answers.answer(answer('someone-else'), 'acme:alice')).toBe('unknown');
    expect(relay.forwarded).toHaveLength(0);
    expect(await answers.answer(answer('tg-elsewhere'), 'acme:alice')).toBe('taken');
    relay.next = 'unreachable';
    expect(await answers.answer(answer('tg-elsewhere'), 'acme:alice')).toBe('unreachable');
    relay.next = 'unknown';
    expect(await answers.answer(answer('tg-elsewhere'), 'acme:alice')).toBe('unknown');
    relay.down = true;
    expect(await answers.answer(answer('tg-elsewhere'), 'acme:alice')).toBe('store-unavailable');
    relay.down = false;
    const big = answer('tg-elsewhere', { content: { note: 'x'.repeat(MAX_FORWARDED_ANSWER_BYTES) } });
    expect(await answers.answer(big, 'acme:alice')).toBe('too-large');
    expect(relay.forwarded).toHaveLength(3);
  });

  it('hands a forwarded answer to the exchange only for the caller and the id it was asked under', async () => {
    const relay = new StandInRelay();
    const answers = new AwaitedAnswers(new PendingAnswers({ max: 10, perOwner: 10 }), relay);
    const got: any[] = [];
    const id = await answers.await('acme:alice', 60_000, (m) => got.push(m));
    relay.onAnswer!(id, 'globex:alice', JSON.stringify(answer(id)));
    relay.onAnswer!(id, 'acme:alice', JSON.stringify(answer('tg-other')));
    relay.onAnswer!(id, 'acme:alice', 'not json');
    relay.onAnswer!(id, 'acme:alice', JSON.stringify({ jsonrpc: '2.0', id, method: 'x' }));
    expect(got).toHaveLength(0);
    relay.onAnswer!(id, 'acme:alice', JSON.stringify(answer(id)));
    expect(got).toHaveLength(1);
    expect(answers.local.size).toBe(0);
  });

  it("tells whether answers from other instances stopped reaching it since a wait's mark", () => {
    const relay = new StandInRelay();
    const answers = new AwaitedAnswers(new PendingAnswers({ max: 10, perOwner: 10 }), relay);
    const mark = answers.mark();
    expect(answers.lostSince(mark)).toBe(false);
    relay.lost++;
    expect(answers.lostSince(mark)).toBe(true);
    expect(answers.lostSince(answers.mark())).toBe(false);
  });

  it('without a shared store, keeps answers in the process', async () => {
    const answers = new AwaitedAnswers(new PendingAnswers({ max: 10, perOwner: 10 }));
    expect(answers.lostSince(answers.mark())).toBe(false);
    const id = await answers.await('acme:alice', 60_000, () => undefined);
    expect(await answers.answer(answer('tg-elsewhere'), 'acme:alice')).toBe('unknown');
    expect(await answers.answer(answer(id), 'acme:alice')).toBe('taken');
  });
});
