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
