import * as t from 'io-ts';
import { E } from '../../../domain/shared/fp.js';

/**
 * Succeeds with undefined where the inner codec fails: for vendor fields that are optional, unverified
 * or only used to word messages, so that one odd field does not fail a whole answer.
 */
export const lenient = <A>(codec: t.Type<A, unknown, unknown>): t.Type<A | undefined, unknown, unknown> =>
  new t.Type<A | undefined, unknown, unknown>(
    `Lenient<${codec.name}>`,
    (u): u is A | undefined => u === undefined || codec.is(u),
    (u, c) => {
      const r = codec.validate(u, c);
      return E.isRight(r) ? r : t.success(undefined);
    },
    (a) => a,
  );

/** io-ts codecs whose context entries name a member or an index of the value. */
const CONTAINERS = new Set([
  'InterfaceType',
  'PartialType',
  'ArrayType',
  'DictionaryType',
  'ReadonlyArrayType',
  'StrictType',
  'ExactType',
]);

/**
 * Where the first decoding error of a vendor's answer sits, as a dotted path (`results.0.id`), for the
 * "unexpected shape" messages; intersections and unions add no step of their own.
 */
export const decodingPath = (errors: t.Errors): string => {
  const first = errors[0];
  if (!first) return '';
  return first.context
    .filter(
      (_, i) => i > 0 && CONTAINERS.has((first.context[i - 1]?.type as { _tag?: string } | undefined)?._tag ?? ''),
    )
    .map((entry) => entry.key)
    .join('.');
};
