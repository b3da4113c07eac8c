import * as t from 'io-ts';
import { BoundedArrayType, SchemaType, type DescribedType, type JsonSchema } from './json-schema.js';
import { exactMembers } from './members-codec.js';

export * as t from 'io-ts';
export { described } from './json-schema.js';

/** A string id made of digits (HubSpot ids). Numbers are accepted and turned into strings. */
export const NumericString = new SchemaType<string, string, unknown>(
  'NumericString',
  (u): u is string => typeof u === 'string' && /^[0-9]+$/.test(u),
  (u, c) => {
    if (typeof u === 'string' && /^[0-9]+$/.test(u.trim())) return t.success(u.trim());
    if (typeof u === 'number' && Number.isSafeInteger(u) && u >= 0) return t.success(String(u));
    return t.failure(u, c);
  },
  (a) => a,
  { type: 'string', pattern: '^[0-9]+$' },
);

/**
 * A codec with advice for a value it refuses, added to the 400's message (`explainDecodeErrors`): where to
 * find what goes there instead.
 */
export const withHint = <C extends t.Mixed>(codec: C, hint: (value: unknown) => string | undefined): C =>
  Object.assign(Object.create(Object.getPrototypeOf(codec) as object) as C, codec, { hint });

/** A positive integer id (Podio ids). Numeric strings are accepted and turned into numbers. */
export const NumericId = new SchemaType<number, number, unknown>(
  'NumericId',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u > 0,
  (u, c) => {
    const n = typeof u === 'string' && /^[0-9]+$/.test(u.trim()) ? Number(u) : u;
    return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? t.success(n) : t.failure(u, c);
  },
  (a) => a,
  { type: 'integer', minimum: 1 },
);

/** The largest row offset a paged listing takes: far past any real list, and a bound on hostile input. */
export const MAX_OFFSET = 1_000_000;

/** An integer within bounds; a numeric string is accepted, since models often quote numbers. */
export const intRange = (min: number, max?: number): SchemaType<number, number, unknown> =>
  new SchemaType<number, number, unknown>(
    `Int(${min}..${max ?? ''})`,
    (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && (max === undefined || u <= max),
    (u, c) => {
      const n = typeof u === 'string' && /^-?[0-9]+$/.test(u.trim()) ? Number(u) : u;
      return typeof n === 'number' && Number.isInteger(n) && n >= min && (max === undefined || n <= max)
        ? t.success(n)
        : t.failure(u, c);
    },
    (a) => a,
    { type: 'integer', minimum: min, ...(max !== undefined ? { maximum: max } : {}) },
  );

/** A two-letter US state code, upper-cased. */
export const StateCode = new SchemaType<string, string, unknown>(
  'StateCode',
  (u): u is string => typeof u === 'string' && /^[A-Z]{2}$/.test(u),
  (u, c) =>
    typeof u === 'string' && /^[A-Za-z]{2}$/.test(u.trim()) ? t.success(u.trim().toUpperCase()) : t.failure(u, c),
  (a) => a,
  { type: 'string', pattern: '^[A-Za-z]{2}$' },
);

/** A string with at least one non-blank character. */
export const NonEmptyString = new SchemaType<string, string, unknown>(
  'NonEmptyString',
  (u): u is string => typeof u === 'string' && u.trim().length > 0,
  (u, c) => (typeof u === 'string' && u.trim().length > 0 ? t.success(u) : t.failure(u, c)),
  (a) => a,
  { type: 'string', minLength: 1 },
);

/**
 * A string of at most `maxLength` characters (schema `maxLength`): free text that drives work (a search
 * query, a filter expression) is bounded before any work starts.
 */
export const stringUpTo = (maxLength: number): SchemaType<string, string, unknown> =>
  new SchemaType<string, string, unknown>(
    `String(..${maxLength})`,
    (u): u is string => typeof u === 'string' && u.length <= maxLength,
    (u, c) => (typeof u === 'string' && u.length <= maxLength ? t.success(u) : t.failure(u, c)),
    (a) => a,
    { type: 'string', maxLength },
  );

/** A string with at least one non-blank character and at most `maxLength` characters. */
export const nonEmptyUpTo = (maxLength: number): SchemaType<string, string, unknown> =>
  new SchemaType<string, string, unknown>(
    `NonEmptyString(..${maxLength})`,
    (u): u is string => typeof u === 'string' && u.trim().length > 0 && u.length <= maxLength,
    (u, c) => (typeof u === 'string' && u.trim().length > 0 && u.length <= maxLength ? t.success(u) : t.failure(u, c)),
    (a) => a,
    { type: 'string', minLength: 1, maxLength },
  );

/** An array of at most `maxItems` members (schema `maxItems`). */
export const arrayUpTo = <C extends t.Mixed>(item: C, maxItems: number): BoundedArrayType<C> =>
  new BoundedArrayType(item, maxItems);

/** A property value: a string; numbers and booleans are written as strings, as the CRM stores them. */
export const PropertyValue = new SchemaType<string, string, unknown>(
  'PropertyValue',
  (u): u is string => typeof u === 'string',
  (u, c) =>
    typeof u === 'string'
      ? t.success(u)
      : typeof u === 'number' && Number.isFinite(u)
        ? t.success(String(u))
        : typeof u === 'boolean'
          ? t.success(String(u))
          : t.failure(u, c),
  (a) => a,
  { type: 'string' },
);

/** A closed set of strings (schema `enum`). */
export const oneOf = <const V extends readonly [string, ...string[]]>(
  values: V,
  name = 'Enum',
): SchemaType<V[number], V[number], unknown> => {
  const set = new Set<string>(values);
  return new SchemaType<V[number], V[number], unknown>(
    name,
    (u): u is V[number] => typeof u === 'string' && set.has(u),
    (u, c) => (typeof u === 'string' && set.has(u) ? t.success(u as V[number]) : t.failure(u, c)),
    (a) => a,
    { type: 'string', enum: values },
  );
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Described = DescribedType<any>;
type DescribedProps = Record<string, Described>;

/** The optional members that have a default: present once decoded. */
type DefaultedKeys<O extends t.Props> = {
  [K in keyof O]: O[K] extends { readonly hasDefault: true } ? K : never;
}[keyof O];

/** What a tool's use case receives: required members, defaulted members (filled in) and optional ones. */
export type ParamsOf<R extends t.Props, O extends t.Props> = t.TypeOfProps<R> & {
  [K in DefaultedKeys<O>]: t.TypeOf<O[K]>;
} & { [K in Exclude<keyof O, DefaultedKeys<O>>]?: t.TypeOf<O[K]> };

export type ParamsCodec<R extends DescribedProps, O extends DescribedProps> = t.ExactType<
  t.IntersectionC<[t.TypeC<R>, t.PartialC<O>]>,
  ParamsOf<R, O>,
  t.OutputOf<t.IntersectionC<[t.TypeC<R>, t.PartialC<O>]>>,
  unknown
> & {
  /** The declared defaults of the optional members, by name. */
  readonly defaults: Readonly<Record<string, unknown>>;
};

/**
 * A tool's parameters: required and optional members, each described for the model. The result is
 * an exact io-ts codec; unknown members are rejected by the executor before decoding. An optional
 * member declared with a default is filled in when absent.
 */
export const params = <R extends DescribedProps, O extends DescribedProps>(
  required: R,
  optional: O,
): ParamsCodec<R, O> => {
  const codec = exactMembers(required, optional);
  const defaults: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(optional)) {
    if (member.defaultValue !== undefined) defaults[key] = member.defaultValue;
  }
  return Object.assign(codec, { defaults }) as unknown as ParamsCodec<R, O>;
};

/**
 * Arguments for a follow-up call, without the members that only repeat a declared default (decoding
 * filled them in; the model need not send them).
 */
export const withoutDefaults = <P extends object>(
  codec: { readonly defaults: Readonly<Record<string, unknown>> },
  args: P,
): Partial<P> => {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(codec.defaults, key) || !sameValue(codec.defaults[key], value)) out[key] = value;
  }
  return out as Partial<P>;
};

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i])));

/**
 * Shorthand for nested objects with required and optional members (schema: additionalProperties false);
 * optional members with a default are filled in, as in `params`.
 */
export const object = <R extends t.Props, O extends t.Props>(
  name: string,
  required: R,
  optional: O,
): t.ExactType<
  t.IntersectionC<[t.TypeC<R>, t.PartialC<O>]>,
  ParamsOf<R, O>,
  t.OutputOf<t.IntersectionC<[t.TypeC<R>, t.PartialC<O>]>>,
  unknown
> => exactMembers(required, optional, name) as never;

export type { JsonSchema };
