import * as t from 'io-ts';

// io-ts codecs for environment variables: each decodes the raw string (or its absence) into a value
// and says, in words, what it expects. Group modules declare their variables with these.

export class EnvVar<A> extends t.Type<A, string | undefined, unknown> {
  constructor(
    name: string,
    readonly expected: string,
    parse: (raw: string | undefined) => { ok: true; value: A } | { ok: false },
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
}

export const optionalString = new EnvVar<string | undefined>('string', 'a string', (raw) => ({ ok: true, value: raw }));

export const intVar = (min: number, max: number, fallback: number) =>
  new EnvVar<number>('int', `a whole number from ${min} to ${max}`, (raw) => {
    if (raw === undefined) return { ok: true, value: fallback };
    const n = Number(raw);
    return /^\d+$/.test(raw) && n >= min && n <= max ? { ok: true, value: n } : { ok: false };
  });

export const enumVar = <V extends string>(values: readonly V[], fallback: V) =>
  new EnvVar<V>('enum', `one of ${values.join(', ')}`, (raw) =>
    raw === undefined
      ? { ok: true, value: fallback }
      : (values as readonly string[]).includes(raw)
        ? { ok: true, value: raw as V }
        : { ok: false },
  );

export const boolVar = (fallback: boolean) =>
  new EnvVar<boolean>('bool', 'true or false', (raw) =>
    raw === undefined
      ? { ok: true, value: fallback }
      : raw === 'true' || raw === 'false'
        ? { ok: true, value: raw === 'true' }
        : { ok: false },
  );

/** An http(s) URL without trailing slashes; with a fallback the value is always there. */
export function urlVar(fallback: string): EnvVar<string>;
export function urlVar(): EnvVar<string | undefined>;
export function urlVar(fallback?: string): EnvVar<string> | EnvVar<string | undefined> {
  return new EnvVar<string | undefined>('url', 'an http(s) URL', (raw) => {
    if (raw === undefined) return { ok: true, value: fallback };
    try {
      const u = new URL(raw);
      return u.protocol === 'http:' || u.protocol === 'https:'
        ? { ok: true, value: raw.replace(/\/+$/, '') }
        : { ok: false };
    } catch {
      return { ok: false };
    }
  });
}

export const tokenVar = new EnvVar<string | undefined>('token', 'a token of at least 8 characters', (raw) =>
  raw === undefined || raw.length >= 8 ? { ok: true, value: raw } : { ok: false },
);

/** Variable names whose values are never echoed in an error. */
export const SECRET_VARIABLE = /TOKEN|SECRET|KEY|PASSWORD|DATABASE_URL/;
