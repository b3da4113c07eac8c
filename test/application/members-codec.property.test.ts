import fc from 'fast-check';
import * as t from 'io-ts';
import { describe, expect, it } from 'vitest';
import { exactMembers } from '../../application/runtime/members-codec.js';
import { described, NumericString, params } from '../../application/runtime/codecs.js';
import { testGateway } from '../support/gateway.js';

// exactMembers decodes valid arguments in one pass and leaves everything else to io-ts: for every input,
// its result must be io-ts's own `exact(intersection([type, partial]))` result, members in the same order.

const gateway = testGateway();
const tools = gateway.executor.registry.tools;

/** io-ts's decoding of the same codec structure, without the one-pass path. */
const reference = (codec: t.ExactType<t.Mixed>) => t.exact(codec.type as unknown as t.PartialC<t.Props>, codec.name);

/** A decode result as comparable text: the decoded object with its member order, or every error's path and value. */
const outcome = (r: t.Validation<unknown>): string =>
  r._tag === 'Right'
    ? `ok ${JSON.stringify(r.right)} keys ${JSON.stringify(r.right && typeof r.right === 'object' ? Object.keys(r.right) : null)}`
    : `error ${JSON.stringify(r.left.map((e) => [e.context.map((c) => c.key).join('/'), e.value, e.message]))}`;

/** Values that pass or fail the gateway's codecs in many ways: ids as strings and numbers, enums, arrays, objects. */
const value = fc.oneof(
  fc.constantFrom('101', 101, '7', 7, 0, -1, '', ' ', 'abc', 'CA', 'ca', true, false, null, undefined),
  fc.constantFrom('json', 'text', 'asc', 'desc', 'contains', 'equals', 'firstname', 'email', '2026-01-05'),
  fc.string({ maxLength: 8 }),
  fc.integer({ min: -5, max: 300 }),
  fc.array(fc.constantFrom('firstname', 'email', 'x', '', 1), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', 'name', 'value', 'field', 'operator'), fc.constantFrom('x', 1, 'equals', null), {
    maxKeys: 3,
  }),
);

describe('exactMembers', () => {
  it('gives io-ts’s result for every tool’s parameters, on arguments built from the declared members', () => {
    for (const tool of tools) {
      const codec = tool.declaration.params as unknown as t.ExactType<t.Mixed>;
      const io = reference(codec);
      const [required, optional] = (
        codec.type as unknown as t.IntersectionType<[t.InterfaceType<t.Props>, t.PartialType<t.Props>]>
      ).types;
      const keys = [...Object.keys(required.props), ...Object.keys(optional.props), 'unknown_member'];
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length }), (args) => {
          expect(outcome(codec.decode(args)), tool.name).toBe(outcome(io.decode(args)));
        }),
        { numRuns: 150 },
      );
    }
  });

  it('decodes valid arguments through the one-pass path, with defaults after the given members', () => {
    const codec = params(
      { id: described(NumericString, 'An id.') },
      {
        fields: described(t.array(t.string), 'Fields.', ['a', 'b']),
        limit: described(t.number, 'Limit.', 20),
        note: described(t.string, 'A note.'),
      },
    );
    const io = reference(codec as unknown as t.ExactType<t.Mixed>);
    for (const args of [{ limit: 5, id: 7, extra: 'dropped' }, { id: ' 12 ' }, { note: 'n', id: '3', fields: [] }]) {
      expect(outcome(codec.decode(args))).toBe(outcome(io.decode(args)));
    }
    expect(codec.decode({ limit: 5, id: 7 })).toEqual({
      _tag: 'Right',
      right: { limit: 5, id: '7', fields: ['a', 'b'] },
    });
    expect(Object.keys((codec.decode({ limit: 5, id: 7 }) as { right: object }).right)).toEqual([
      'limit',
      'id',
      'fields',
    ]);
  });

  it('leaves failures, undefined members and non-objects to io-ts', () => {
    const codec = exactMembers({ id: NumericString }, { tags: t.array(t.string) }, 'Args');
    const io = t.exact(t.intersection([t.type({ id: NumericString }), t.partial({ tags: t.array(t.string) })]), 'Args');
    for (const args of [
      {},
      { id: 'x' },
      { id: '1', tags: 'not an array' },
      { id: '1', tags: undefined },
      { id: undefined },
      [],
      null,
      'text',
      Object.assign(Object.create(null) as object, { id: '5' }),
      new Date(0),
    ]) {
      expect(outcome(codec.decode(args)), JSON.stringify(args)).toBe(outcome(io.decode(args)));
    }
  });

  it('decodes nested member objects the same way', () => {
    const inner = exactMembers({ field: t.string }, { value: t.union([t.string, t.number]) }, 'Filter');
    const codec = exactMembers({ filters: t.array(inner) }, {}, 'Search');
    const io = t.exact(
      t.intersection([
        t.type({
          filters: t.array(
            t.exact(t.intersection([t.type({ field: t.string }), t.partial({ value: t.union([t.string, t.number]) })])),
          ),
        }),
        t.partial({}),
      ]),
    );
    for (const args of [
      { filters: [{ field: 'a', value: 1, junk: true }, { field: 'b' }] },
      { filters: [{ value: 1 }] },
      { filters: [{ field: 'a', value: [] }] },
    ]) {
      expect(outcome(codec.decode(args))).toBe(outcome(io.decode(args)));
    }
  });
});
