import { describe, expect, it } from 'vitest';
import { answeredAtTurnEnd } from '../../../adapters/inbound/http/turn-end-answers.js';

const microtasks = async (n: number) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};
const nextTurn = () => new Promise<void>((r) => setImmediate(r));

describe('answers released at the end of the event-loop turn', () => {
  it('holds every answer finished in a turn until the turn ends, then releases them together in order', async () => {
    const fetch = answeredAtTurnEnd(async (n: number) => `answer ${n}`);
    const released: string[] = [];
    const calls = [1, 2, 3].map((n) => fetch(n).then((a) => released.push(a)));
    await microtasks(20);
    expect(released).toEqual([]); // finished, but the turn has not ended
    await Promise.all(calls);
    expect(released).toEqual(['answer 1', 'answer 2', 'answer 3']);
  });

  it('releases a later turn’s answers at that turn’s end (the turn boundary resets)', async () => {
    const fetch = answeredAtTurnEnd((n: number) => n * 2);
    expect(await fetch(1)).toBe(2);
    let second: number | undefined;
    const pending = fetch(2).then((a) => (second = a));
    await microtasks(20);
    expect(second).toBeUndefined();
    await nextTurn();
    await pending;
    expect(second).toBe(4);
  });

  it('does not hold an answer past its own turn when the handler finishes in a later turn', async () => {
    const fetch = answeredAtTurnEnd(async () => {
      await nextTurn();
      await nextTurn();
      return 'late';
    });
    let turnsWaited = 0;
    let done = false;
    const pending = fetch().then(() => (done = true));
    while (!done && turnsWaited < 10) {
      await nextTurn();
      turnsWaited++;
    }
    await pending;
    expect(turnsWaited).toBeLessThanOrEqual(4);
  });

  it('shows each answer and its arguments to onRelease when the turn ends, just before handing it over', async () => {
    const seen: string[] = [];
    const fetch = answeredAtTurnEnd(
      async (n: number, _tag: string) => `answer ${n}`,
      (answer, n, tag) => seen.push(`${answer} for ${n} ${tag}`),
    );
    const handed: string[] = [];
    const calls = [
      fetch(1, 'a').then((a) =>
        handed.push(`${a}, ${seen.includes('answer 1 for 1 a') ? 'after' : 'before'} onRelease`),
      ),
      fetch(2, 'b'),
    ];
    await microtasks(20);
    expect(seen).toEqual([]); // not before the turn ends
    await Promise.all(calls);
    expect(seen).toEqual(['answer 1 for 1 a', 'answer 2 for 2 b']);
    expect(handed).toEqual(['answer 1, after onRelease']);
  });

  it('passes a failure through unchanged', async () => {
    const fetch = answeredAtTurnEnd(async () => {
      throw new Error('upstream down');
    });
    await expect(fetch()).rejects.toThrow('upstream down');
  });
});
