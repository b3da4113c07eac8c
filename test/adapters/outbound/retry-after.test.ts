import { describe, expect, it } from 'vitest';
import {
  MAX_RETRY_AFTER_SECONDS,
  retryAfterMs,
  retryAfterSeconds,
} from '../../../adapters/outbound/http/retry-after.js';

// The one Retry-After reader (issue 39): the retry policy reads milliseconds, the vendors' error mappings
// seconds, from the same parse.

describe('Retry-After', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it('reads delay seconds and HTTP dates', () => {
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterSeconds('Sun, 01 Mar 2026 12:00:01 GMT', new Date(now - 500))).toBe(2);
    expect(retryAfterSeconds('12', new Date(now))).toBe(12);
    // The obsolete forms RFC 9110 still asks recipients to read.
    expect(retryAfterMs('Sunday, 01-Mar-26 12:00:10 GMT', now)).toBe(10_000);
  });

  it('answers a date in the past with no wait', () => {
    expect(retryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('believes at most a day, however far the vendor says', () => {
    expect(retryAfterSeconds('999999999', new Date(now))).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(retryAfterMs('Fri, 01 Mar 2030 12:00:00 GMT', now)).toBe(MAX_RETRY_AFTER_SECONDS * 1000);
  });

  it('ignores what it cannot read', () => {
    for (const header of [undefined, '', '  ', 'soon', '-5', '1.5', ['5'], 5, 'x'.repeat(65)]) {
      expect(retryAfterMs(header, now), String(header)).toBeUndefined();
      expect(retryAfterSeconds(header, new Date(now)), String(header)).toBeUndefined();
    }
  });
});
