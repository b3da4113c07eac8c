import * as t from 'io-ts';

// Building blocks of the tools' result codecs (`result` in a declaration). Most objects allow no other
// members (`resultObject`), so that a payload member a declaration does not name fails the result tests.
// A vendor's own object passed through as the vendor sends it (a ShareFile item, a BatchData person) is an
// `openObject`: its usual members are named and typed, and others the vendor adds are allowed.

/** An object with required and optional members and no others. */
export const resultObject = <R extends t.Props, O extends t.Props>(name: string, required: R, optional?: O) =>
  optional ? t.exact(t.intersection([t.type(required), t.partial(optional)]), name) : t.exact(t.type(required), name);

export const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

/** An object whose named members are checked and which may carry others (see json-schema.ts). */
export class OpenObjectType<C extends t.Mixed> extends t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown> {
  readonly _tag = 'OpenObjectType' as const;
  constructor(readonly inner: C) {
    super(inner.name, inner.is, inner.validate, inner.encode);
  }
}

export const openObject = <R extends t.Props, O extends t.Props>(name: string, required: R, optional?: O) =>
  new OpenObjectType(optional ? t.intersection([t.type(required), t.partial(optional)], name) : t.type(required, name));

/**
 * A person as every tool names one: who created a record, wrote a comment, made a revision. Always
 * `user_id` and `name`; the comment and revision answers also carry the spec's `mail`, `org_id`, `type` (and
 * `id` on revisions).
 */
export const UserRef = resultObject(
  'User',
  { user_id: t.number, name: t.string },
  { id: t.number, profile_id: t.number, mail: t.array(t.string), org_id: nullable(t.number), type: t.string },
);

/**
 * What a list answer carries when the output budget cut it (the same rows as its text): how many rows it
 * shows of how many this page had, and the call that returns the rest. The list's own cursor is then left
 * out, because following it would skip the rows that were cut.
 */
export const Truncated = resultObject('Truncated', {
  shown: t.number,
  of: t.number,
  next: resultObject('NextCall', { tool: t.string, arguments: t.record(t.string, t.unknown) }),
});

/** The answer of a Destructive tool called with dry_run (or refused for confirmation): what would go. */
export const PreviewResult = resultObject(
  'Preview',
  { dry_run: t.literal(true), would: t.string, preview: t.record(t.string, t.unknown) },
  {
    // the model's way to go ahead; none where the workspace requires a person (human_approval: 'required')
    confirm_token: t.string,
    human_approval: t.literal('required'),
  },
);

/** A Destructive tool's result: its preview under dry_run, or what it did. */
export const destructive = <C extends t.Mixed>(done: C) => t.union([PreviewResult, done]);
