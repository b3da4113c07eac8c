import { describe, expect, it } from 'vitest';
import { articleFor, withArticle } from '../../domain/shared/articles.js';
import { describeExpected } from '../../application/runtime/json-schema.js';
import { setup } from '../application/records-gateway.js';

// Issue 30, a smaller finding: "must be an one of ...". The article of a phrase is chosen by the word
// that follows (its sound, not its first letter), and left out where English puts none.
describe('indefinite articles', () => {
  it.each([
    ['object with name, value', 'an object with name, value'],
    ['array of strings', 'an array of strings'],
    ['string', 'a string'],
    ['number from 1 to 500', 'a number from 1 to 500'],
    ['integer of at least 0', 'an integer of at least 0'],
    ['unique id', 'a unique id'],
    ['user id', 'a user id'],
    ['hour', 'an hour'],
    ['HTTP address', 'an HTTP address'],
    ['URL', 'a URL'],
    ['MCP client', 'an MCP client'],
    ['two-letter code', 'a two-letter code'],
    ['one of "forward", "reverse", "both"', 'one of "forward", "reverse", "both"'],
    ['"date"', '"date"'],
    ['42', '42'],
    ['true', 'true'],
  ])('%s -> %s', (phrase, written) => {
    expect(withArticle(phrase)).toBe(written);
  });

  it('chooses by the first word only', () => {
    expect(articleFor('open-ended list')).toBe('an');
    expect(articleFor('once-only token')).toBe('a');
    expect(articleFor('European date')).toBe('a');
  });

  it('every expected-value phrase the schemas produce reads without a slip', () => {
    const schemas = [
      { enum: ['a', 'b'] },
      { type: 'object', properties: { x: {} }, required: ['x'] },
      { type: 'array', items: { type: 'integer' } },
      { type: 'integer', minimum: 0, maximum: 5 },
      { type: 'string', pattern: '^[0-9]+$' },
      { const: 'record' },
    ] as const;
    for (const s of schemas) {
      const written = withArticle(describeExpected(s as never));
      expect(written).not.toMatch(/\ban (one|[bcdfgjklpqrstvwyz])/i);
      expect(written).not.toMatch(/\ba [aeio]/i);
    }
  });

  it('a parameter outside its enum reads "must be one of", not "must be an one of"', async () => {
    const { call } = setup();
    const r = await call('getRelatedRecords', {
      app_id: 1,
      related_app_id: 2,
      record_ids: [3],
      direction: 'sideways',
    });
    expect(r.status).toBe(400);
    expect(r.error.message).toContain('must be one of "forward", "reverse", "both"');
    expect(r.error.message).not.toMatch(/\ban one\b/);
  });
});
