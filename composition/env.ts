import * as t from 'io-ts';
import { E } from '../domain/shared/fp.js';

// io-ts codecs for environment variables: each decodes the raw string (or its absence) into a value,
// says in words what it expects, and carries its documentation (its default as a person reads it, and
// its meaning). The configuration table (docs/configuration.md) is generated from these codecs alone.

type Parse<A> = (raw: string | undefined) => { ok: true; value: A } | { ok: false };

export class EnvVar<A> extends t.Type<A, string | undefined, unknown> {
  constructor(
    name: string,
    readonly expected: string,
    private readonly parse: Parse<A>,
    /** The default as the table shows it ("(none)" when there is none). */
    readonly fallback = '(none)',
    /** What the variable does; every variable the gateway reads has one (a test checks it). */
    readonly meaning = '',
  ) {
    super(
      name,
      (_u): _u is A => true,
      (u, c) => {
        const raw = typeof u === 'string' && u.trim() !== '' ? u.trim() : undefined;
        const r = parse(raw);
        return r.ok ? t.success(r.value) : t.failure(u, c, expected);
      },
      () => undefined,
    );
  }

  /** This variable, documented: what it means, and its default when the table should word it otherwise. */
  doc(meaning: string, fallback = this.fallback): EnvVar<A> {
    return new EnvVar(this.name, this.expected, this.parse, fallback, meaning);
  }
}

/** One row of the configuration table: name, default, meaning. */
export type EnvironmentRow = readonly [name: string, fallback: string, meaning: string];

/** The table rows of a set of variables, in their order. */
export const environmentRows = (props: Readonly<Record<string, t.Mixed>>): EnvironmentRow[] =>
  Object.entries(props).map(([name, codec]) =>
    codec instanceof EnvVar ? [name, codec.fallback, codec.meaning] : [name, '(none)', ''],
  );

export const optionalString = new EnvVar<string | undefined>('string', 'a string', (raw) => ({ ok: true, value: raw }));

export const intVar = (min: number, max: number, fallback: number) =>
  new EnvVar<number>(
    'int',
    `a whole number from ${min} to ${max}`,
    (raw) => {
      if (raw === undefined) return { ok: true, value: fallback };
      const n = Number(raw);
      return /^\d+$/.test(raw) && n >= min && n <= max ? { ok: true, value: n } : { ok: false };
    },
    String(fallback),
  );

export const enumVar = <V extends string>(values: readonly V[], fallback: V) =>
  new EnvVar<V>(
    'enum',
    `one of ${values.join(', ')}`,
    (raw) => {
      if (raw === undefined) return { ok: true, value: fallback };
      const found = values.find((v) => v === raw);
      return found === undefined ? { ok: false } : { ok: true, value: found };
    },
    fallback,
  );

export const boolVar = (fallback: boolean) =>
  new EnvVar<boolean>(
    'bool',
    'true or false',
    (raw) =>
      raw === undefined
        ? { ok: true, value: fallback }
        : raw === 'true' || raw === 'false'
          ? { ok: true, value: raw === 'true' }
          : { ok: false },
    String(fallback),
  );

/** An http(s) URL without trailing slashes; with a fallback the value is always there. */
export function urlVar(fallback: string): EnvVar<string>;
export function urlVar(): EnvVar<string | undefined>;
export function urlVar(fallback?: string): EnvVar<string> | EnvVar<string | undefined> {
  return new EnvVar<string | undefined>(
    'url',
    'an http(s) URL',
    (raw) => {
      if (raw === undefined) return { ok: true, value: fallback };
      try {
        const u = new URL(raw);
        return u.protocol === 'http:' || u.protocol === 'https:'
          ? { ok: true, value: raw.replace(/\/+$/, '') }
          : { ok: false };
      } catch {
        return { ok: false };
      }
    },
    fallback,
  );
}

export const tokenVar = new EnvVar<string | undefined>('token', 'a token of at least 8 characters', (raw) =>
  raw === undefined || raw.length >= 8 ? { ok: true, value: raw } : { ok: false },
);

/** Variable names whose values are never echoed in an error. */
export const SECRET_VARIABLE = /TOKEN|SECRET|KEY|PASSWORD|DATABASE_URL/;

/**
 * A variable holding JSON: decoded by `codec` and accepted by `check`; `empty` when the variable is unset.
 * A value that is not JSON, or not of the codec's shape, is refused with `expected`.
 */
export const jsonVar = <A>(
  name: string,
  expected: string,
  codec: t.Decoder<unknown, A>,
  empty: A,
  check: (value: A) => boolean = () => true,
): EnvVar<A> =>
  new EnvVar<A>(name, expected, (raw) => {
    if (raw === undefined) return { ok: true, value: empty };
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return { ok: false };
    }
    const decoded = codec.decode(parsed);
    return E.isRight(decoded) && check(decoded.right) ? { ok: true, value: decoded.right } : { ok: false };
  });
