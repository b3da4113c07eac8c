import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { OneTimeMarks } from '../../ports/one-time-marks.js';

export interface OneTimeMarksHarness {
  /** Two views on one store: two instances of the adapter (two gateways) where the store is shared. */
  readonly first: OneTimeMarks;
  readonly second: OneTimeMarks;
  /** Lets `seconds` pass for the store (a fixed clock advanced, or real time waited). */
  elapse(seconds: number): Promise<void>;
  close(): Promise<void>;
}

/** What every OneTimeMarks adapter must do. */
export const oneTimeMarksContract = (name: string, make: () => Promise<OneTimeMarksHarness>): void => {
  describe(`OneTimeMarks contract: ${name}`, () => {
    let h: OneTimeMarksHarness | undefined;
    const harness = async () => (h ??= await make());
    afterAll(async () => h?.close());
    const key = () => `contract-${randomUUID()}`;

    it('answers true once, then false', async () => {
      const { first } = await harness();
      const k = key();
      expect(await first.consume(k, 60)).toBe(true);
      expect(await first.consume(k, 60)).toBe(false);
      expect(await first.consume(k, 60)).toBe(false);
    });

    it('keeps keys apart', async () => {
      const { first } = await harness();
      const [a, b] = [key(), key()];
      expect(await first.consume(a, 60)).toBe(true);
      expect(await first.consume(b, 60)).toBe(true);
      expect(await first.consume(`${a}x`, 60)).toBe(true);
    });

    it('a mark consumed through one instance is refused through the other', async () => {
      const { first, second } = await harness();
      const k = key();
      expect(await first.consume(k, 60)).toBe(true);
      expect(await second.consume(k, 60)).toBe(false);
    });

    it('gives exactly one of many concurrent consumers the mark', async () => {
      const { first, second } = await harness();
      const k = key();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? first : second).consume(k, 60)));
      expect(answers.filter(Boolean)).toHaveLength(1);
    });

    it('forgets a mark after its TTL, not before', async () => {
      const { first, elapse } = await harness();
      const k = key();
      expect(await first.consume(k, 1)).toBe(true);
      expect(await first.consume(k, 1)).toBe(false);
      await elapse(1.2);
      expect(await first.consume(k, 1)).toBe(true);
    });
  });
};
