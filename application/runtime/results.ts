import * as t from 'io-ts';

// Building blocks of the tools' result codecs (`result` in a declaration): objects that allow no other
// members, so that a payload member a declaration does not name fails the result tests.

/** An object with required and optional members and no others. */
export const resultObject = <R extends t.Props, O extends t.Props>(name: string, required: R, optional?: O) =>
  optional ? t.exact(t.intersection([t.type(required), t.partial(optional)]), name) : t.exact(t.type(required), name);

export const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);
