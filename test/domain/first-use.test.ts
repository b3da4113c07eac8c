import { describe, expect, it } from 'vitest';
import { onFirstUse } from '../../domain/shared/first-use.js';

// The one way the gateway loads a module on first use (group adapters, the lexicon, the OpenAPI document).

describe('onFirstUse', () => {
  it('loads once for concurrent first calls and keeps the result', async () => {
    let loads = 0;
    const load = onFirstUse(async () => ++loads);
    expect(await Promise.all([load(), load()])).toEqual([1, 1]);
    expect(await load()).toBe(1);
    expect(loads).toBe(1);
  });

  it('tries a failed load again on the next call instead of keeping the failure', async () => {
    let loads = 0;
    const load = onFirstUse(async () => {
      loads++;
      if (loads === 1) throw new Error('chunk missing');
      return 'loaded';
    });
    await expect(load()).rejects.toThrow('chunk missing');
    expect(await load()).toBe('loaded');
    expect(loads).toBe(2);
  });
});
