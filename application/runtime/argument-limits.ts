import type { JsonSchema } from './json-schema.js';
import { invalidParameter, type ToolError } from './tool-error.js';

/**
 * Bounds on the shape of a call's arguments, checked by one iterative walk before anything recursive
 * (null dropping, the unknown-member check, decoding, error explaining, the idempotency fingerprint)
 * touches them. The deepest real tool argument is a handful of levels (record fields holding arrays of
 * objects), so these are far above any honest call and far below what exhausts the stack.
 */
export const ARGUMENT_LIMITS = {
  /** Nested objects and arrays, the arguments object itself being level 1. */
  maxDepth: 64,
  /** Objects, arrays and scalars in all. */
  maxNodes: 100_000,
} as const;

/** Keys that reach the prototype machinery of a plain object; never parameters. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u);

/** A key as it appears in messages and paths: long keys are cut, since they are echoed back. */
export const shownKey = (key: string): string => (key.length > 64 ? `${key.slice(0, 61)}...` : key);

const join = (path: string, key: string): string => (path ? `${path}.${shownKey(key)}` : shownKey(key));

/** Whether an object under this schema may hold keys the schema does not name (a free-form map). */
const freeForm = (schema: JsonSchema | undefined, inherited: boolean): boolean => {
  if (!schema) return inherited;
  if (schema.anyOf) return schema.anyOf.some((s) => freeForm(s, false));
  if (schema.properties) return false;
  return schema.additionalProperties !== false;
};

const memberSchema = (schema: JsonSchema | undefined, key: string): JsonSchema | undefined => {
  if (!schema) return undefined;
  if (schema.anyOf) {
    for (const s of schema.anyOf) {
      const m = memberSchema(s, key);
      if (m) return m;
    }
    return undefined;
  }
  if (schema.properties) return Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
};

const itemSchema = (schema: JsonSchema | undefined): JsonSchema | undefined =>
  schema?.items ?? schema?.anyOf?.find((s) => s.items)?.items;

interface Pending {
  readonly value: object;
  readonly schema: JsonSchema | undefined;
  /** Inside a value whose keys are the caller's own (record fields, contact properties). */
  readonly open: boolean;
  readonly depth: number;
  /** Where the value sits, kept as a link to its parent: paths are only spelled out for an error. */
  readonly parent: Pending | undefined;
  readonly key: string | number;
}

const pathOf = (p: Pending | undefined, last?: string | number): string => {
  const parts: (string | number)[] = last === undefined ? [] : [last];
  for (let at = p; at?.parent; at = at.parent) parts.push(at.key);
  let out = '';
  for (const k of parts.reverse()) out = typeof k === 'number' ? `${out}[${k}]` : join(out, k);
  return out;
};

const tooMany = (path: string): ToolError =>
  invalidParameter(
    `The parameters hold more than ${ARGUMENT_LIMITS.maxNodes} values in all; send fewer items per call.`,
    path || 'body',
    `at most ${ARGUMENT_LIMITS.maxNodes} values in all`,
    {
      limit: ARGUMENT_LIMITS.maxNodes,
    },
  );

/**
 * Refuses arguments nested deeper than `maxDepth`, with more than `maxNodes` values, or with a reserved
 * key: `__proto__` anywhere (JSON.parse makes it an own key, and copying it onto an object would replace
 * that object's prototype), and `constructor` or `prototype` anywhere but inside a free-form map.
 * Iterative, so the input's depth never reaches the call stack.
 */
export const checkArgumentShape = (args: unknown, schema: JsonSchema): ToolError | undefined => {
  if (typeof args !== 'object' || args === null) return undefined;
  const stack: Pending[] = [{ value: args, schema, open: false, depth: 1, parent: undefined, key: '' }];
  let nodes = 1;
  while (stack.length) {
    const entry = stack.pop()!;
    const { value, schema: s, open, depth } = entry;
    if (depth > ARGUMENT_LIMITS.maxDepth) {
      const path = pathOf(entry);
      return invalidParameter(
        `Parameter "${path}" is nested more than ${ARGUMENT_LIMITS.maxDepth} levels deep; no tool takes values that deep.`,
        path,
        `value nested at most ${ARGUMENT_LIMITS.maxDepth} levels deep`,
        { limit: ARGUMENT_LIMITS.maxDepth },
      );
    }
    if (Array.isArray(value)) {
      const items = itemSchema(s);
      nodes += value.length;
      if (nodes > ARGUMENT_LIMITS.maxNodes)
        return tooMany(pathOf(entry, Math.max(0, value.length - (nodes - ARGUMENT_LIMITS.maxNodes))));
      for (let i = value.length - 1; i >= 0; i--) {
        const item: unknown = value[i];
        if (typeof item === 'object' && item !== null)
          stack.push({ value: item, schema: items, open, depth: depth + 1, parent: entry, key: i });
      }
      continue;
    }
    const record = value as Record<string, unknown>;
    const mapHere = freeForm(s, open);
    // A prototype other than Object's can only come from a "__proto__" key that a parser assigned.
    const proto: unknown = Object.getPrototypeOf(record);
    const keys = Object.keys(record);
    if (proto !== Object.prototype && proto !== null && !Object.hasOwn(record, '__proto__')) keys.push('__proto__');
    nodes += keys.length;
    if (nodes > ARGUMENT_LIMITS.maxNodes) return tooMany(pathOf(entry));
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (
        key === '__proto__' ||
        (RESERVED.has(key) && !mapHere && !(s?.properties !== undefined && Object.hasOwn(s.properties, key)))
      ) {
        const at = pathOf(entry, key);
        const path = pathOf(entry);
        return invalidParameter(
          `Unknown parameter "${at}": "${shownKey(key)}" is a reserved name and never a parameter.${s?.properties ? ` Accepted${path ? ` in "${path}"` : ''}: ${Object.keys(s.properties).join(', ')}.` : ''}`,
          at,
          'no such parameter',
          s?.properties ? { accepted: Object.keys(s.properties) } : {},
        );
      }
      const member: unknown = record[key];
      if (typeof member === 'object' && member !== null)
        stack.push({
          value: member,
          schema: memberSchema(s, key),
          open: mapHere,
          depth: depth + 1,
          parent: entry,
          key,
        });
    }
  }
  return undefined;
};

/**
 * A short JSON-like preview of a value for an error message: never more than about `max` characters,
 * however large or deep the value (it stops as soon as the budget is spent, so it never recurses deeper
 * than `max` levels).
 */
export const preview = (u: unknown, max = 60): string => {
  let out = '';
  const write = (v: unknown): boolean => {
    if (out.length >= max) return false;
    if (typeof v === 'string') {
      out += JSON.stringify(v.length > max ? v.slice(0, max) : v);
      return out.length < max;
    }
    if (Array.isArray(v)) {
      out += '[';
      for (let i = 0; i < v.length; i++) {
        if (i) out += ',';
        if (!write(v[i])) return false;
      }
      out += ']';
      return out.length < max;
    }
    if (isPlainObject(v)) {
      out += '{';
      let first = true;
      for (const k of Object.keys(v)) {
        out += `${first ? '' : ','}${JSON.stringify(shownKey(k))}:`;
        first = false;
        if (!write(v[k])) return false;
      }
      out += '}';
      return out.length < max;
    }
    out +=
      v === undefined
        ? 'undefined'
        : typeof v === 'number' || typeof v === 'boolean' || v === null
          ? String(v)
          : typeof v;
    return out.length < max;
  };
  const complete = write(u);
  const size = typeof u === 'string' ? ` (${u.length} characters)` : Array.isArray(u) ? ` (${u.length} items)` : '';
  if (complete && out.length <= max) return out;
  return `${out.slice(0, Math.max(0, max - 3))}...${size}`;
};
