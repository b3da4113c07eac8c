import type * as t from 'io-ts';
import { withArticle } from '../../domain/shared/articles.js';
import { checkArgumentShape, preview, shownKey } from './argument-limits.js';
import { describeExpected, toJsonSchema, type JsonSchema } from './json-schema.js';
import { invalidParameter, type ToolError } from './tool-error.js';

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u);

const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
};

const closest = (name: string, candidates: readonly string[]): string | undefined => {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const score = distance(lower, c.toLowerCase());
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best !== undefined && bestScore <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
};

/**
 * The members a misnamed one most likely meant: the closest by spelling, else those that begin with it
 * (`field` for field_id, field_label, field_type), at most three, in the schema's order.
 */
const guessesFor = (name: string, candidates: readonly string[]): readonly string[] => {
  const close = closest(name, candidates);
  if (close) return [close];
  const lower = name.toLowerCase();
  return lower.length >= 3 ? candidates.filter((c) => c.toLowerCase().startsWith(lower)).slice(0, 3) : [];
};

const didYouMean = (guesses: readonly string[]): string => {
  if (!guesses.length) return '';
  const quoted = guesses.map((g) => `"${g}"`);
  return ` Did you mean ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`}?`;
};

/**
 * Rejects members the schema does not declare, at any depth: models misspell parameters, and
 * silently ignoring one hides the mistake. First bounds the arguments' depth and size and refuses
 * reserved keys such as `__proto__` (see argument-limits.ts), so nothing after it recurses into
 * unbounded input.
 */
export const findUnknownMember = (value: unknown, schema: JsonSchema): ToolError | undefined =>
  checkArgumentShape(value, schema) ?? unknownIn(value, schema, '');

const unknownIn = (value: unknown, schema: JsonSchema, path: string): ToolError | undefined => {
  if (schema.type === 'object' && schema.properties && isPlainObject(value)) {
    const accepted = Object.keys(schema.properties);
    for (const key of Object.keys(value)) {
      const sub = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      const at = path ? `${path}.${shownKey(key)}` : shownKey(key);
      if (!sub) {
        // A guess costs key length times candidate length; a huge key gets none.
        const guesses = key.length <= 64 ? guessesFor(key, accepted) : [];
        const where = path ? ` in "${path}"` : '';
        return invalidParameter(
          `Unknown parameter "${at}"${where}.${didYouMean(guesses)} Accepted: ${accepted.join(', ')}.`,
          at,
          'no such parameter',
          { accepted },
        );
      }
      const nested = unknownIn(value[key], sub, at);
      if (nested) return nested;
    }
  } else if (schema.type === 'array' && schema.items && Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const nested = unknownIn(item, schema.items, `${path}[${i}]`);
      if (nested) return nested;
    }
  }
  return undefined;
};

type Tagged = t.Mixed & { _tag?: string; type?: unknown; inner?: unknown };

/** Looks through wrappers that validate with their parent's context (exact, described, refined). */
const unwrap = (codec: Tagged): Tagged => {
  let c = codec;
  for (;;) {
    if (c._tag === 'DescribedType') c = c.inner as Tagged;
    else if (c._tag === 'ExactType' || c._tag === 'RefinementType' || c._tag === 'ReadonlyType') c = c.type as Tagged;
    else return c;
  }
};

/**
 * A codec's own advice for a value it refused (`withHint` in codecs.ts): an email where a contact id goes
 * points to crm_searchContacts.
 */
const hintOf = (codec: Tagged, value: unknown): string | undefined => {
  for (let c: Tagged | undefined = codec; c; c = c._tag === 'DescribedType' ? (c.inner as Tagged) : undefined) {
    const hint = (c as { hint?: (value: unknown) => string | undefined }).hint;
    if (typeof hint === 'function') return hint(value);
  }
  return undefined;
};

/** Turns io-ts's first error into a 400 that names the parameter and its expected type. */
export const explainDecodeErrors = (errors: t.Errors): ToolError => {
  const first = errors[0];
  if (!first) return invalidParameter('Invalid parameters.', '', 'object');
  const parts: string[] = [];
  const ctx = first.context;
  for (let i = 1; i < ctx.length; i++) {
    const parent = unwrap(ctx[i - 1]!.type as Tagged);
    const entry = ctx[i]!;
    if (parent._tag === 'IntersectionType' || parent._tag === 'UnionType') continue;
    if (parent._tag === 'ArrayType' || parent._tag === 'ReadonlyArrayType') parts.push(`[${entry.key}]`);
    else parts.push(parts.length ? `.${entry.key}` : entry.key);
  }
  const expectedSchema = toJsonSchema(ctx[ctx.length - 1]!.type as t.Mixed);
  const parameter = parts.join('');
  const expected = describeExpected(expectedSchema);
  if (!parameter) return invalidParameter(`The body must be a JSON object of parameters.`, 'body', 'JSON object');
  const hint = first.value === undefined ? undefined : hintOf(ctx[ctx.length - 1]!.type as Tagged, first.value);
  // an empty string is a string: say that it is empty and what it must hold (the schema's own words)
  const said = typeof expectedSchema.description === 'string' ? expectedSchema.description.trim() : '';
  const holds = said ? `: ${said.length > 400 ? `${said.slice(0, 400)}…` : said.replace(/\.$/, '')}` : '';
  const message =
    first.value === undefined
      ? `Missing required parameter "${parameter}" (${expected}).`
      : first.value === ''
        ? `Parameter "${parameter}" is empty; it must be ${withArticle(expected)}${holds}.${hint ? ` ${hint}` : ''}`
        : `Parameter "${parameter}" must be ${withArticle(expected)}; got ${preview(first.value)}.${hint ? ` ${hint}` : ''}`;
  return invalidParameter(message, parameter, expected);
};

/**
 * The arguments a strict-mode model sends, with the nulls it puts in optional parameters removed, so that
 * they mean "not given" to the gateway.
 */
export const dropNullOptionals = (schema: JsonSchema, value: unknown): unknown => {
  if (Array.isArray(value)) return schema.items ? value.map((v) => dropNullOptionals(schema.items!, v)) : value;
  if (value === null || typeof value !== 'object' || !schema.properties) return value;
  const required = schema.required;
  const out: Record<string, unknown> = {};
  const given = value as Record<string, unknown>;
  for (const k of Object.keys(given)) {
    const v = given[k];
    const prop = Object.hasOwn(schema.properties, k) ? schema.properties[k] : undefined;
    if (v === null && prop && !required?.includes(k)) continue;
    const copy = prop ? dropNullOptionals(prop, v) : v;
    // A "__proto__" key is defined, not assigned: it stays an own key (for the unknown-member check to
    // refuse) instead of replacing the copy's prototype. (defineProperty for every key is much slower.)
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[k] = copy;
  }
  // A parser upstream that copies by assignment would already have turned a "__proto__" key into the
  // prototype: carry it over as that key, so that the smuggling is refused rather than silently lost.
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null && !Object.hasOwn(out, '__proto__')) {
    Object.defineProperty(out, '__proto__', { value: proto, enumerable: true, writable: true, configurable: true });
  }
  return out;
};
