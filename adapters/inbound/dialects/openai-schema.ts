import type { JsonSchema } from '../../../application/runtime/json-schema.js';

/** A schema node as a vendor receives it (types may be lists, enums may hold null). */
export type SchemaNode = Record<string, unknown>;

/** Thrown while converting when a node has no strict-mode form (an open dictionary, a value of any type). */
export class NotStrict extends Error {}

// What OpenAI's strict mode (Structured Outputs) documents as supported; everything else is folded into
// the description so the model still reads it.
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** The JSON type of a list of enum values, when they share one. */
export const enumType = (values: readonly unknown[]): 'string' | 'integer' | 'number' | 'boolean' | undefined => {
  if (values.every((v) => typeof v === 'string')) return 'string';
  if (values.every((v) => typeof v === 'number' && Number.isInteger(v))) return 'integer';
  if (values.every((v) => typeof v === 'number')) return 'number';
  if (values.every((v) => typeof v === 'boolean')) return 'boolean';
  return undefined;
};

/** Sentences for keywords a vendor does not take, appended to the description. */
export const foldedNotes = (s: JsonSchema, keep: (keyword: string) => boolean): string[] => {
  const notes: string[] = [];
  if (s.minLength !== undefined && !keep('minLength'))
    notes.push(s.minLength === 1 ? 'Must not be empty.' : `At least ${s.minLength} characters.`);
  if (s.maxLength !== undefined && !keep('maxLength')) notes.push(`At most ${s.maxLength} characters.`);
  if (s.pattern !== undefined && !keep('pattern')) notes.push(`Must match the pattern ${s.pattern}.`);
  if (s.minimum !== undefined && !keep('minimum')) notes.push(`Minimum ${s.minimum}.`);
  if (s.maximum !== undefined && !keep('maximum')) notes.push(`Maximum ${s.maximum}.`);
  if (s.minItems !== undefined && !keep('minItems')) notes.push(`At least ${s.minItems} items.`);
  if (s.maxItems !== undefined && !keep('maxItems')) notes.push(`At most ${s.maxItems} items.`);
  if (s.format !== undefined && !keep('format')) notes.push(`Format: ${s.format}.`);
  if (s.default !== undefined && !keep('default') && !/\bdefault/i.test(s.description ?? ''))
    notes.push(`Default: ${JSON.stringify(s.default)}.`);
  if (s.examples?.length && !keep('examples')) notes.push(`Example: ${JSON.stringify(s.examples[0])}.`);
  return notes;
};

export const withNotes = (description: string | undefined, notes: readonly string[]): string | undefined => {
  const text = [description?.trim(), ...notes].filter((p): p is string => Boolean(p)).join(' ');
  return text || undefined;
};

const STRICT_KEEP = new Set(['pattern', 'minimum', 'maximum', 'minItems', 'maxItems']);

/**
 * One node in OpenAI strict form: every property required, the optional ones nullable, no additional
 * properties anywhere, and only the keywords strict mode accepts.
 */
const strictNode = (s: JsonSchema, nullable: boolean): SchemaNode => {
  const out: SchemaNode = {};
  const keep = (k: string) =>
    STRICT_KEEP.has(k) || (k === 'format' && s.format !== undefined && STRICT_FORMATS.has(s.format));
  if (s.anyOf) {
    const members = s.anyOf.map((m) => strictNode(m, false));
    out['anyOf'] = nullable ? [...members, { type: 'null' }] : members;
  } else {
    const values = s.enum ?? (s.const !== undefined ? [s.const] : undefined);
    const type = s.type ?? (values ? enumType(values) : undefined);
    if (type === undefined) throw new NotStrict('a value of any type');
    if (type === 'object' && s.additionalProperties !== undefined && s.additionalProperties !== false) {
      throw new NotStrict('open dictionary');
    }
    if (type !== undefined) out['type'] = nullable ? [type, 'null'] : type;
    if (values) out['enum'] = nullable ? [...values, null] : [...values];
    if (type === 'object') {
      const properties = s.properties ?? {};
      const required = new Set(s.required ?? []);
      out['properties'] = Object.fromEntries(
        Object.entries(properties).map(([k, v]) => [k, strictNode(v, !required.has(k))]),
      );
      out['required'] = Object.keys(properties);
      out['additionalProperties'] = false;
    }
    if (type === 'array' && s.items) out['items'] = strictNode(s.items, false);
  }
  for (const k of STRICT_KEEP) {
    const v = (s as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  if (keep('format')) out['format'] = s.format;
  const description = withNotes(s.description, [
    ...foldedNotes(s, keep),
    ...(nullable && !/\bnull\b/.test(s.description ?? '') ? ['Null when not needed.'] : []),
  ]);
  if (description) out['description'] = description;
  return out;
};

/** The tool's parameters in strict form, or undefined when strict mode cannot express them. */
export const toOpenAiStrict = (schema: JsonSchema): SchemaNode | undefined => {
  try {
    return strictNode(schema, false);
  } catch (e) {
    if (e instanceof NotStrict) return undefined;
    throw e;
  }
};

export { dropNullOptionals } from '../../../application/runtime/arguments.js';
