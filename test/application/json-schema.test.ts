import { describe, expect, it } from 'vitest';
import * as t from 'io-ts';
import { describeExpected, toJsonSchema } from '../../application/runtime/json-schema.js';
import {
  described,
  intRange,
  NumericId,
  NumericString,
  object,
  oneOf,
  params,
  StateCode,
} from '../../application/runtime/codecs.js';
import { E } from '../../domain/shared/fp.js';

describe('JSON Schema from io-ts codecs', () => {
  it('derives an object with required and optional members, descriptions and defaults', () => {
    const P = params(
      { id: described(NumericString, 'The id.') },
      {
        limit: described(intRange(1, 100), 'Page size.', 10),
        kind: described(oneOf(['a', 'b'] as const), 'Kind.'),
        tags: described(t.array(t.string), 'Tags.'),
        nested: described(object('N', { x: described(t.number, 'X.') }, { y: described(t.boolean, 'Y.') }), 'Nested.'),
        map: described(t.record(t.string, t.string), 'Map.'),
      },
    );
    expect(toJsonSchema(P)).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^[0-9]+$', description: 'The id.' },
        limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Page size. Default: 10.', default: 10 },
        kind: { type: 'string', enum: ['a', 'b'], description: 'Kind.' },
        tags: { type: 'array', items: { type: 'string' }, description: 'Tags.' },
        nested: {
          type: 'object',
          properties: { x: { type: 'number', description: 'X.' }, y: { type: 'boolean', description: 'Y.' } },
          required: ['x'],
          additionalProperties: false,
          description: 'Nested.',
        },
        map: { type: 'object', additionalProperties: { type: 'string' }, description: 'Map.' },
      },
      required: ['id'],
      additionalProperties: false,
    });
  });

  it('refuses a codec it cannot express', () => {
    expect(() => toJsonSchema(t.bigint)).toThrow(/no JSON Schema/);
  });

  it('names expected types in words', () => {
    expect(describeExpected(toJsonSchema(t.array(t.string)))).toBe('array of strings');
    expect(describeExpected(toJsonSchema(intRange(1, 5)))).toBe('integer from 1 to 5');
    expect(describeExpected(toJsonSchema(NumericId))).toBe('integer of at least 1');
    expect(describeExpected(toJsonSchema(StateCode))).toBe('two-letter code');
  });
});

describe('lenient id codecs', () => {
  it.each([
    [NumericString, 101, '101'],
    [NumericString, ' 101 ', '101'],
    [NumericId, '42', 42],
    [NumericId, 42, 42],
  ] as const)('%s decodes %j', (codec, input, output) => {
    const r = (codec as t.Mixed).decode(input);
    expect(E.isRight(r) && r.right).toBe(output);
  });
  it.each([
    [NumericString, 'abc'],
    [NumericString, -1],
    [NumericString, 1.5],
    [NumericId, 0],
    [NumericId, '4a'],
  ] as const)('%s refuses %j', (codec, input) => {
    expect(E.isLeft((codec as t.Mixed).decode(input))).toBe(true);
  });
});
