import { describe, expect, it } from 'vitest';
import { formatNumber, NUMBER } from '../../domain/records/field-types/number.js';

// A number field's value as the text answers show it: a year or a short id is written as it is stored
// (1956, not "1,956"); large amounts keep their separators; fractions keep up to four places.
describe('number field text', () => {
  it.each([
    [1956, '1956'],
    [2026, '2026'],
    [9999, '9999'],
    [-4500, '-4500'],
    [12.5, '12.5'],
    [0.123456, '0.1235'],
    [10_000, '10,000'],
    [1_250_000.75, '1,250,000.75'],
  ])('%s reads as %s', (value, text) => {
    expect(formatNumber(value)).toBe(text);
    expect(NUMBER.format(value)).toBe(text);
  });
});
